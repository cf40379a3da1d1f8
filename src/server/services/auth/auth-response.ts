import type { AuthResponse } from "../../../shared/schemas/auth";
import type { IssuedTokens, UserRow } from "./sessions";
import { toPublicUser } from "./to-public-user";

export function authResponse(
  user: UserRow,
  tokens: Pick<IssuedTokens, "accessToken" | "refreshToken">,
): AuthResponse {
  return {
    access_token: tokens.accessToken,
    token_type: "bearer",
    refresh_token: tokens.refreshToken,
    user: toPublicUser(user),
  };
}
