import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { HOUR_MS, RESENDS_PER_HOUR } from "./accounts";
import { EMAIL_ALREADY_VERIFIED, sendVerificationEmail, VERIFICATION_SENT } from "./email-verification";
import { consumeRateLimit } from "./rate-limit";
import type { UserRow } from "./sessions";

/** Mails a signed-in user a new verification link (a few an hour, so the button cannot flood an inbox). */
export async function resendVerification(deps: Deps, user: UserRow): Promise<{ detail: string }> {
  if (user.emailVerifiedAt) return { detail: EMAIL_ALREADY_VERIFIED };
  await consumeRateLimit(
    deps,
    { key: `verify-email-resend:user:${user.id}`, max: RESENDS_PER_HOUR, windowMs: HOUR_MS },
    "Too many verification e-mails were requested. Please try again later.",
  );
  if (!(await sendVerificationEmail(deps, user))) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The verification e-mail could not be sent. Please try again later.",
    );
  }
  return { detail: VERIFICATION_SENT };
}
