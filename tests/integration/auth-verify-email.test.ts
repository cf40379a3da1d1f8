import { TRPCClientError } from "@trpc/client";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signVerificationToken } from "../../src/server/services/auth/email-verification";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";
import { markEmailVerified, verificationTokenFor, verifyEmailThroughOutbox } from "../support/verify-email";

const ADMIN = "verify.admin@example.com";
const ADMIN_2 = "verify.admin2@example.com";
const ADMIN_3 = "verify.admin3@example.com";
const INVALID = "This verification link is invalid. Please request a new one from Settings → Account.";
const EXPIRED = "This verification link has expired. Please request a new one from Settings → Account.";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    ADMIN_EMAILS: [ADMIN, ADMIN_2, ADMIN_3].join(","),
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    EMAIL_VERIFICATION_HOURS: "48",
  });
});
afterAll(() => server?.stop());

const verify = (token: unknown) => new TestClient(server.url).post("/api/auth/verify-email", { token });
const userRow = async (email: string) =>
  (
    await server.deps.database.rows<{ id: string; role: string; email_verified_at: Date | null }>(
      sql`select id, role, email_verified_at from users where email = ${email}`,
    )
  )[0]!;

describe("the verification e-mail", () => {
  it("is mailed at registration with a link to /verify-email that the account's user can follow", async () => {
    const client = new TestClient(server.url);
    const { email, user } = await registerUser(client);
    expect(user.email_verified).toBe(false);
    const mail = await server.deps.database.rows<{ subject: string; text: string; html: string }>(
      sql`select subject, text, html from mail_outbox where "to" = ${email}`,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("Verify your e-mail address for Atomize");
    expect(mail[0]!.text).toContain(`${server.url}/verify-email?token=`);
    expect(mail[0]!.text).toContain("48 hours");
    expect(mail[0]!.html).toContain(`href="${server.url}/verify-email?token=`);

    const res = await verify(await verificationTokenFor(server, email));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ detail: "Your e-mail address is verified." });
    expect((await client.get("/api/auth/me")).json.email_verified).toBe(true);
    // Following the link again changes nothing and says the same.
    const again = await verify(await verificationTokenFor(server, email));
    expect(again.status).toBe(200);
  });
});

describe("ADMIN_EMAILS needs a verified address", () => {
  it("keeps a registered ADMIN_EMAILS address a user until the link is followed, then makes it an admin at once", async () => {
    const client = new TestClient(server.url);
    const { user, password } = await registerUser(client, { email: ADMIN });
    expect(user.role).toBe("user");
    expect((await client.get("/api/admin/outbox")).status).toBe(403);
    const login = await new TestClient(server.url).post("/api/auth/login", { email: ADMIN, password });
    expect(login.json.user).toMatchObject({ role: "user", email_verified: false });

    await verifyEmailThroughOutbox(server, ADMIN);
    expect((await client.get("/api/auth/me")).json).toMatchObject({ role: "admin", email_verified: true });
    expect((await client.get("/api/admin/outbox")).status).toBe(200);
  });

  it("grants the role at sign-in only when the address is verified", async () => {
    const { password } = await registerUser(new TestClient(server.url), { email: ADMIN_2 });
    const signIn = () => new TestClient(server.url).post("/api/auth/login", { email: ADMIN_2, password });
    expect((await signIn()).json.user.role).toBe("user");
    expect((await userRow(ADMIN_2)).role).toBe("user");
    await markEmailVerified(server, ADMIN_2);
    expect((await signIn()).json.user).toMatchObject({ role: "admin", email_verified: true });
  });

  it("verifies through the tRPC procedure too", async () => {
    const client = new TestClient(server.url);
    await registerUser(client, { email: ADMIN_3 });
    const token = await verificationTokenFor(server, ADMIN_3);
    const res = await trpcHttp(new TestClient(server.url)).auth.verifyEmail.mutate({ token });
    expect(res).toEqual({ detail: "Your e-mail address is verified." });
    expect(await trpcHttp(client).auth.me.query()).toMatchObject({ role: "admin", email_verified: true });
  });
});

describe("refused links", () => {
  it("refuses a forged or tampered token with 400 and a clear detail, verifying nothing", async () => {
    const { email, user } = await registerUser(new TestClient(server.url));
    const token = await verificationTokenFor(server, email);
    const [id, exp, sig] = token.split(".") as [string, string, string];
    const flipped = `${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [
      `${id}.${exp}.${flipped}`,
      `${id}.${Number(exp) + 3600}.${sig}`, // a later expiry under the old signature
      `${id}.${exp}.${"A".repeat(43)}`,
      "not-a-token",
      `${id}.${exp}`,
      `${id}.${exp}.${sig}.extra`,
    ]) {
      const res = await verify(bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.detail).toBe(INVALID);
    }
    // A token signed with another key (another installation) is refused too.
    const foreign = signVerificationToken(Buffer.alloc(32, 7), { id: user.id, email }, 48);
    expect((await verify(foreign)).json.detail).toBe(INVALID);
    expect((await userRow(email)).email_verified_at).toBeNull();
    const empty = await verify("");
    expect(empty.status).toBe(422);
    expect(empty.json.detail).toBe("Verification token is required");
  });

  it("refuses another user's token, whichever account it is presented for", async () => {
    const alice = await registerUser(new TestClient(server.url));
    const bob = await registerUser(new TestClient(server.url));
    const aliceToken = await verificationTokenFor(server, alice.email);
    const [, exp, sig] = aliceToken.split(".");
    const res = await verify(`${bob.user.id}.${exp}.${sig}`);
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe(INVALID);
    expect((await userRow(bob.email)).email_verified_at).toBeNull();
  });

  it("refuses an expired link with its own detail", async () => {
    const { email, user } = await registerUser(new TestClient(server.url));
    const old = signVerificationToken(
      server.deps.unsubscribeKey,
      { id: user.id, email },
      48,
      Date.now() - 49 * 3600_000,
    );
    const res = await verify(old);
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe(EXPIRED);
    expect((await userRow(email)).email_verified_at).toBeNull();
  });

  it("stops a link from working once the account's e-mail address has changed", async () => {
    const { email, user } = await registerUser(new TestClient(server.url));
    const token = await verificationTokenFor(server, email);
    const changed = uniqueEmail("changed");
    await server.deps.database.rows(sql`update users set email = ${changed} where id = ${user.id}`);
    const res = await verify(token);
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe(INVALID);
    expect((await userRow(changed)).email_verified_at).toBeNull();
  });
});

describe("sending the link again", () => {
  it("mails a signed-in, unverified user a fresh link, a few times an hour", async () => {
    const client = new TestClient(server.url);
    const { email } = await registerUser(client);
    for (let i = 0; i < 5; i++) {
      const res = await client.post("/api/auth/verify-email/resend");
      expect(res.status).toBe(200);
      expect(res.json.detail).toBe("We sent you a new verification link. Please check your inbox.");
    }
    const mails = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from mail_outbox where "to" = ${email}`,
    );
    expect(mails[0]!.n).toBe(6);
    const limited = await client.post("/api/auth/verify-email/resend");
    expect(limited.status).toBe(429);
    expect(limited.json.detail).toBe("Too many verification e-mails were requested. Please try again later.");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The newest link works.
    await verifyEmailThroughOutbox(server, email);
    const done = await client.post("/api/auth/verify-email/resend");
    expect(done.status).toBe(200);
    expect(done.json.detail).toBe("Your e-mail address is already verified.");
  });

  it("needs a signed-in user (REST 401, tRPC UNAUTHORIZED) and works over tRPC", async () => {
    expect((await new TestClient(server.url).post("/api/auth/verify-email/resend")).status).toBe(401);
    const err = await trpcHttp(new TestClient(server.url))
      .auth.resendVerification.mutate()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as { data?: { code?: string } }).data?.code).toBe("UNAUTHORIZED");
    const client = new TestClient(server.url);
    await registerUser(client);
    expect(await trpcHttp(client).auth.resendVerification.mutate()).toEqual({
      detail: "We sent you a new verification link. Please check your inbox.",
    });
  });
});
