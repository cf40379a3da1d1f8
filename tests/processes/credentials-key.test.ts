import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnApp, waitForReady } from "../support/process";
import { freePort } from "../support/server";

/** The key that seals stored credentials is checked at start: damaged, or not the database's key. */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "atomize-key-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const keyA = Buffer.alloc(32, 1).toString("base64");
const keyB = Buffer.alloc(32, 2).toString("base64");

describe("the credentials key at start", () => {
  it("refuses a truncated key file with one line that says what to do", async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, "credentials.key"), keyA.slice(0, 20));
    const app = spawnApp({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await app.exited).toBe(1);
    const lines = app.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/credentials\.key is damaged: it must hold 32 bytes as base64/);
  });

  it("refuses a CREDENTIALS_KEY that differs from the one the database was started with", async () => {
    const dataDir = tempDir();
    const port = String(await freePort());
    const first = spawnApp({ PORT: port, DATA_DIR: dataDir, CREDENTIALS_KEY: keyA });
    await waitForReady(first);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const other = spawnApp({ PORT: port, DATA_DIR: dataDir, CREDENTIALS_KEY: keyB });
    expect(await other.exited).toBe(1);
    expect(other.output()).toMatch(
      /The credentials key \(CREDENTIALS_KEY\) is not the key this database's stored credentials were sealed with/,
    );

    const again = spawnApp({ PORT: port, DATA_DIR: dataDir, CREDENTIALS_KEY: keyA });
    await waitForReady(again);
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
    // Three process start-ups, each allowed 60 s above: more than the suite's 30 s default when both
    // cores are busy (each start compiles the app with tsx).
  });
});

describe("a start-up that fails", () => {
  it("ends the process with code 1 and says why (it never hangs half-started)", async () => {
    const port = await freePort();
    const taken = createServer().listen(port, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    try {
      const app = spawnApp({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: tempDir() });
      expect(await app.exited).toBe(1);
      expect(app.output()).toMatch(/"msg":"start-up failed".*EADDRINUSE/);
    } finally {
      taken.close();
    }
  });

  it("a header deadline longer than the request deadline is fitted within it", async () => {
    const dataDir = tempDir();
    const app = spawnApp({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      HTTP_REQUEST_TIMEOUT_MS: "5000",
      HTTP_HEADERS_TIMEOUT_MS: "15000",
    });
    await waitForReady(app);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
  });
});
