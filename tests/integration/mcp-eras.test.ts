import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedSplit } from "../support/agent-answers";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";

/**
 * MCP as clients speak it today (issue 43): a client of the 2026-07-28 era (the SDK's next major, its
 * version negotiation pinned to that revision: `server/discover`, then every request with its own `_meta`)
 * and a client of the 2025-11-25 era (the installed SDK's, `initialize`) both plan a project with their
 * own model through the planning tools.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function account() {
  const web = new TestClient(server.url);
  await registerUser(web);
  const made = await web.post("/api/tokens", { name: "era-agent", scope: "write", expires_in_days: 30 });
  expect(made.status).toBe(201);
  return { web, token: made.json.token as string };
}

type Step = { done: boolean; node_id: string; depth: number; project_id: string };
type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }> };

const DESCRIPTION = "A shared shopping list\n- Users create lists\n- Items can be ticked off";

/** Plans a project to the end through `call` (a tool call of either era's client). */
async function planWith(call: (name: string, args: Record<string, unknown>) => Promise<any>) {
  const made = await call("create_project", { description: DESCRIPTION, planner: "agent", max_depth: 2 });
  let step = made.step as Step;
  let steps = 0;
  while (!step.done) {
    step = (await call("submit_subtasks", scriptedSplit(step))).next as Step;
    steps++;
  }
  return { id: made.id as string, steps };
}

describe("MCP in both protocol eras", () => {
  it("plans a project with a 2026-07-28 client: server/discover, then stateless requests", {
    timeout: 60_000,
  }, async () => {
    const { web, token } = await account();
    const client = new ModernClient(
      { name: "modern-agent", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new ModernTransport(new URL("/mcp", server.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getDiscoverResult()?.supportedVersions).toEqual([
        "2026-07-28",
        "2025-11-25",
        "2025-06-18",
        "2025-03-26",
      ]);
      expect(client.getServerVersion()?.name).toBe("atomize");
      expect(client.getInstructions()).toBeTruthy();
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("submit_subtasks");
      const call = async (name: string, args: Record<string, unknown>) => {
        const res = (await client.callTool({ name, arguments: args })) as ToolAnswer;
        const text = res.content.map((c) => c.text ?? "").join("");
        if (res.isError) throw new Error(`${name} refused: ${text}`);
        return JSON.parse(text);
      };
      const { id, steps } = await planWith(call);
      expect(steps).toBe(4);
      await waitForStatus(web, id, ["completed"], 30_000);
      expect(flatten((await web.get(`/api/tasks/${id}/tree`)).json as TreeNode)).toHaveLength(13);
    } finally {
      await client.close();
    }
  });

  it("answers a request in a revision it does not speak with -32022 and the ones it does", async () => {
    const { token } = await account();
    const res = await fetch(new URL("/mcp", server.url), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2099-01-01",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "server/discover", params: {} }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2099-01-01",
        data: {
          supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
          requested: "2099-01-01",
        },
      },
    });
  });

  it("plans a project with a 2025-11-25 client: initialize, as before", { timeout: 60_000 }, async () => {
    const { web, token } = await account();
    const client = await connectMcp(server.url, token);
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      const { id, steps } = await planWith((name, args) => callTool(client, name, args));
      expect(steps).toBe(4);
      await waitForStatus(web, id, ["completed"], 30_000);
      expect(flatten((await web.get(`/api/tasks/${id}/tree`)).json as TreeNode)).toHaveLength(13);
    } finally {
      await client.close();
    }
  });
});
