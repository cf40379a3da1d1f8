import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskClaims, tasks } from "../../src/server/db/schema/index";
import { flatten, type TreeNode } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Claims on ready leaves (issue 41), for people and for coding agents, each agent by its own token: one
 * holder at a time (409 naming it), renewal, release, the end of a claim with the work, next_task passing
 * over what others hold, and claim_next_task giving concurrent callers distinct leaves, on PGlite and on
 * PostgreSQL alike (the suite runs on both).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
    // Twenty agents, each with a token of its own, and one more.
    API_TOKENS_PER_USER: "30",
  });
});
afterAll(() => server?.stop());

async function account() {
  const web = new TestClient(server.url);
  const { user } = await registerUser(web, { full_name: "Ada Lovelace" });
  const agent = async (name: string, scope: "read" | "write" = "write") => {
    const made = await web.post("/api/tokens", { name, scope, expires_in_days: 30 });
    expect(made.status).toBe(201);
    const client = new TestClient(server.url);
    client.bearer = made.json.token as string;
    return client;
  };
  return { web, userId: user.id, agent };
}

/** A plan of 3 x 3 (13 nodes) with estimates; siblings wait for the one before in two of three. */
async function plan(userId: string) {
  const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
  return rootId;
}

const treeOf = async (client: TestClient, id: string) =>
  (await client.get(`/api/tasks/${id}/tree`)).json as unknown as TreeNode & { claim?: unknown };

describe("claims", () => {
  it("holds a ready leaf for one claimer, names the holder to others, renews, and ends with the work", async () => {
    const { web, userId, agent } = await account();
    const rootId = await plan(userId);
    const [first, second] = [await agent("Claude Code"), await agent("Codex")];
    const next = (await first.get(`/api/tasks/${rootId}/next`)).json;
    const leafId = next.task.id as string;

    const claimed = await first.post(`/api/tasks/${leafId}/claim`, { minutes: 30 });
    expect(claimed.status).toBe(200);
    expect(claimed.json).toMatchObject({
      task_id: leafId,
      claimed_by: "Ada Lovelace (agent: Claude Code)",
      claimed_by_user_id: userId,
      agent: "Claude Code",
    });
    const until = Date.parse(claimed.json.claimed_until);
    expect(until - Date.now()).toBeGreaterThan(28 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 5_000);

    // Another agent of the same person is another claimer: refused, told who holds it.
    const refused = await second.post(`/api/tasks/${leafId}/claim`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toMatch(
      /^Someone else works on this task: Ada Lovelace \(agent: Claude Code\) holds it until \d\d:\d\d UTC/,
    );
    // The person in the app is a claimer of their own too.
    expect((await web.post(`/api/tasks/${leafId}/claim`, {})).status).toBe(409);

    // The holder renews: the default lease (120 minutes) from now.
    const renewed = await first.post(`/api/tasks/${leafId}/claim`, {});
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.json.claimed_until)).toBeGreaterThan(until + 80 * 60_000);

    // Seen in the plan's claims and passed over by the other agent's next task.
    const held = (await web.get(`/api/tasks/${rootId}/claims`)).json.claims;
    expect(held).toEqual([
      expect.objectContaining({ task_id: leafId, claimed_by: "Ada Lovelace (agent: Claude Code)" }),
    ]);
    const theirs = (await second.get(`/api/tasks/${rootId}/next`)).json;
    expect(theirs.task?.id).not.toBe(leafId);
    expect((await first.get(`/api/tasks/${rootId}/next`)).json.task.id).toBe(leafId);

    // Done ends the claim.
    expect((await first.post(`/api/tasks/${leafId}/status`, { status: "completed" })).status).toBe(200);
    expect((await web.get(`/api/tasks/${rootId}/claims`)).json.claims).toEqual([]);
    expect((await second.post(`/api/tasks/${leafId}/claim`, {})).json.detail).toMatch(/This task is done/);
  });

  it("lets a claim go, runs out by itself, and refuses what is not a ready leaf or not the caller's", async () => {
    const { web, userId, agent } = await account();
    const rootId = await plan(userId);
    const tree = await treeOf(web, rootId);
    const leafId = (await web.get(`/api/tasks/${rootId}/next`)).json.task.id as string;
    const bot = await agent("Cursor");
    expect((await bot.post(`/api/tasks/${leafId}/claim`, {})).status).toBe(200);
    const released = await web.request("DELETE", `/api/tasks/${leafId}/claim`);
    expect(released.status).toBe(200);
    expect(released.json.claims).toEqual([]);
    expect((await web.post(`/api/tasks/${leafId}/claim`, {})).json.claimed_by).toBe("Ada Lovelace");

    // A claim past its time holds nothing: anyone may take the leaf.
    await server.deps.db
      .update(taskClaims)
      .set({ until: new Date(Date.now() - 1000) })
      .where(eq(taskClaims.taskId, leafId));
    expect((await web.get(`/api/tasks/${rootId}/claims`)).json.claims).toEqual([]);
    expect((await bot.post(`/api/tasks/${leafId}/claim`, {})).status).toBe(200);

    // Not a leaf; not ready (it waits for its sibling before it); bad minutes; read-only token; a stranger.
    const group = tree.children.find((c) => c.children.length > 0)!;
    expect((await web.post(`/api/tasks/${group.id}/claim`, {})).json.detail).toMatch(
      /Only a task without subtasks/,
    );
    const byId = new Map(flatten(tree).map((n) => [n.id, n]));
    const waiting = flatten(tree).find(
      (n) =>
        n.children.length === 0 &&
        n.status !== "completed" &&
        n.depends_on.some((d) => byId.get(d)!.status !== "completed"),
    )!;
    const notReady = await web.post(`/api/tasks/${waiting.id}/claim`, {});
    expect(notReady.status).toBe(409);
    expect(notReady.json.detail).toMatch(/^This task is not ready: it waits for “Level 2 task \d”/);
    for (const minutes of [0, 1441, 1.5, "10"]) {
      const bad = await web.post(`/api/tasks/${leafId}/claim`, { minutes });
      expect(bad.status, String(minutes)).toBe(422);
    }
    expect((await (await agent("viewer", "read")).post(`/api/tasks/${leafId}/claim`, {})).status).toBe(403);
    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    for (const [method, path] of [
      ["POST", `/api/tasks/${leafId}/claim`],
      ["DELETE", `/api/tasks/${leafId}/claim`],
      ["POST", `/api/projects/${rootId}/claim-next`],
    ] as const) {
      expect((await stranger.request(method, path, {})).status, path).toBe(404);
    }
    expect((await web.get(`/api/tasks/${rootId}/claims`)).json.claims[0].agent).toBe("Cursor");
    expect((await stranger.get(`/api/tasks/${rootId}/claims`)).status).toBe(404);
  });

  it("gives concurrent claim_next_task callers distinct leaves, in next_task's order, then says none is free", async () => {
    const { userId, agent } = await account();
    // 7 x 2: 43 nodes, 49 leaves... of which the ready ones are the first of each chain and the free ones.
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 7, depth: 2, plan: true });
    const agents = await Promise.all(Array.from({ length: 20 }, (_, i) => agent(`agent-${i}`)));
    const ready = (await agents[0]!.get(`/api/tasks/${rootId}/next`)).json;
    const free = [ready.task, ...ready.also_ready].length;
    // Fewer free leaves than callers: some callers must be told none is left.
    expect(free).toBeGreaterThan(3);
    expect(free).toBeLessThan(20);
    const answers = await Promise.all(
      agents.map((a) => a.post(`/api/projects/${rootId}/claim-next`, {}).then((r) => r.json)),
    );
    const got = answers.map((a) => a.task?.id).filter(Boolean) as string[];
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBe(Math.min(free, 20));
    for (const a of answers.filter((x) => x.task)) expect(a.claim.agent).toMatch(/^agent-\d+$/);
    // The first claimer took next_task's first.
    expect(got).toContain(ready.task.id);
    const late = (await (await agent("late")).post(`/api/projects/${rootId}/claim-next`, {})).json;
    expect(late.task).toBeNull();
    expect(late.message).toMatch(/^Every ready task is taken: \d+ held by others/);
    expect(late.held_by_others.length).toBeGreaterThan(0);
  });

  it("does not hand out a leaf that likely changes a file a claimed leaf changes (issue 42)", async () => {
    const { userId, agent } = await account();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 7, depth: 2, plan: true });
    const [a, b] = await Promise.all([agent("A"), agent("B")]);
    const ready = (await a.get(`/api/tasks/${rootId}/next`)).json;
    const ids = [ready.task.id, ...ready.also_ready.map((t: { id: string }) => t.id)] as string[];
    // Every ready leaf changes src/routes/invoices.ts, one only with low confidence (which does not count).
    const file = (path: string, confidence: "high" | "low") => [{ path, confidence, new: false }];
    for (const id of ids)
      await server.deps.db
        .update(tasks)
        .set({ files: file("src/routes/invoices.ts", "high") })
        .where(eq(tasks.id, id));
    const first = (await a.post(`/api/projects/${rootId}/claim-next`, {})).json;
    expect(ids).toContain(first.task.id);
    const refused = (await b.post(`/api/projects/${rootId}/claim-next`, {})).json;
    expect(refused.task).toBeNull();
    expect(refused.message).toBe(
      `The ${ids.length - 1} ready tasks left would change files that claimed tasks change: ask again when one is done.`,
    );
    const other = ids.find((id) => id !== first.task.id)!;
    await server.deps.db
      .update(tasks)
      .set({ files: file("src/routes/invoices.ts", "low") })
      .where(eq(tasks.id, other));
    expect((await b.post(`/api/projects/${rootId}/claim-next`, {})).json.task.id).toBe(other);
  });

  it("is a tool for coding agents: claim_next_task over MCP", async () => {
    const { web, userId } = await account();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 7, depth: 2, plan: true });
    const token = async (name: string) =>
      (await web.post("/api/tokens", { name, scope: "write", expires_in_days: 30 })).json.token as string;
    const [a, b] = await Promise.all([
      connectMcp(server.url, await token("A")),
      connectMcp(server.url, await token("B")),
    ]);
    try {
      const [x, y] = await Promise.all([
        callTool<{ task: { id: string }; claim: { agent: string } }>(a, "claim_next_task", {
          project_id: rootId,
        }),
        callTool<{ task: { id: string }; claim: { agent: string } }>(b, "claim_next_task", {
          project_id: rootId,
        }),
      ]);
      expect(x.task.id).not.toBe(y.task.id);
      expect([x.claim.agent, y.claim.agent].sort()).toEqual(["A", "B"]);
      const read = await connectMcp(
        server.url,
        (await web.post("/api/tokens", { name: "R", scope: "read", expires_in_days: 30 })).json.token,
      );
      expect(await toolError(read, "claim_next_task", { project_id: rootId })).toMatch(/read-only|write/i);
      await read.close();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
