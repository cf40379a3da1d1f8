/**
 * Claims for parallel agents (issue 41): 20 coding agents, each with its own token, call claim_next_task
 * (POST /api/projects/{id}/claim-next) at the same moment on a 2,801-node plan (7 × 4, with dependencies),
 * round after round until no ready leaf is left, as agents that finish a task and take the next would.
 * Reports whether every claim went to one agent only, and the latency of a call under that contention.
 * Goal (issue 41): every leaf claimed once, p95 under 50 ms on PostgreSQL.
 */
import { performance } from "node:perf_hooks";
import { registerUser, TestClient } from "../tests/support/http-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

const AGENTS = 20;
const ROUNDS = 10;

export async function benchClaims(pgUrl?: string): Promise<Record<string, string>[]> {
  const server = await startTestServer(
    { LOG_LEVEL: "silent", API_TOKEN_REQUESTS_PER_MINUTE: "100000", API_TOKENS_PER_USER: "50", ...AS_IN_USE },
    { databaseUrl: pgUrl ?? null },
  );
  try {
    const web = new TestClient(server.url);
    const owner = await registerUser(web);
    const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { plan: true });
    const agents: TestClient[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const made = await web.post("/api/tokens", { name: `agent-${i}`, scope: "write", expires_in_days: 30 });
      const agent = new TestClient(server.url);
      agent.bearer = made.json.token as string;
      agents.push(agent);
    }
    // Warm-up: the plan's first read.
    await agents[0]!.get(`/api/tasks/${rootId}/next`);
    const ms: number[] = [];
    const taken = new Map<string, number>();
    let empty = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        agents.map(async (agent) => {
          const started = performance.now();
          const res = await agent.post(`/api/projects/${rootId}/claim-next`, {});
          ms.push(performance.now() - started);
          if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
          return res.json as { task: { id: string } | null };
        }),
      );
      for (const a of answers) {
        if (!a.task) empty++;
        else taken.set(a.task.id, (taken.get(a.task.id) ?? 0) + 1);
      }
      // Each agent finishes what it took, so the next round has new ready leaves.
      await Promise.all(
        answers.flatMap((a, i) =>
          a.task ? [agents[i]!.post(`/api/tasks/${a.task.id}/status`, { status: "completed" })] : [],
        ),
      );
    }
    const twice = [...taken.values()].filter((n) => n > 1).length;
    return [
      {
        database: pgUrl ? "postgresql" : "pglite",
        plan: `${count} nodes`,
        "calls (20 agents × rounds)": String(ms.length),
        "leaves claimed": String(taken.size),
        "claimed twice": String(twice),
        "answered none free": String(empty),
        "p50 ms": percentile(ms, 50).toFixed(1),
        "p95 ms": percentile(ms, 95).toFixed(1),
        "max ms": Math.max(...ms).toFixed(1),
      },
    ];
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const rows = await benchClaims();
  if (pgUrl) rows.push(...(await benchClaims(pgUrl)));
  console.table(rows);
}
