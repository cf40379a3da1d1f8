import type { z } from "zod";
import type { registerInput } from "../../../shared/schemas/auth";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashPassword } from "../../lib/password";
import { findUserByEmail, HOUR_MS } from "./accounts";
import { sendVerificationEmail } from "./email-verification";
import { consumeRateLimit, perAddress } from "./rate-limit";
import { createSession, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";

/**
 * Creates a local account and signs it in (spec: registration logs the user in), then mails a verification
 * link. Limited per address before the password is hashed, so a flood of registrations cannot take the
 * CPU from sign-ins; the limit also makes probing which addresses have accounts (the 409) slow.
 */
export async function register(
  deps: Deps,
  input: z.output<typeof registerInput>,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  await consumeRateLimit(
    deps,
    {
      key: perAddress("register", meta.ip),
      max: deps.config.REGISTRATIONS_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
    },
    "Too many accounts were created from your network. Please try again later.",
  );
  if (await findUserByEmail(deps, input.email)) throw new AppError("CONFLICT", "Email already registered");
  const passwordHash = await hashPassword(input.password);
  const inserted = await deps.db
    .insert(users)
    .values({
      email: input.email,
      username: input.email,
      fullName: input.full_name ?? "",
      passwordHash,
      provider: "local",
      // Even an address in ADMIN_EMAILS starts as a user: the role follows the verification link.
      role: "user",
    })
    .onConflictDoNothing()
    .returning();
  const user = inserted[0];
  // A concurrent registration of the same address loses the unique index race here.
  if (!user) throw new AppError("CONFLICT", "Email already registered");
  const tokens = await createSession(deps, user.id, meta);
  await sendVerificationEmail(deps, user);
  deps.log.info("user registered", { userId: user.id });
  return { user, tokens };
}
