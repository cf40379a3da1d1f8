import type { z } from "zod";
import type { loginInput } from "../../../shared/schemas/auth";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { burnPasswordCheck, verifyPassword } from "../../lib/password";
import { findUserByEmail, INVALID_CREDENTIALS, syncAdminRole } from "./accounts";
import { createSession, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";
import { reserveLoginAttempt } from "./throttle";

export async function login(
  deps: Deps,
  input: z.output<typeof loginInput>,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  // Reserved before the password is evaluated: parallel guesses cannot outrun the limits (throttle.ts).
  const attempt = await reserveLoginAttempt(deps, input.email, meta.ip ?? null);
  let user: UserRow | undefined;
  try {
    user = await findUserByEmail(deps, input.email);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : await burnPasswordCheck(input.password).then(() => false);
    if (!ok) user = undefined;
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!user) {
    await attempt.failed();
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  await attempt.succeeded();
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled");
  const promoted = await syncAdminRole(deps, user);
  const tokens = await createSession(deps, promoted.id, meta);
  return { user: promoted, tokens };
}
