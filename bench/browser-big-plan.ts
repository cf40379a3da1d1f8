/**
 * The browser on a big plan (issue 32): Debian's Chromium opens an 11,111-node plan (10 × 4) in the
 * built client, expands the whole tree and scrolls it to the end in steps, then opens the Plan tab. Long
 * tasks (the Long Tasks API: main-thread work over 50 ms) are collected throughout; the figure that counts
 * is the longest, against a budget of 200 ms. PGlite, the compiled client of `npm run build`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium } from "@playwright/test";
import { registerUser, TestClient } from "../tests/support/http-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE } from "./stats";

const CHROMIUM = existsSync("/usr/bin/chromium-headless-shell")
  ? "/usr/bin/chromium-headless-shell"
  : "/usr/bin/chromium";

export async function benchBrowserBigPlan(opts = { fanout: 10, depth: 4 }): Promise<Record<string, string>> {
  const clientDir = path.resolve("dist/client");
  if (!existsSync(path.join(clientDir, "index.html"))) throw new Error("run `npm run build` first");
  const server = await startTestServer(
    { LOG_LEVEL: "silent", ...AS_IN_USE },
    { clientDir, databaseUrl: null },
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const api = new TestClient(server.url);
    const owner = await registerUser(api);
    const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { ...opts, plan: true });
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    // The session: the same sign-in a person makes, through the page's own request context.
    const signIn = await context.request.post("/api/auth/login", {
      data: { email: owner.email, password: owner.password },
      headers: { origin: server.url },
    });
    if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()}`);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      }).observe({ type: "longtask", buffered: true });
    });
    const started = performance.now();
    await page.goto(`/tasks/${rootId}?tab=subtasks`);
    const tree = page.getByRole("tree", { name: "Task hierarchy" });
    await tree.getByRole("treeitem").first().waitFor();
    const firstRow = performance.now() - started;
    await page.getByRole("button", { name: "Expand All" }).click();
    await tree.getByRole("treeitem").nth(3).waitFor();
    // Scroll to the end in steps of a screen, as a person paging through would.
    const steps = await tree.evaluate(async (el) => {
      let node: HTMLElement | null = el as HTMLElement;
      while (node && node.scrollHeight <= node.clientHeight) node = node.parentElement;
      const box = node ?? (document.scrollingElement as HTMLElement);
      let n = 0;
      while (box.scrollTop + box.clientHeight < box.scrollHeight - 2 && n < 2000) {
        box.scrollTop += box.clientHeight;
        n++;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
      }
      return n;
    });
    await page.getByRole("tablist", { name: "Task sections" }).getByRole("tab", { name: "Plan" }).click();
    await page.getByText("Forecast").first().waitFor();
    await page.waitForTimeout(500);
    const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
    const sorted = [...long].sort((a, b) => b - a);
    return {
      plan: `${count.toLocaleString("en")} nodes`,
      "first tree row visible (ms, wall)": firstRow.toFixed(0),
      "screens scrolled (tree expanded)": String(steps),
      "long tasks (> 50 ms)": String(long.length),
      "longest task (ms; budget 200)": (sorted[0] ?? 0).toFixed(0),
      "next longest (ms)": sorted
        .slice(1, 5)
        .map((d) => d.toFixed(0))
        .join(", "),
      "over 200 ms": String(long.filter((d) => d > 200).length),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [k, v] of Object.entries(await benchBrowserBigPlan())) console.info(`${k.padEnd(40)} ${v}`);
}
