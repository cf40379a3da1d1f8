import { test as base, expect, type Page } from "@playwright/test";

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
