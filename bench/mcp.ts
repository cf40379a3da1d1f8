/**
 * The MCP server as a coding agent uses it: the size of the tool list it puts into the model's context
 * (tokens by GPT-4o's o200k and GPT-4's cl100k tokenizers; Claude's is not published), and the time of
 * each tool call through the official SDK client on a 2,801-node plan with dependencies (PGlite).
 */
import { performance } from "node:perf_hooks";
import { getEncoding } from "js-tiktoken";
import { registerUser, TestClient } from "../tests/support/http-client";
import { callTool, connectMcp } from "../tests/support/mcp-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

export async function benchMcp(): Promise<Record<string, string>> {
  // Built first: it blocks the event loop long enough to expire a kept-alive connection.
  const o200k = getEncoding("o200k_base");
  const cl100k = getEncoding("cl100k_base");
  const server = await startTestServer({
    LOG_LEVEL: "silent",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
    ...AS_IN_USE,
  });
  try {
    const web = new TestClient(server.url);
    const owner = await registerUser(web);
    const token = (await web.post("/api/tokens", { name: "bench", scope: "write", expires_in_days: 30 })).json
      .token as string;
    const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { plan: true });
    const agent = await connectMcp(server.url, token);
    try {
      const { tools } = await agent.listTools();
      const list = JSON.stringify(tools);
      const out: Record<string, string> = {
        "tool list: tools": String(tools.length),
        "tool list: bytes of JSON": String(Buffer.byteLength(list)),
        "tool list: tokens (o200k_base, GPT-4o)": String(o200k.encode(list).length),
        "tool list: tokens (cl100k_base, GPT-4)": String(cl100k.encode(list).length),
      };
      const time = async (name: string, runs: number, call: (i: number) => Promise<unknown>) => {
        const ms: number[] = [];
        for (let i = 0; i < runs; i++) {
          const started = performance.now();
          await call(i);
          ms.push(performance.now() - started);
        }
        out[`${name}: p50 / p99 ms (round trip, ${count}-node plan)`] =
          `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 99).toFixed(1)}`;
      };
      await time("list_projects", 30, () => callTool(agent, "list_projects", {}));
      await time("get_plan depth 2", 30, () => callTool(agent, "get_plan", { task_id: rootId }));
      const outline: string = await callTool(agent, "get_plan", { task_id: rootId });
      out["get_plan depth 2: characters / tokens (o200k)"] =
        `${outline.length} / ${o200k.encode(outline).length}`;
      await time("next_task", 30, () => callTool(agent, "next_task", { project_id: rootId }));
      const ready: string[] = [];
      for (let i = 0; i < 30; i++) {
        const next = await callTool(agent, "next_task", { project_id: rootId });
        if (!next.task) break;
        ready.push(next.task.id);
        await callTool(agent, "set_task_status", { task_id: next.task.id, status: "in_progress" });
      }
      await time("set_task_status completed", ready.length, (i) =>
        callTool(agent, "set_task_status", { task_id: ready[i], status: "completed" }),
      );
      return out;
    } finally {
      await agent.close();
    }
  } finally {
    await server.stop();
  }
}
