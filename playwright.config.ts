import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const appPort = Number(process.env.E2E_PORT ?? 8181);
const googlePort = appPort + 1;
const githubPort = appPort + 2;
const trelloPort = appPort + 3;
const openaiPort = appPort + 4;
// tests/e2e/sync.spec.ts starts its fake JIRA site on this port (workers read it from the environment).
const jiraPort = appPort + 5;
process.env.E2E_JIRA_PORT = String(jiraPort);
// A fresh embedded database for each run; the app starts on it as a newcomer's would. Set once in the
// main process (workers inherit it) and removed by the global teardown.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "atomize-e2e-"));
const dataDir = process.env.E2E_DATA_DIR;

/**
 * Debian's Chromium. In headless runs its headless shell (package chromium-headless-shell, the same
 * Chromium build in the old headless mode Playwright itself uses by default for headless tests) when
 * installed: a page load costs it about half the CPU of the full browser, and the browser tests are
 * bound by CPU on these two-core machines (decision 017). CHROMIUM_PATH picks either.
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  // The longest journeys take about 15 s alone; two run side by side on two cores, beside the PGlite
  // integration pass. These are ceilings, not waits: an assertion passes as soon as the page shows what it
  // expects. On a loaded machine of this kind a live update took over 7 s to reach a second page (the
  // teams journey, 2026-12-07), and with two busy CPU hogs beside the whole run (issue 44) an approval's
  // refetch of the plan's views took over 15 s, so the ceilings leave room for a slow machine, not a slow
  // product.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // Files in parallel, tests of one file in order. Every test signs up its own account, so two workers
  // never share data.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    // A trace records every action's DOM and a screencast, about a third of the run's time; E2E_TRACE=1
    // turns it on. A failure always keeps its screenshot and the page's accessibility snapshot.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "node --import tsx tests/fakes/run-all.ts",
      // The OpenAI-compatible fake starts last, so its answer means all four are listening.
      url: `http://127.0.0.1:${openaiPort}/v1/models`,
      env: {
        FAKE_GOOGLE_PORT: String(googlePort),
        FAKE_GOOGLE_CLIENT_ID: "e2e-client",
        FAKE_GOOGLE_CLIENT_SECRET: "e2e-secret",
        FAKE_GITHUB_PORT: String(githubPort),
        FAKE_TRELLO_PORT: String(trelloPort),
        // Not configured for the app: users connect it in Settings → AI model (tests/e2e/ai-model.spec.ts).
        FAKE_OPENAI_PORT: String(openaiPort),
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The app as `npm run build` compiles it (bundled again here, in under a second, so a run never
      // tests stale server code).
      command: "node scripts/build-server.mjs && node dist/server/main.js",
      url: `http://127.0.0.1:${appPort}/readyz`,
      env: {
        NODE_ENV: "test",
        PORT: String(appPort),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${appPort}`,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        LOG_LEVEL: "warn",
        GOOGLE_CLIENT_ID: "e2e-client",
        GOOGLE_CLIENT_SECRET: "e2e-secret",
        GOOGLE_ISSUER_URL: `http://127.0.0.1:${googlePort}`,
        GITHUB_API_URL: `http://127.0.0.1:${githubPort}`,
        // GitHub asks for a second between writes; the pacing has its own integration tests, and an export
        // of a whole plan in the browser tests would otherwise take a minute.
        GITHUB_WRITE_INTERVAL_MS: "20",
        // Playwright's request context keeps its sockets open and does not retry a POST sent on one the
        // server has just closed (ECONNRESET, twice on CI): idle sockets stay open longer than any pause
        // in a test. Browsers retry such a request themselves.
        HTTP_KEEP_ALIVE_TIMEOUT_MS: "120000",
        TRELLO_API_URL: `http://127.0.0.1:${trelloPort}`,
        // tests/e2e/sync.spec.ts runs a fake JIRA site on a loopback port of its own.
        JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
        // Addresses people type reach loopback only where the operator allows: the fake JIRA site, and the
        // fake model that tests/e2e/ai-model.spec.ts saves as a user's own provider.
        OUTBOUND_ALLOW: `127.0.0.1:${jiraPort},127.0.0.1:${openaiPort}`,
        // The blog's admin (tests/e2e/fixtures.ts) and one that auth.spec.ts registers to see the role arrive.
        ADMIN_EMAILS: "e2e.admin@example.com,e2e.first-admin@example.com",
        // Every test registers from 127.0.0.1; the per-address limits have their own integration tests.
        REGISTRATIONS_PER_IP_PER_HOUR: "100000",
        ANONYMOUS_WRITES_PER_IP_PER_HOUR: "100000",
        // No model in the environment and no local Ollama probed: planning starts as an outline.
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        OLLAMA_URL: "",
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
