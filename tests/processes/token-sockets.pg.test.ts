import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppProcess } from "../support/process";
import { PROCESS_CEILING_MS } from "../support/process";
import { twoProcesses } from "../support/second-process";
import type { TestServer } from "../support/server";
import { makeToken, openChannel, openTrpc, sessionEnded, signedIn } from "../support/token-sockets";
import { waitUntil } from "../support/wait";

// Two processes on one PostgreSQL: a revocation in one closes the token's sockets in the other
// (LISTEN/NOTIFY). PGlite has a single process: only the PostgreSQL pass runs *.pg.test.ts files.
describe("revoking a token in another process", () => {
  const processes = twoProcesses("token-sockets", { WS_SESSION_CHECK_MS: "3600000" });
  let server: TestServer;
  let other: AppProcess;
  beforeAll(async () => {
    ({ server, other } = await processes.start());
  });
  afterAll(() => processes.stop());

  it("closes the token's sockets there at once", async () => {
    const { client } = await signedIn(server.url);
    const made = await makeToken(client, "elsewhere");
    const sockets = [
      await openTrpc(other.url, made.token, "header"),
      await openChannel(other.url, `/ws/global?token=${made.token}`),
    ];
    expect((await client.request("DELETE", `/api/tokens/${made.id}`)).status).toBe(204);
    await waitUntil(() => sockets.every((s) => s.isClosed()), {
      timeoutMs: PROCESS_CEILING_MS,
      message: "the other process closed the token's sockets",
    });
    for (const s of sockets) expect(await s.closed).toEqual(sessionEnded);
  });
});
