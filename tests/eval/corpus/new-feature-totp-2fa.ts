import type { EvalCase } from "../case";

export const newFeatureTotp2fa: EvalCase = {
  id: "new-feature-totp-2fa",
  kind: "feature for an existing product, with a definition of done (fintech web app)",
  work_kind: "feature",
  description: `Add two-factor authentication to Pennywise, our existing budgeting web app

Users link their bank accounts to us, so a leaked password is a big deal, and several users asked for 2FA after last month's credential-stuffing wave.

What we need:
1. Users turn on 2FA in Settings → Security by scanning a QR code with an authenticator app (TOTP, RFC 6238) and confirming one code.
2. We show 10 one-time recovery codes once, and users can regenerate them later.
3. At login, after the password, we ask for the 6-digit code or a recovery code. A used recovery code stops working.
4. A "Remember this device for 30 days" checkbox.
5. Disabling 2FA requires the password and a current code.
6. Rate-limit code attempts: 5 wrong codes lock the login for 15 minutes.
7. Support staff can reset 2FA for a user after an identity check, and every reset is written to the audit log.

The app is Django on PostgreSQL; use django-otp rather than rolling our own TOTP.

Definition of done:
- Tests for enrolment, login with a code, login with a recovery code and the lockout.
- Help-center article updated.
- Error rate on the login endpoint watched in Sentry for two weeks after launch.

No SMS codes for now, maybe later.`,
  requirements: [
    {
      id: "R1",
      text: "Turn on 2FA by scanning a QR code with an authenticator app and confirming a code",
      match: ["QR"],
    },
    { id: "R2", text: "Show 10 one-time recovery codes once", match: ["recovery code", "show"] },
    { id: "R3", text: "Users can regenerate the recovery codes", match: ["regenerat"] },
    { id: "R4", text: "Ask for the 6-digit code or a recovery code at login", match: ["6-digit"] },
    { id: "R5", text: "Remember this device for 30 days", match: ["remember"] },
    { id: "R6", text: "Disabling 2FA requires the password and a current code", match: ["disabl"] },
    {
      id: "R7",
      text: "Rate-limit code attempts: 5 wrong codes lock the login for 15 minutes",
      match: ["lock"],
    },
    { id: "R8", text: "Support staff can reset 2FA after an identity check", match: ["support", "reset"] },
    { id: "R9", text: "Every reset is written to the audit log", match: ["audit"] },
    { id: "R10", text: "Use django-otp", match: ["django-otp"] },
  ],
  technologies: ["django", "postgresql", "sentry"],
  non_goals: [{ text: "SMS codes", match: ["SMS"] }],
  not_work: [
    { text: "the rationale: a leaked password", match: ["leaked password"] },
    { text: "the rationale: the credential-stuffing wave", match: ["credential-stuffing"] },
  ],
  not_non_goals: [{ text: "error rate watched in Sentry for two weeks after launch", match: ["Sentry"] }],
  separate: [
    ["R2", "R3"],
    ["R8", "R9"],
  ],
  independent: [
    ["R5", "R7"],
    ["R3", "R6"],
  ],
  inspired_by:
    "GitHub issues ekrata-main/auth#6 'Multi-Factor Authentication - TOTP' (acceptance criteria: QR code, backup codes, rate limiting) and Retrospring/retrospring#150 'TOTP Recovery codes'",
};
