import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { TestServer } from "./server";

/**
 * ADMIN_EMAILS grants the admin role only to a verified address (docs/decisions/008-sign-in-hardening.md).
 * Test servers run without SMTP, so the link mailed at registration waits in the `mail_outbox` table:
 * these helpers read it there, as the owner of the inbox would, and follow it through the real endpoint.
 */

/** The token of the newest verification link mailed to `email`. */
export async function verificationTokenFor(server: TestServer, email: string): Promise<string> {
  const rows = await server.deps.database.rows<{ text: string }>(
    sql`select text from mail_outbox where lower("to") = ${email.toLowerCase()}
        and subject = 'Verify your e-mail address for Atomize'
        order by created_at desc limit 1`,
  );
  const match = rows[0]?.text.match(/\/verify-email\?token=([^\s]+)/);
  if (!match) throw new Error(`no verification e-mail for ${email} in the outbox`);
  return decodeURIComponent(match[1]!);
}

/**
 * Follows the verification link mailed to `email`: the address is verified and, when it is listed in
 * ADMIN_EMAILS, the account is an admin from the next request on (existing sessions included).
 */
export async function verifyEmailThroughOutbox(server: TestServer, email: string): Promise<void> {
  const token = await verificationTokenFor(server, email);
  const res = await fetch(new URL("/api/auth/verify-email", server.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/**
 * For a test that only needs an account to count as verified (no e-mail involved): marks the address
 * verified in the database. ADMIN_EMAILS then applies at the account's next sign-in; prefer
 * verifyEmailThroughOutbox when the signed-in client should become an admin at once.
 */
export async function markEmailVerified(server: TestServer, email: string): Promise<void> {
  await server.deps.database.rows(
    sql`update users set email_verified_at = coalesce(email_verified_at, now())
        where lower(email) = ${email.toLowerCase()}`,
  );
}
