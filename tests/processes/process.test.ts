import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { bundleRoot } from "../support/app-bundle";
import { TestClient, uniqueEmail } from "../support/http-client";
import { spawnApp, waitForReady } from "../support/process";
import { freePort, startTestServer } from "../support/server";
import { waitUntil } from "../support/wait";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "atomize-proc-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("start-up configuration", () => {
  it.each([
    ["PORT", "eighty", /^Invalid configuration: PORT: .*\(got "eighty"\)$/],
    ["PUBLIC_URL", "ftp://x", /^Invalid configuration: PUBLIC_URL: /],
    [
      "GOOGLE_CLIENT_ID",
      "only-the-id",
      /^Invalid configuration: GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together$/,
    ],
    ["DATABASE_URL", "mysql://nope", /^Invalid configuration: DATABASE_URL: [^"]*$/],
  ])("a bad %s stops start-up with one line naming it", async (name, value, pattern) => {
    const app = spawnApp({ PORT: "0", DATA_DIR: tempDir(), [name]: value });
    const code = await app.exited;
    expect(code).toBe(1);
    const lines = app.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });
});

describe("the process", () => {
  it("serves /healthz and /readyz, keeps PGlite data across restarts, and drains in-flight requests on SIGTERM", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1" };
    const first = spawnApp(env);
    await waitForReady(first);
    expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${first.url}/readyz`)).json()).toEqual({
      status: "ready",
      database: "pglite",
    });
    const email = uniqueEmail("persist");
    const reg = await new TestClient(first.url).post("/api/auth/register", {
      email,
      password: "persist me please",
    });
    expect(reg.status).toBe(201);

    // A request whose body is still arriving when SIGTERM lands must still be answered.
    const body = JSON.stringify({ email, password: "persist me please" });
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    let response = "";
    const answered = new Promise<void>((r) =>
      socket.on("data", (d) => {
        response += d;
        if (response.includes(email)) r();
      }),
    );
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    // A live WebSocket is closed with "service restart" rather than cut.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/trpc`);
    await new Promise<void>((r) => ws.once("open", () => r()));
    const wsClosed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    first.child.kill("SIGTERM");
    await waitUntil(() => first.output().includes('"msg":"shutting down"'), {
      message: "the shutdown began",
    });
    socket.write(body.slice(10));
    await answered;
    socket.destroy();
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response).toContain(email);
    expect(await wsClosed).toBe(1012);
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('"msg":"shutting down"');

    const second = spawnApp(env);
    await waitForReady(second);
    const login = await new TestClient(second.url).post("/api/auth/login", {
      email,
      password: "persist me please",
    });
    expect(login.status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    // Two process start-ups, each allowed 30 s by waitForReady: more than the suite's 30 s default.
  });

  it("offers the development bypass only when NODE_ENV is development", async () => {
    const port = await freePort();
    const app = spawnApp({
      PORT: String(port),
      DATA_DIR: tempDir(),
      HOST: "127.0.0.1",
      NODE_ENV: "development",
    });
    try {
      await waitForReady(app);
      const client = new TestClient(app.url);
      expect((await client.get("/api/auth/providers")).json.devBypass).toBe(true);
      const res = await client.post("/api/auth/dev-bypass");
      expect(res.status).toBe(200);
      expect(res.json.user).toMatchObject({
        role: "admin",
        subscription_tier: "enterprise",
        subscription_status: "active",
        monthly_task_limit: 1000,
        tasks_created_this_month: 0,
      });
      expect((await client.get("/api/auth/me")).status).toBe(200);
    } finally {
      app.child.kill("SIGTERM");
      await app.exited;
    }
  });
});

/** The phases of a start-up, from the server's "atomize listening" line (src/server/main.ts). */
function startupPhases(output: string): Record<string, number> {
  const line = output.split("\n").find((l) => l.includes('"msg":"atomize listening"'));
  if (!line) throw new Error(`no "atomize listening" line in:\n${output}`);
  return JSON.parse(line).startup;
}

describe("npm start", () => {
  it("runs the built server; a new data folder starts from the build's migrated database, an existing one as it is", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1" };
    // The run's bundle sits in a built checkout without the TypeScript source: only dist/ can serve.
    const start = () => spawnApp(env, { command: ["npm", "start"], cwd: bundleRoot(), detached: true });
    const first = start();
    await waitForReady(first);
    expect(Object.keys(startupPhases(first.output()))).toEqual(
      expect.arrayContaining(["node", "modules", "seed", "database", "migrations", "app", "listen", "total"]),
    );
    const email = uniqueEmail("npm-start");
    const client = new TestClient(first.url);
    expect((await client.post("/api/auth/register", { email, password: "started by npm" })).status).toBe(201);
    // Ctrl-C in a terminal: the whole foreground process group (npm, its shell, the server) gets SIGINT.
    process.kill(-first.child.pid!, "SIGINT");
    await first.exited;
    await waitUntil(() => first.output().includes('"msg":"shutting down","signal":"SIGINT"'), {
      message: "the server shut down",
    });
    await waitUntil(
      () =>
        fetch(`${first.url}/healthz`).then(
          () => false,
          () => true,
        ),
      {
        message: "the server stopped listening",
      },
    );

    const second = start();
    try {
      await waitForReady(second);
      expect(startupPhases(second.output())).not.toHaveProperty("seed");
      const login = await new TestClient(second.url).post("/api/auth/login", {
        email,
        password: "started by npm",
      });
      expect(login.status).toBe(200);
    } finally {
      process.kill(-second.child.pid!, "SIGINT");
      await second.exited;
    }
    // The build's seed holds only the app's database: the cluster's template databases are dropped, so a
    // new folder's copy writes half as many files (decision 025).
    const { PGlite } = await import("@electric-sql/pglite");
    const copied = new PGlite(path.join(dataDir, "pglite"));
    try {
      const databases = await copied.query<{ datname: string }>("select datname from pg_database");
      expect(databases.rows.map((r) => r.datname)).toEqual(["postgres"]);
    } finally {
      await copied.close();
    }
    // Two starts through npm (about a second of CPU each for npm itself) on a loaded machine.
  });

  it("says to build first when there is no build", async () => {
    const checkout = tempDir();
    mkdirSync(path.join(checkout, "scripts"));
    copyFileSync("package.json", path.join(checkout, "package.json"));
    copyFileSync(path.join("scripts", "run-built.mjs"), path.join(checkout, "scripts", "run-built.mjs"));
    const port = await freePort();
    const app = spawnApp(
      { PORT: String(port), DATA_DIR: tempDir() },
      { command: ["npm", "start"], cwd: checkout },
    );
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain(
      "Atomize is not built yet (dist/server/main.js is missing): run `npm run build` first, then `npm start`.",
    );
  });
});

describe("npm run make-admin", () => {
  it("grants and revokes the admin role on the configured database", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const app = spawnApp({ PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1" });
    await waitForReady(app);
    const email = uniqueEmail("cli");
    await new TestClient(app.url).post("/api/auth/register", { email, password: "cli password 1" });
    app.child.kill("SIGTERM");
    await app.exited;
    // What `npm run make-admin -- …` runs: the launcher, which hands the arguments to the built command.
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["scripts/run-built.mjs", "make-admin", ...args], {
          cwd: bundleRoot(),
          env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
        });
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        child.stderr.on("data", (d) => {
          out += d;
        });
        child.on("exit", (code) => resolve({ code, out }));
      });
    expect(await run([email])).toEqual({ code: 0, out: `${email} is now admin\n` });
    expect(await run([email, "--revoke"])).toEqual({ code: 0, out: `${email} is now user\n` });
    const missing = await run(["nobody@example.com"]);
    expect(missing.code).toBe(1);
    expect(missing.out).toBe("No account with e-mail nobody@example.com\n");
    // One app start and three command runs, each opening PGlite.
  });
});

describe("the single-page app", () => {
  it("serves index.html for client routes (history fallback) and real files as themselves", async () => {
    const clientDir = tempDir();
    mkdirSync(path.join(clientDir, "assets"));
    writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>Atomize SPA shell</title>");
    writeFileSync(path.join(clientDir, "assets", "app-abc123.js"), "console.info('hi')");
    const server = await startTestServer({}, { clientDir });
    try {
      for (const route of ["/", "/dashboard", "/tasks/123", "/blog/some-post", "/definitely/unknown"]) {
        const res = await fetch(`${server.url}${route}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain("Atomize SPA shell");
      }
      const asset = await fetch(`${server.url}/assets/app-abc123.js`);
      expect(asset.headers.get("cache-control")).toContain("immutable");
      expect(await asset.text()).toContain("console.info");
      const page = await fetch(`${server.url}/dashboard`);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      await server.stop();
    }
  });
});
