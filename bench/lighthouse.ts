/**
 * Lighthouse (its default mobile profile: a mid-range phone, simulated slow 4G and a 4x slower CPU) on the
 * public pages of a freshly started production server: `/`, `/blog` and a seeded post. Needs `npm run build`
 * (the client, the server renderer and the server bundle) and Debian's Chromium (CHROMIUM_PATH to choose
 * another). Each page is measured BENCH_LIGHTHOUSE_RUNS times (3 by default) and the median run is kept,
 * as Lighthouse's own guidance suggests; the figures are reported, never asserted (issue 15's targets:
 * performance >= 95, LCP < 2.0 s, CLS < 0.05, accessibility, SEO and best practices 100).
 * BENCH_LIGHTHOUSE_REPORTS=<folder> also writes each kept run's full report there (JSON).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { loadVaultKey } from "../src/server/integrations/vault";
import { signVerificationToken } from "../src/server/services/auth/email-verification";
import { deriveUnsubscribeKey } from "../src/server/services/blog/unsubscribe-token";
import { freePort } from "../tests/support/server";
import { waitUntil } from "../tests/support/wait";

const ADMIN = "bench.admin@example.com";
const PASSWORD = "benchmark password";

export type LighthouseRow = {
  page: string;
  performance: number;
  "FCP (s)": string;
  "LCP (s)": string;
  CLS: string;
  "TBT (ms)": number;
  accessibility: number;
  "best practices": number;
  SEO: number;
};

type Server = { url: string; child: ChildProcess; output: () => string };

/** The production build, as `npm start` runs it, on a fresh data folder. */
async function startServer(dataDir: string): Promise<Server> {
  for (const built of ["dist/server/main.js", "dist/client/index.html", "dist/ssr/entry-server.js"]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let out = "";
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ADMIN_EMAILS: ADMIN,
      OPENAI_API_KEY: "",
      OLLAMA_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${out}`);
      return fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    // A fresh data folder migrates first: on a busy two-core machine that can take a minute.
    { timeoutMs: 180_000, message: () => `the server did not start:\n${out}` },
  );
  return { url, child, output: () => out };
}

/** An admin (verified with a link signed by the server's own key, as the e-mail's) publishes a post. */
async function seedPost(server: Server, dataDir: string): Promise<string> {
  const origin = server.url;
  let cookie = "";
  const call = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${origin}${pathname}`, {
      method,
      headers: { "content-type": "application/json", origin, cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(";")[0]);
    if (set.length) cookie = set.join("; ");
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const { user } = (await call("POST", "/api/auth/register", {
    email: ADMIN,
    password: PASSWORD,
    full_name: "Bea Bench",
  })) as { user: { id: string; email: string } };
  const key = deriveUnsubscribeKey(undefined, loadVaultKey({ dataDir }));
  await call("POST", "/api/auth/verify-email", { token: signVerificationToken(key, user, 1) });
  await call("POST", "/api/auth/login", { email: ADMIN, password: PASSWORD });
  const paragraphs = Array.from(
    { length: 8 },
    (_, i) =>
      `<p>Paragraph ${i + 1}: a plan is only as good as its smallest step. Break the work down until each task fits in a day, estimate it, and the schedule follows from the dependencies rather than from hope.</p>`,
  ).join("");
  const post = (await call("POST", "/api/admin/blog/posts", {
    title: "Breaking big projects into atomic tasks",
    excerpt: "Why the smallest step decides how good a plan is, and how to find it.",
    content: `<h2>Start from the outcome</h2>${paragraphs}<h2>Then estimate</h2>${paragraphs}`,
    tags: ["planning", "estimation"],
    status: "published",
  })) as { slug: string };
  return `/blog/${post.slug}`;
}

const median = <T>(runs: T[], by: (r: T) => number): T =>
  [...runs].sort((a, b) => by(a) - by(b))[Math.floor(runs.length / 2)]!;

export async function benchLighthouse(): Promise<LighthouseRow[]> {
  const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-lighthouse-"));
  const server = await startServer(dataDir);
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const postPath = await seedPost(server, dataDir);
    // One request so the server has loaded its renderer (a first visitor pays that once per start).
    await fetch(`${server.url}/`).then((r) => r.text());
    const rows: LighthouseRow[] = [];
    for (const page of ["/", "/blog", postPath]) {
      const results = [];
      // A run Lighthouse itself could not complete (e.g. NO_NAVSTART on a busy machine) is run again.
      for (let attempt = 0; results.length < runs && attempt < runs + 3; attempt++) {
        const result = await lighthouse(`${server.url}${page}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        });
        if (result && !result.lhr.runtimeError) results.push(result.lhr);
        else
          console.warn(`  ${page}: Lighthouse run failed (${result?.lhr.runtimeError?.code ?? "no result"})`);
      }
      if (results.length === 0) throw new Error(`Lighthouse could not measure ${page}`);
      const lhr = median(results, (r) => r.categories.performance?.score ?? 0);
      const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
      if (reports) {
        mkdirSync(reports, { recursive: true });
        const name = page === "/" ? "landing" : page.slice(1).replace(/\//g, "-");
        writeFileSync(path.join(reports, `${name}.json`), JSON.stringify(lhr));
      }
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      rows.push({
        page: page.length > 24 ? `${page.slice(0, 24)}...` : page,
        performance: score("performance"),
        "FCP (s)": (audit("first-contentful-paint") / 1000).toFixed(2),
        "LCP (s)": (audit("largest-contentful-paint") / 1000).toFixed(2),
        CLS: audit("cumulative-layout-shift").toFixed(3),
        "TBT (ms)": Math.round(audit("total-blocking-time")),
        accessibility: score("accessibility"),
        "best practices": score("best-practices"),
        SEO: score("seo"),
      });
      // What keeps a category under 100, for the issue notes.
      for (const [id, category] of Object.entries(lhr.categories)) {
        if (id === "performance" || (category.score ?? 1) >= 1) continue;
        const failing = category.auditRefs
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => ref.id);
        console.info(`  ${page} ${id}: ${failing.join(", ")}`);
      }
    }
    return rows;
  } finally {
    chrome.kill();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("bench/lighthouse.ts")) {
  console.table(await benchLighthouse());
}
