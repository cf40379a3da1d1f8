import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const appPort = Number(process.env.E2E_PORT ?? 8181);
const googlePort = appPort + 1;
const githubPort = appPort + 2;
const trelloPort = appPort + 3;
const openaiPort = appPort + 4;
// A fresh embedded database for each run; the app starts on it as a newcomer's would. Set once in the
// main process (workers inherit it) and removed by the global teardown.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "atomize-e2e-"));
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
      command: `node --import tsx tests/fakes/run-google.ts`,
      url: `http://127.0.0.1:${googlePort}/.well-known/openid-configuration`,
      env: {
        FAKE_GOOGLE_PORT: String(googlePort),
        FAKE_GOOGLE_CLIENT_ID: "e2e-client",
        FAKE_GOOGLE_CLIENT_SECRET: "e2e-secret",
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node --import tsx tests/fakes/run-github.ts",
      url: `http://127.0.0.1:${githubPort}/rate_limit`,
      env: { FAKE_GITHUB_PORT: String(githubPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node --import tsx tests/fakes/run-trello.ts",
      url: `http://127.0.0.1:${trelloPort}/1/members/me?key=e2e-trello-key&token=e2e-trello-token`,
      env: { FAKE_TRELLO_PORT: String(trelloPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Not configured for the app: users connect it in Settings → AI model (tests/e2e/ai-model.spec.ts).
      command: "node --import tsx tests/fakes/run-openai.ts",
      url: `http://127.0.0.1:${openaiPort}/v1/models`,
      env: { FAKE_OPENAI_PORT: String(openaiPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node --import tsx src/server/main.ts",
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
        TRELLO_API_URL: `http://127.0.0.1:${trelloPort}`,
        ADMIN_EMAILS: "e2e.admin@example.com",
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
