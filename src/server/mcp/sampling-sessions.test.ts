import { describe, expect, it } from "vitest";
import type { Deps } from "../deps";
import { samplingTimeoutMs } from "./sampling";
import {
  type McpSession,
  markStreamOpen,
  mcpSessions,
  SESSIONS_PER_TOKEN,
  SESSIONS_PER_USER,
  streamReady,
} from "./sampling-sessions";

const session = (id: string, tokenId: string, userId: string) =>
  ({
    id,
    tokenId,
    userId,
    transport: {},
    server: { close: async () => {} },
    lastSeen: Date.now(),
  }) as unknown as McpSession;

describe("MCP sampling sessions (issue 39)", () => {
  it("caps one account over all its tokens, so a few accounts cannot take every session", async () => {
    const sessions = mcpSessions({} as Deps);
    let n = 0;
    // Account A opens sessions with new tokens, each below its own cap, until the account's cap.
    for (let t = 0; sessions.hasRoom(`a-token-${t}`, "a"); t++)
      for (let k = 0; k < SESSIONS_PER_TOKEN && sessions.hasRoom(`a-token-${t}`, "a"); k++)
        sessions.add(session(`s${n++}`, `a-token-${t}`, "a"));
    expect(n).toBe(SESSIONS_PER_USER);
    expect(sessions.hasRoom("a-token-fresh", "a")).toBe(false);
    // Another account still has room; and one session ended gives A one back.
    expect(sessions.hasRoom("b-token", "b")).toBe(true);
    await sessions.remove("s0");
    expect(sessions.hasRoom("a-token-fresh", "a")).toBe(true);
    await sessions.closeAll();
  });

  it("waits for a sampling answer as long as its tokens take at a slow model's pace, past the SDK's 60 s", () => {
    expect(samplingTimeoutMs(4000)).toBe(230_000);
    expect(samplingTimeoutMs(8000)).toBe(430_000);
    expect(samplingTimeoutMs(8000)).toBeGreaterThan(samplingTimeoutMs(4000));
  });

  it("holds a sampling request until the client's stream is open, so it is not dropped on the way", async () => {
    const server = {};
    let sent = false;
    const waiting = streamReady(server, 5_000).then(() => {
      sent = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toBe(false);
    markStreamOpen(server);
    await waiting;
    expect(sent).toBe(true);
    // Once open, it does not wait; a client that never opens one is asked anyway after the wait.
    const started = Date.now();
    await streamReady(server, 5_000);
    await streamReady({}, 30);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
