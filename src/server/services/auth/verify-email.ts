import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { verifyEmailInput } from "../../../shared/schemas/auth";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { syncAdminRole } from "./accounts";
import {
  checkVerificationToken,
  EMAIL_VERIFIED,
  VERIFICATION_INVALID,
  verificationTokenUserId,
} from "./email-verification";
import type { UserRow } from "./sessions";

/** Follows a verification link: marks the address verified and applies ADMIN_EMAILS at once. */
export async function verifyEmail(
  deps: Deps,
  { token }: z.output<typeof verifyEmailInput>,
): Promise<{ user: UserRow; detail: string }> {
  const userId = verificationTokenUserId(token);
  if (!userId) throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  checkVerificationToken(deps.unsubscribeKey, token, user);
  // The address is matched again in the update: a change of e-mail in between voids the link.
  const [verified] = await deps.db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), sql`lower(${users.email}) = ${user.email.toLowerCase()}`))
    .returning();
  if (!verified) throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  if (!user.emailVerifiedAt) deps.log.info("e-mail verified", { userId: verified.id });
  return { user: await syncAdminRole(deps, verified), detail: EMAIL_VERIFIED };
}
