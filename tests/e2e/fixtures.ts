import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";
import { loadVaultKey } from "../../src/server/integrations/vault";
import { signVerificationToken } from "../../src/server/services/auth/email-verification";
import { deriveUnsubscribeKey } from "../../src/server/services/blog/unsubscribe-token";

let n = 0;
export function newEmail(prefix = "e2e") {
  n += 1;
  return `${prefix}.${Date.now().toString(36)}.${n}@example.com`;
}

export const PASSWORD = "e2e password 123";

/** Creates an account through the API (the browser context keeps the session cookie). */
async function insertNewUser(page: Page, fullName = "Erin Example") {
  const email = newEmail();
  const res = await page.request.post("/api/auth/register", {
    data: { email, password: PASSWORD, full_name: fullName },
    headers: { origin: new URL(page.url() === "about:blank" ? "http://x" : page.url()).origin },
  });
  expect(res.status()).toBe(201);
  return { email, password: PASSWORD, fullName };
}

/**
 * A verification link for an account, as the one mailed at registration. The e2e server keeps mail in its
 * outbox, which only an admin may read, so the fixture signs the link with the server's own key: the one
 * generated into its data folder (playwright.config.ts sets neither CREDENTIALS_KEY nor
 * BLOG_UNSUBSCRIBE_SECRET).
 */
export function verificationPath(user: { id: string; email: string }): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  const key = deriveUnsubscribeKey(undefined, loadVaultKey({ dataDir }));
  return `/verify-email?token=${encodeURIComponent(signVerificationToken(key, user, 1))}`;
}

/**
 * Verifies the address of the account signed in on `request` through the API. ADMIN_EMAILS grants the
 * admin role only to a verified address, so an admin fixture registers and then calls this.
 */
export async function verifyAddress(request: APIRequestContext, origin: string): Promise<void> {
  const me = await request.get("/api/auth/me");
  expect(me.status()).toBe(200);
  const user = (await me.json()) as { id: string; email: string };
  const token = new URL(verificationPath(user), origin).searchParams.get("token");
  const res = await request.post("/api/auth/verify-email", { data: { token }, headers: { origin } });
  expect(res.status(), await res.text()).toBe(200);
}

export const test = base.extend<{
  insertNewUser: (fullName?: string) => Promise<{ email: string; password: string; fullName: string }>;
}>({
  insertNewUser: async ({ page }, use) => {
    await use((fullName) => insertNewUser(page, fullName));
  },
  page: async ({ page }, use) => {
    // Any uncaught error in the page is a failure.
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await use(page);
    expect(errors, `page errors: ${errors.join("; ")}`).toEqual([]);
  },
});

export { expect };
