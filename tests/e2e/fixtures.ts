import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";
import type * as axe from "axe-core";
import { loadVaultKey } from "../../src/server/integrations/vault";
import { signVerificationToken } from "../../src/server/services/auth/email-verification";
import { deriveUnsubscribeKey } from "../../src/server/services/blog/unsubscribe-token";

let n = 0;
export function newEmail(prefix = "e2e") {
  n += 1;
  return `${prefix}.${Date.now().toString(36)}.${n}@example.com`;
}

export const PASSWORD = "e2e password 123";

export type Account = { email: string; password: string; fullName: string };

/**
 * Creates an account through the API; the page's browser context keeps the session cookie, so the next
 * page it opens is signed in. No page has to be loaded first.
 */
async function insertNewUser(page: Page, origin: string, fullName = "Erin Example"): Promise<Account> {
  const email = newEmail();
  const res = await page.request.post("/api/auth/register", {
    data: { email, password: PASSWORD, full_name: fullName },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: PASSWORD, fullName };
}

/** Creates a task through the API for the account signed in on `request`. */
export async function createTask(
  request: APIRequestContext,
  origin: string,
  description: string,
): Promise<{ id: string; description: string }> {
  const res = await request.post("/api/tasks", { data: { description }, headers: { origin } });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { id: string }).id, description };
}

/** Waits, through the API, until the planner has finished a task (the e2e server plans offline). */
export async function waitUntilPlanned(request: APIRequestContext, id: string): Promise<void> {
  await expect
    .poll(async () => ((await (await request.get(`/api/tasks/${id}`)).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe("completed");
}

// playwright.config.ts starts the e2e server with ADMIN_EMAILS=e2e.admin@example.com: that account is an
// admin once its address is verified.
export const ADMIN_EMAIL = "e2e.admin@example.com";

/**
 * Signs the admin in on a request context, registering and verifying the account the first time. Files
 * run on two workers, so the other one may register it in between: a 409 then means "sign in".
 */
export async function signInAdmin(request: APIRequestContext, origin: string): Promise<void> {
  const headers = { origin };
  const credentials = { email: ADMIN_EMAIL, password: PASSWORD };
  if (!(await request.post("/api/auth/login", { data: credentials, headers })).ok()) {
    const res = await request.post("/api/auth/register", {
      data: { ...credentials, full_name: "Ada Admin" },
      headers,
    });
    if (res.status() === 409) {
      const again = await request.post("/api/auth/login", { data: credentials, headers });
      expect(again.status(), await again.text()).toBe(200);
    } else expect(res.status(), await res.text()).toBe(201);
  }
  const me = (await (await request.get("/api/auth/me")).json()) as { role: string };
  if (me.role !== "admin") await verifyAddress(request, origin);
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

/**
 * axe-core itself, injected once per document and run in one call: the glue library @axe-core/playwright
 * evaluated these 580 KB twice on every check, and its results carried every passing element, which
 * made axe about 40% of the browser tests' Chromium time (issue 11).
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
type AxeWindow = { axe: typeof axe };

/** The WCAG 2.0 and 2.1 A and AA rules: the level the app promises (issue 15). */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** The rules whose outcome depends on colours, so on the theme; the others read only the DOM. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Fails when axe-core finds a serious or critical violation of WCAG 2.1 AA on the page as it is now (an
 * open dialog or menu included), naming each rule and the elements it found. label-content-name-mismatch
 * (WCAG 2.5.3: an accessible name contains the visible label) is one of axe's "experimental" rules, off
 * unless asked for; we ask, because speech-input users say what they see. `only` narrows the run to some
 * rules (expectAccessibleInBothThemes checks the second theme's colours only).
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  label: string,
  only?: string[],
): Promise<void> {
  // Colours are read from computed styles: let a theme or hover transition finish first. Two frames
  // first, so a transition that a change just made (a button enabled when its data arrived) has started.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  // Only the violations come back with their elements; a passing rule is not sent over.
  const options: axe.RunOptions = only
    ? { runOnly: { type: "rule", values: only }, resultTypes: ["violations"] }
    : {
        runOnly: { type: "tag", values: WCAG_TAGS },
        rules: { "label-content-name-mismatch": { enabled: true } },
        resultTypes: ["violations"],
      };
  const results = await page.evaluate((o) => (window as unknown as AxeWindow).axe.run(document, o), options);
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => {
    const nodes = v.nodes.slice(0, 8).map((n) => {
      const why = n.failureSummary?.split("\n").slice(1).join(" ").trim();
      return `    ${n.target.join(" ")}${why ? `: ${why}` : ""}`;
    });
    return `${v.id} (${v.impact}, ${v.nodes.length} elements): ${v.help}\n${nodes.join("\n")}`;
  });
  expect(report, `serious accessibility violations on ${label}:\n${report.join("\n")}`).toEqual([]);
}

export type Theme = "dark" | "light";

/**
 * Switches the page's theme as the app does (src/client/lib/theme.ts: localStorage "theme" and the
 * root's data-theme; Settings' dark-mode switch sets both), without a reload.
 */
export async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => {
    localStorage.setItem("theme", t);
    document.documentElement.dataset.theme = t;
  }, theme);
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
}

/**
 * axe on the page in the dark theme (every rule) and the light one (the colour rules: the rest do not
 * depend on the theme), leaving the page dark as it was.
 */
export async function expectAccessibleInBothThemes(page: Page, label: string): Promise<void> {
  await switchTheme(page, "dark");
  await expectNoSeriousA11yViolations(page, `${label} (dark theme)`);
  await switchTheme(page, "light");
  await expectNoSeriousA11yViolations(page, `${label} (light theme)`, COLOUR_RULES);
  await switchTheme(page, "dark");
}

export const test = base.extend<{
  /** The app's origin, for the Origin header that state-changing API calls need. */
  origin: string;
  /** Registers another account on the page's context (signing it in). */
  insertNewUser: (fullName?: string) => Promise<Account>;
  /** A fresh account, already signed in on the page's context. */
  signedIn: Account;
  /** A signed-in account with one task the planner has already finished. */
  seededTask: { account: Account; id: string; description: string };
}>({
  origin: async ({ baseURL }, use) => {
    await use(new URL(baseURL!).origin);
  },
  insertNewUser: async ({ page, origin }, use) => {
    await use((fullName) => insertNewUser(page, origin, fullName));
  },
  signedIn: async ({ page, origin }, use) => {
    await use(await insertNewUser(page, origin));
  },
  seededTask: async ({ page, origin, signedIn }, use) => {
    const task = await createTask(page.request, origin, "A recipe sharing site with search and favourites");
    await waitUntilPlanned(page.request, task.id);
    await use({ account: signedIn, ...task });
  },
  page: async ({ page }, use) => {
    // Any uncaught error in the page is a failure (a hydration mismatch is reported as one).
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The public pages arrive rendered, before their scripts: a user (and a test) acts once the page has
    // hydrated, which App marks on #root. Pages without #root (the e-mail links' pages) are ready at load;
    // a navigation asked to return at "commit" returns at once.
    const ready = () =>
      page.waitForFunction(() => {
        const root = document.getElementById("root");
        return !root || root.hasAttribute("data-hydrated");
      });
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== "commit") await ready();
      return response;
    };
    const reload = page.reload.bind(page);
    page.reload = async (options) => {
      const response = await reload(options);
      await ready();
      return response;
    };
    await use(page);
    expect(errors, `page errors: ${errors.join("; ")}`).toEqual([]);
  },
});

export { expect };

/**
 * A JSON API call made by the page itself (its cookies, its connections). For calls a test makes after
 * the page has been busy a while: Playwright's request context may send on a kept-alive socket the server
 * has just closed (ECONNRESET), which the browser's own fetch retries as browsers do.
 */
export async function pageFetch(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** Opens a plan's page and its "Export to Trello" dialog (Trello enabled in Settings first). */
export async function openTrelloExport(page: Page, taskId: string) {
  await page.goto(`/tasks/${taskId}`);
  await page.getByRole("button", { name: "Export" }).click();
  await page
    .getByRole("menu", { name: "Export" })
    .getByRole("menuitem", { name: "Export to Trello" })
    .click();
  return page.getByRole("dialog", { name: "Export to Trello" });
}
