/**
 * Big plans (issue 32): on a 2,801-node plan (7 × 4) and an 11,111-node one (10 × 4), each on PGlite and
 * PostgreSQL, the server time (Server-Timing) of the tree answer and its size, of the edits (PATCH, move,
 * a new dependency, a status change), of the schedule, and the round trip of MCP's next_task,
 * set_task_status and get_plan. Medians (p50) and p99 over a few runs each, after a warm-up.
 */
import { performance } from "node:perf_hooks";
import { and, eq } from "drizzle-orm";
import { taskDependencies, tasks } from "../src/server/db/schema/index";
import { registerUser, TestClient } from "../tests/support/http-client";
import { callTool, connectMcp } from "../tests/support/mcp-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

type Row = Record<string, string>;
const SIZES = [
  { fanout: 7, depth: 4 },
  { fanout: 10, depth: 4 },
];

/** Own text of a node: what the 300-bytes-a-node budget leaves out. */
function ownTextBytes(node: Record<string, unknown>): number {
  const text = [
    node.description,
    node.implementation_details,
    ...((node.acceptance_criteria as string[]) ?? []),
  ];
  return text.reduce<number>((n, t) => n + (typeof t === "string" ? Buffer.byteLength(t) : 0), 0);
}

function walk(node: Record<string, unknown>, visit: (n: Record<string, unknown>) => void) {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    visit(n);
    for (const c of (n.children as Record<string, unknown>[]) ?? []) stack.push(c);
  }
}

export async function benchBigPlans(databaseUrl: string | undefined): Promise<Row[]> {
  const server = await startTestServer(
    { LOG_LEVEL: "silent", API_TOKEN_REQUESTS_PER_MINUTE: "100000", ...AS_IN_USE },
    { databaseUrl: databaseUrl ?? null },
  );
  const rows: Row[] = [];
  try {
    const web = new TestClient(server.url);
    const owner = await registerUser(web);
    const token = (await web.post("/api/tokens", { name: "bench", scope: "write", expires_in_days: 30 })).json
      .token as string;
    const base = server.url;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const buf = await res.arrayBuffer();
      const bytes = buf.byteLength;
      if (res.status >= 300)
        throw new Error(`${method} ${url}: ${res.status} ${Buffer.from(buf).toString().slice(0, 300)}`);
      return { ms: Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1]), bytes };
    };
    for (const size of SIZES) {
      const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { ...size, plan: true });
      const label = `${count.toLocaleString("en")} nodes`;
      const add = (what: string, ms: number[], extra = "") =>
        rows.push({
          database: server.deps.database.driver,
          plan: label,
          what,
          "p50 ms": percentile(ms, 50).toFixed(1),
          "p99 ms": percentile(ms, 99).toFixed(1),
          note: extra,
        });
      const times = async (runs: number, one: (i: number) => Promise<number>) => {
        await one(-1); // warm-up
        const ms: number[] = [];
        for (let i = 0; i < runs; i++) ms.push(await one(i));
        return ms;
      };

      // The tree answer, and what each node carries besides its own text.
      const treeRes = await fetch(`${base}/api/tasks/${rootId}/tree`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const treeText = await treeRes.text();
      const tree = JSON.parse(treeText) as Record<string, unknown>;
      let own = 0;
      let nodes = 0;
      walk(tree, (n) => {
        own += ownTextBytes(n);
        nodes++;
      });
      const total = Buffer.byteLength(treeText);
      add(
        "GET /api/tasks/{id}/tree",
        await times(10, async () => (await call("GET", `/api/tasks/${rootId}/tree`)).ms),
        `${(total / 1e6).toFixed(2)} MB; ${Math.round((total - own) / nodes)} B a node besides its text`,
      );
      // The compact shape the web app reads (shared/tree-compact.ts): the same nodes and text.
      const compactText = await (
        await fetch(`${base}/api/tasks/${rootId}/tree/compact`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).text();
      const compactBytes = Buffer.byteLength(compactText);
      add(
        "GET /api/tasks/{id}/tree/compact",
        await times(10, async () => (await call("GET", `/api/tasks/${rootId}/tree/compact`)).ms),
        `${(compactBytes / 1e6).toFixed(2)} MB; ${Math.round((compactBytes - own) / nodes)} B a node besides its text`,
      );
      add(
        "GET /api/tasks/{id}/schedule?team_size=5",
        await times(10, async () => (await call("GET", `/api/tasks/${rootId}/schedule?team_size=5`)).ms),
      );

      // Edits on the plan.
      // Pending leaves, most of them with no dependency either way (a new one between them is never refused).
      const edges = await server.deps.db
        .select({ a: taskDependencies.taskId, b: taskDependencies.dependsOnId })
        .from(taskDependencies)
        .where(eq(taskDependencies.rootTaskId, rootId));
      const linked = new Set(edges.flatMap((e) => [e.a, e.b]));
      const leaves = (
        await server.deps.db
          .select({ id: tasks.id, parentId: tasks.parentId })
          .from(tasks)
          .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true), eq(tasks.status, "pending")))
      )
        .filter((l, i) => i % 7 === 0 || !linked.has(l.id))
        .slice(0, 60);
      const [a, b] = leaves as [{ id: string; parentId: string }, { id: string; parentId: string }];
      add(
        "PATCH /api/tasks/{id} (story points)",
        await times(
          15,
          async (i) => (await call("PATCH", `/api/tasks/${a.id}`, { story_points: [3, 5][(i + 2) % 2] })).ms,
        ),
      );
      add(
        "PATCH /api/tasks/{id} (status)",
        await times(
          15,
          async (i) =>
            (await call("PATCH", `/api/tasks/${b.id}`, { status: ["in_progress", "pending"][(i + 2) % 2] }))
              .ms,
        ),
      );
      // A leaf moved to where it is (every leaf of the seed has dependencies among its siblings, and the
      // order must hold): the whole path of a move, its checks and its revision, without refusals.
      const [spot] = await server.deps.db
        .select({ position: tasks.position })
        .from(tasks)
        .where(eq(tasks.id, a.id));
      add(
        "POST /api/tasks/{id}/move (to its own place)",
        await times(
          10,
          async () =>
            (
              await call("POST", `/api/tasks/${a.id}/move`, {
                parent_id: a.parentId,
                position: spot!.position - 1,
              })
            ).ms,
        ),
      );
      // A leaf moved under another parent and back: the path that reads the plan's shape and checks the
      // new tree (a move among siblings cannot break the order, so it skips that).
      // A new leaf with no dependency either way (so no parent can make a cycle through it), moved between
      // two parents.
      const added = await fetch(`${base}/api/tasks/${a.id}/add-task`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          description: "A loose leaf",
          target_task_id: a.id,
          position: "after",
          auto_decompose: false,
        }),
      });
      const loose = { id: ((await added.json()) as { id: string }).id, parentId: a.parentId };
      const otherParent = leaves.find((l) => l.parentId !== loose.parentId)!.parentId;
      add(
        "POST /api/tasks/{id}/move (to another parent, and back)",
        await times(
          10,
          async (i) =>
            (
              await call("POST", `/api/tasks/${loose.id}/move`, {
                parent_id: (i + 2) % 2 ? loose.parentId : otherParent,
                position: 0,
              })
            ).ms,
        ),
      );
      // A new dependency among siblings, the last waiting for the first (the order they already have, so
      // never a cycle), in 11 families of leaves with no such edge yet.
      const pairs: Array<[string, string]> = [];
      const parents = [...new Set(leaves.map((l) => l.parentId).filter((p): p is string => p !== null))];
      for (const parentId of parents) {
        if (pairs.length >= 11) break;
        const kids = await server.deps.db
          .select({ id: tasks.id })
          .from(tasks)
          .where(eq(tasks.parentId, parentId))
          .orderBy(tasks.position);
        const first = kids[0]!.id;
        const last = kids[kids.length - 1]!.id;
        if (!edges.some((e) => e.a === last && e.b === first)) pairs.push([last, first]);
      }
      add(
        "POST /api/tasks/{id}/dependencies",
        await times(pairs.length - 1, async (i) => {
          const [from, to] = pairs[i + 1]!;
          return (await call("POST", `/api/tasks/${from}/dependencies`, { depends_on: to })).ms;
        }),
      );

      // MCP, through the official SDK client: the round trip a coding agent sees.
      const agent = await connectMcp(server.url, token);
      try {
        const round = async (runs: number, one: (i: number) => Promise<unknown>) =>
          times(runs, async (i) => {
            const started = performance.now();
            await one(i);
            return performance.now() - started;
          });
        add(
          "MCP next_task (round trip)",
          await round(10, () => callTool(agent, "next_task", { project_id: rootId })),
        );
        add(
          "MCP set_task_status (round trip)",
          await round(10, (i) =>
            callTool(agent, "set_task_status", {
              task_id: leaves[30 + ((i + 2) % 8)]!.id,
              status: (i + 2) % 2 ? "in_progress" : "pending",
            }),
          ),
        );
        add(
          "MCP get_plan (round trip)",
          await round(10, () => callTool(agent, "get_plan", { task_id: rootId })),
        );
      } finally {
        await agent.close();
      }
    }
    return rows;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const rows = [...(await benchBigPlans(undefined))];
  if (process.env.BENCH_PG !== "0") rows.push(...(await benchBigPlans(pg)));
  console.table(rows);
}
