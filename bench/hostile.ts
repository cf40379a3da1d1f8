/**
 * What a hostile client can make the server hold, measured against the real process on PGlite (issue
 * 9 figures; never asserted in tests): subscriptions that never read, a registration flood next to a
 * login, parallel wrong passwords, and slow bodies.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnApp, waitForReady } from "../tests/support/process";
import { frame, rawUpgrade } from "../tests/support/raw-ws";
import { freePort } from "../tests/support/server";
import { percentile } from "./stats";

const rssMb = (pid: number) => {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
};

export async function benchHostile(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-bench-hostile-"));
  const port = await freePort();
  const app = spawnApp({
    PORT: String(port),
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "error",
    HTTP_REQUEST_TIMEOUT_MS: "5000",
  });
  const results: Record<string, string> = {};
  try {
    await waitForReady(app);
    const base = `http://127.0.0.1:${port}`;
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${p}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const email = `bench.${Date.now()}@example.com`;
    const password = "a benchmark passphrase";
    const reg = (await (await post("/api/auth/register", { email, password })).json()) as {
      access_token: string;
    };
    const pid = app.child.pid!;
    results["RSS at rest (MB)"] = String(rssMb(pid));

    // 5 sockets x 2,000 subscriptions that never read what they are sent.
    let accepted = 0;
    let refused = 0;
    const sockets = [];
    for (let s = 0; s < 5; s++) {
      const ws = await rawUpgrade(port, "/trpc", {
        cookie: `atomize_session=${reg.access_token}`,
        Origin: base,
      });
      const msgs = Array.from({ length: 2000 }, (_, i) =>
        frame(
          0x1,
          JSON.stringify({
            id: i + 1,
            method: "subscription",
            params: { path: "realtime.userEvents", input: { json: {} } },
          }),
        ),
      );
      ws.send(Buffer.concat(msgs));
      sockets.push(ws);
    }
    await sleep(15_000);
    for (const ws of sockets) {
      for (const f of ws.frames.filter((x) => x.opcode === 1)) {
        const text = f.payload.toString();
        if (text.includes('"started"')) accepted++;
        else if (text.includes("Too many subscriptions")) refused++;
      }
      ws.socket.destroy();
    }
    results["5 sockets x 2,000 subscriptions: started / refused"] = `${accepted} / ${refused}`;
    results["RSS 15 s into that (MB)"] = String(rssMb(pid));

    // 400 registrations at once from one address, and a login at the same time.
    const flood = Array.from({ length: 400 }, (_, i) =>
      post("/api/auth/register", { email: `flood.${i}.${Date.now()}@example.com`, password }).then(
        (r) => r.status,
      ),
    );
    const logins: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await post("/api/auth/login", { email, password }).then((r) => r.text());
      logins.push(performance.now() - t);
    }
    const statuses = await Promise.all(flood);
    results["400 parallel registrations: 201 / 429"] =
      `${statuses.filter((s) => s === 201).length} / ${statuses.filter((s) => s === 429).length}`;
    results["login during that flood p50 / max (ms)"] =
      `${percentile(logins, 50).toFixed(0)} / ${Math.max(...logins).toFixed(0)}`;

    // 25 wrong passwords at once, from one address.
    const victim = `victim.${Date.now()}@example.com`;
    await post("/api/auth/register", { email: victim, password });
    const wrong = await Promise.all(
      Array.from({ length: 25 }, () =>
        post("/api/auth/login", { email: victim, password: "not the password" }),
      ),
    );
    results["25 parallel wrong passwords: evaluated (401) / refused (429)"] =
      `${wrong.filter((r) => r.status === 401).length} / ${wrong.filter((r) => r.status === 429).length}`;

    // 1,500 connections that never finish their request body.
    const t0 = performance.now();
    const slow = await Promise.all(
      Array.from(
        { length: 1500 },
        () =>
          new Promise<Promise<void>>((resolve) => {
            const s = connect(port, "127.0.0.1", () => {
              s.resume(); // read (and so notice) the server's answer and close
              s.write(
                `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
              );
              resolve(new Promise<void>((done) => s.on("close", () => done())));
            });
            s.on("error", () => resolve(Promise.resolve()));
          }),
      ),
    );
    results["RSS with 1,500 slow bodies open (MB)"] = String(rssMb(pid));
    await Promise.all(slow);
    results["1,500 slow bodies all closed after (s, deadline 5 s)"] = (
      (performance.now() - t0) /
      1000
    ).toFixed(1);
    const health = await fetch(`${base}/healthz`);
    results["/healthz after all of it"] = String(health.status);
    return results;
  } finally {
    app.child.kill("SIGTERM");
    await app.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
