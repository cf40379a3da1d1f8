import type { AuthResponse } from "../../shared/schemas/auth";
import type { Deps } from "../deps";
import { authResponse } from "../services/auth/auth-response";
import type { IssuedTokens, UserRow } from "../services/auth/sessions";
import { sessionCookies } from "./session-cookies";

/** Both adapters finish a sign-in the same way: cookies for the SPA, tokens in the body for API clients. */
export function signedIn(
  deps: Deps,
  result: { user: UserRow; tokens: Pick<IssuedTokens, "accessToken" | "refreshToken"> },
  setCookies: ((cookies: string[]) => void) | null,
): AuthResponse {
  setCookies?.(sessionCookies(deps, result.tokens));
  return authResponse(result.user, result.tokens);
}
