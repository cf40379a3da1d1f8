import type { Browser, Page, Route } from "@playwright/test";
import { expect, signInAdmin, test } from "./fixtures";

// Issue 15: the public pages arrive as HTML with their content, then hydrate without moving anything.

const WORD = `ssr${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const POST = {
  title: `Rendered before scripts ${WORD}`,
  content: `<h2>Why it matters</h2><p>Readers see this paragraph ${WORD} before any script runs.</p>`,
};
let slug = "";

test.beforeAll(async ({ playwright }, testInfo) => {
  const origin = String(testInfo.project.use.baseURL);
  const request = await playwright.request.newContext({ baseURL: origin });
  await signInAdmin(request, origin);
  const res = await request.post("/api/admin/blog/posts", {
    data: { ...POST, status: "published", tags: ["rendering"] },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  slug = ((await res.json()) as { slug: string }).slug;
  await request.dispose();
});

/** Each public page, a heading it shows and a text from its main content. */
function publicPages() {
  return [
    { path: "/", heading: "Turn big ideas into atomic, estimable tasks", text: "How It Works" },
    { path: "/about", heading: "About Atomize", text: "Our Mission" },
    { path: "/contact", heading: "Contact Us", text: "Send us a message" },
    { path: "/privacy", heading: "Privacy Policy", text: "Last updated August 3, 2025" },
    { path: "/terms", heading: "Terms of Service", text: "Last updated August 3, 2025" },
    { path: "/blog", heading: "Blog", text: POST.title },
    { path: `/blog/${slug}`, heading: POST.title, text: `Readers see this paragraph ${WORD}` },
  ];
}

async function withoutScripts<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test("every public page arrives with its heading, content and title before any script runs", async ({
  browser,
}) => {
  await withoutScripts(browser, async (page) => {
    for (const { path, heading, text } of publicPages()) {
      await page.goto(path);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 }), path).toContainText(heading);
      await expect(main.getByText(text).first(), path).toBeVisible();
      await expect(page, path).toHaveTitle(/ \| Atomize Project Manager$/);
      // The visitor's navigation is there too, and no notice asks for JavaScript.
      await expect(page.getByRole("banner").getByRole("link", { name: "Atomize" }), path).toBeVisible();
      await expect(page.getByText("Atomize needs JavaScript")).toHaveCount(0);
    }
    // A post's page also carries the article's metadata.
    await page.goto(`/blog/${slug}`);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
    await expect(page.getByRole("main").getByRole("heading", { name: "Why it matters" })).toBeVisible();
  });
});

test("a signed-in page shows its skeleton before its scripts run", async ({ browser }) => {
  await withoutScripts(browser, async (page) => {
    await page.goto("/dashboard");
    await expect(page.getByRole("banner").getByRole("link", { name: "Atomize" })).toBeVisible();
    await expect(page.getByRole("main").getByText("Loading page...")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
  });
});

type Shift = { value: number; hadRecentInput: boolean };

/** Records the page's layout shifts from its first frame (the browser's own layout-shift entries). */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as Window & { __shifts?: Shift[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__shifts?.push(entry as unknown as Shift);
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shift score of the load so far (shifts right after input do not count). */
async function layoutShiftScore(page: Page): Promise<number> {
  await page.waitForLoadState("networkidle");
  return page.evaluate(() => {
    const shifts = (window as Window & { __shifts?: Shift[] }).__shifts ?? [];
    return shifts.filter((s) => !s.hadRecentInput).reduce((sum, s) => sum + s.value, 0);
  });
}

test.describe("on a phone, as Lighthouse's mobile profile", () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

  test("no public page shifts while it loads and hydrates, and a visitor's page never loads the signed-in code", async ({
    page,
  }) => {
    await recordLayoutShifts(page);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    for (const { path, heading } of publicPages()) {
      requests.length = 0;
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(heading);
      expect(await layoutShiftScore(page), path).toBeLessThan(0.05);
      expect(
        requests.filter((p) => p.startsWith("/trpc") || /\/assets\/(app-runtime|app-routes)-/.test(p)),
        path,
      ).toEqual([]);
    }
  });
});

test("pages stay put when a signed-in user's session arrives", async ({ page, signedIn }) => {
  await recordLayoutShifts(page);
  for (const path of ["/about", "/blog", `/blog/${slug}`]) {
    await page.goto(path);
    // The server rendered the visitor's header; the signed-in one replaces it in the same row.
    await expect(page.getByRole("banner").getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("banner").getByText(signedIn.fullName)).toBeVisible();
    expect(await layoutShiftScore(page), path).toBeLessThan(0.05);
  }
});

test("hydration keeps the markup the server sent", async ({ page }) => {
  // The app's entry script waits until the server's heading has been marked.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route(/\/assets\/index-[\w-]+\.js$/, hold);
  await page.goto(`/blog/${slug}`, { waitUntil: "commit" });
  const heading = page.getByRole("heading", { level: 1, name: POST.title });
  await expect(heading).toBeVisible();
  await heading.evaluate((el) => {
    (el as HTMLElement & { __fromServer?: boolean }).__fromServer = true;
  });
  release();
  await expect(page.locator("#root[data-hydrated]")).toBeAttached();
  // The same element, now React's: the view counted when the page read the post again is shown in place.
  expect(await heading.evaluate((el) => (el as HTMLElement & { __fromServer?: boolean }).__fromServer)).toBe(
    true,
  );
  await expect(page.getByRole("article").getByText(/^\d+ views?$/)).toBeVisible();
});
