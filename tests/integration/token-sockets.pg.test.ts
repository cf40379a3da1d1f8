import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp, waitForReady } from "../support/process";
import { freePort, startTestServer, type TestServer, testDatabaseUrl } from "../support/server";
import { makeToken, openChannel, openTrpc, sessionEnded, signedIn } from "../support/token-sockets";
import { waitUntil } from "../support/wait";

// Two processes on one PostgreSQL: a revocation in one closes the token's sockets in the other
// (LISTEN/NOTIFY). PGlite has a single process: only the PostgreSQL pass runs *.pg.test.ts files.
describe("revoking a token in another process", () => {
  let server: TestServer;
  let other: ReturnType<typeof spawnApp> | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-token-sockets-"));
  // Every process sharing a database must share its credentials key.
  const CREDENTIALS_KEY = Buffer.alloc(32, 7).toString("base64");
  beforeAll(async () => {
    if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL must point at PostgreSQL for this suite");
    server = await startTestServer({ WS_SESSION_CHECK_MS: "3600000", CREDENTIALS_KEY });
  });
  afterAll(async () => {
    if (other && other.child.exitCode === null) {
      other.child.kill("SIGTERM");
      await other.exited;
    }
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("closes the token's sockets there at once", async () => {
    other = spawnApp({
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      DATABASE_URL: server.deps.config.DATABASE_URL!,
      DATA_DIR: dataDir,
      WS_SESSION_CHECK_MS: "3600000",
      JOBS_ENABLED: "false",
      OLLAMA_URL: "",
      CREDENTIALS_KEY,
    });
    await waitForReady(other);
    const { client } = await signedIn(server.url);
    const made = await makeToken(client, "elsewhere");
    const sockets = [
      await openTrpc(other.url, made.token, "header"),
      await openChannel(other.url, `/ws/global?token=${made.token}`),
    ];
    expect((await client.request("DELETE", `/api/tokens/${made.id}`)).status).toBe(204);
    await waitUntil(() => sockets.every((s) => s.isClosed()), {
      timeoutMs: 5_000,
      message: "the other process closed the token's sockets",
    });
    for (const s of sockets) expect(await s.closed).toEqual(sessionEnded);
  });
});
