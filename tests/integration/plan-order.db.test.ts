import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../src/server/db/schema/index";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS_ENABLED: "false", REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, user: reg.user as { id: string } };
}

type Spec = {
  title: string;
  parent?: string;
  hours?: [number, number, number];
  done?: boolean;
  points?: number;
};

/** Inserts a plan as a finished decomposition leaves it; returns each node's id by title. */
async function seedPlan(userId: string, nodes: Spec[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const depth: Record<string, number> = {};
  for (const [i, n] of nodes.entries()) {
    const parentId = n.parent ? ids[n.parent]! : null;
    const rootId = nodes[0] && n.parent ? ids[nodes[0].title]! : null;
    const [row] = await server.deps.db
      .insert(tasks)
      .values({
        userId,
        parentId,
        rootTaskId: rootId,
        depth: n.parent ? depth[n.parent]! + 1 : 0,
        position: i,
        description: n.title,
        status: n.done ? "completed" : n.parent ? "pending" : "completed",
        storyPoints: n.points ?? (n.hours ? 2 : null),
        estimateLowHours: n.hours?.[0] ?? null,
        estimatedHours: n.hours?.[1] ?? null,
        estimateHighHours: n.hours?.[2] ?? null,
        isAtomic: Boolean(n.hours),
      })
      .returning({ id: tasks.id });
    ids[n.title] = row!.id;
    depth[n.title] = n.parent ? depth[n.parent]! + 1 : 0;
  }
  return ids;
}

// Project: Foundation (F: 4 h) and two features that use it, one of them a parent (Search with two leaves).
const PLAN: Spec[] = [
  { title: "Project" },
  { title: "Foundation", parent: "Project", hours: [4, 4, 4] },
  { title: "Profiles", parent: "Project", hours: [2, 2, 2] },
  { title: "Search", parent: "Project" },
  { title: "Index", parent: "Search", hours: [3, 3, 3] },
  { title: "Query page", parent: "Search", hours: [1, 2, 3] },
];

describe("dependencies over /api", () => {
  it("adds one (201), shows it in every task answer, and removes it (204)", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const added = await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation });
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ task_id: id.Profiles, depends_on: [id.Foundation], blocks: [] });
    // Adding it again changes nothing.
    expect(
      (await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation })).status,
    ).toBe(201);
    expect((await client.get(`/api/tasks/${id.Foundation}/dependencies`)).json).toEqual({
      task_id: id.Foundation,
      depends_on: [],
      blocks: [id.Profiles],
    });
    expect((await client.get(`/api/tasks/${id.Profiles}`)).json.depends_on).toEqual([id.Foundation]);
    const tree = (await client.get(`/api/tasks/${id.Project}/tree`)).json;
    const profiles = tree.children.find((c: { id: string }) => c.id === id.Profiles);
    expect(profiles.depends_on).toEqual([id.Foundation]);
    expect(tree.depends_on).toEqual([]);
    const list = (await client.get("/api/tasks?top_level_only=false&page_size=100")).json.tasks;
    expect(list.find((t: { id: string }) => t.id === id.Profiles).depends_on).toEqual([id.Foundation]);

    const removed = await client.request("DELETE", `/api/tasks/${id.Profiles}/dependencies/${id.Foundation}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await client.get(`/api/tasks/${id.Profiles}`)).json.depends_on).toEqual([]);
    const again = await client.request("DELETE", `/api/tasks/${id.Profiles}/dependencies/${id.Foundation}`);
    expect(again.status).toBe(404);
    expect(again.json.detail).toBe("This task does not depend on that task.");
  });

  it("refuses a cycle with 422 naming it, and changes nothing", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    expect(
      (await client.post(`/api/tasks/${id.Search}/dependencies`, { depends_on: id.Foundation })).status,
    ).toBe(201);
    expect(
      (await client.post(`/api/tasks/${id.Foundation}/dependencies`, { depends_on: id.Profiles })).status,
    ).toBe(201);
    const res = await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Search });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe("This would create a cycle: Profiles -> Search -> Foundation -> Profiles");
    expect(res.json.errors).toEqual([{ field: "depends_on", message: res.json.detail }]);
    // A leaf of Search inherits Search's dependency: waiting on it from Foundation's side closes a cycle too.
    const viaLeaf = await client.post(`/api/tasks/${id.Foundation}/dependencies`, { depends_on: id.Index });
    expect(viaLeaf.status).toBe(422);
    expect(viaLeaf.json.detail).toBe(
      "This would create a cycle: Foundation -> Index -> Search -> Foundation",
    );
    expect((await client.get(`/api/tasks/${id.Profiles}`)).json.depends_on).toEqual([]);
    const a = await client.post(`/api/tasks/${id.Foundation}/dependencies`, { depends_on: id.Foundation });
    expect(a.status).toBe(422);
    expect(a.json.detail).toBe("A task cannot depend on itself.");
  });

  it("refuses a dependency on an ancestor or a descendant", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const up = await client.post(`/api/tasks/${id.Index}/dependencies`, { depends_on: id.Search });
    expect(up.status).toBe(422);
    expect(up.json.detail).toContain('"Index" is part of "Search"');
    const down = await client.post(`/api/tasks/${id.Search}/dependencies`, { depends_on: id.Index });
    expect(down.status).toBe(422);
    const root = await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Project });
    expect(root.status).toBe(422);
    expect((await client.get(`/api/tasks/${id.Search}/dependencies`)).json.depends_on).toEqual([]);
  });

  it("answers 404 for another tree, someone else's task, or a malformed id; 401 signed out; 422 for a bad body", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const other = await seedPlan(user.id, PLAN);
    const cross = await client.post(`/api/tasks/${id.Profiles}/dependencies`, {
      depends_on: other.Foundation,
    });
    expect(cross.status).toBe(404);
    expect(cross.json.detail).toBe("Task not found");
    const stranger = await signedIn();
    const theirs = await seedPlan(stranger.user.id, PLAN);
    expect(
      (await stranger.client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation }))
        .status,
    ).toBe(404);
    expect(
      (await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: theirs.Foundation })).status,
    ).toBe(404);
    expect((await stranger.client.get(`/api/tasks/${id.Project}/schedule`)).status).toBe(404);
    expect((await stranger.client.get(`/api/tasks/${id.Profiles}/dependencies`)).status).toBe(404);
    await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation });
    expect(
      (await stranger.client.request("DELETE", `/api/tasks/${id.Profiles}/dependencies/${id.Foundation}`))
        .status,
    ).toBe(404);
    expect(
      (await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: "not-an-id" })).status,
    ).toBe(404);
    const bad = await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: 5, extra: true });
    expect(bad.status).toBe(422);
    // Unknown fields are reported on the body, as everywhere in the API.
    expect(bad.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(["body", "depends_on"]);
    const anonymous = new TestClient(server.url);
    expect((await anonymous.get(`/api/tasks/${id.Project}/schedule`)).status).toBe(401);
    expect(
      (await anonymous.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation })).status,
    ).toBe(401);
    expect((await client.get(`/api/tasks/${id.Profiles}`)).json.depends_on).toEqual([id.Foundation]);
  });

  it("lets only one of two opposite dependencies through when they race", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const [ab, ba] = await Promise.all([
      client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation }),
      client.post(`/api/tasks/${id.Foundation}/dependencies`, { depends_on: id.Profiles }),
    ]);
    expect([ab.status, ba.status].sort()).toEqual([201, 422]);
  });
});

describe("schedule", () => {
  it("computes critical path, waves, ready leaves and a repeatable forecast on a hand-computed plan", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    await client.post(`/api/tasks/${id.Search}/dependencies`, { depends_on: id.Foundation });
    await client.post(`/api/tasks/${id.Profiles}/dependencies`, { depends_on: id.Foundation });
    await client.post(`/api/tasks/${id["Query page"]}/dependencies`, { depends_on: id.Index });
    const res = await client.get(`/api/tasks/${id.Project}/schedule`);
    expect(res.status).toBe(200);
    const s = res.json;
    // Foundation 4 h -> Index 3 h -> Query page 2 h: 9 h; Profiles (2 h) runs beside it.
    expect(s.critical_path).toEqual([id.Foundation, id.Index, id["Query page"]]);
    expect(s.critical_path_hours).toBe(9);
    expect(s.waves).toEqual([[id.Foundation], [id.Profiles, id.Index], [id["Query page"]]]);
    expect(s.ready).toEqual([id.Foundation]);
    expect(s.unestimated).toEqual([]);
    expect(s.forecast).toMatchObject({ team_size: 1, simulations: expect.any(Number), hours_per_day: 6 });
    // One person: all 11 h of work, give or take the Query page's 1-3 h.
    expect(s.forecast.p50_days).toBeGreaterThanOrEqual(10 / 6 - 0.05);
    expect(s.forecast.p90_days).toBeLessThanOrEqual(12 / 6 + 0.05);
    const two = (await client.get(`/api/tasks/${id.Project}/schedule?team_size=2`)).json.forecast;
    expect(two.team_size).toBe(2);
    expect(two.p50_days).toBeGreaterThanOrEqual(Math.floor((9 / 6) * 10) / 10 - 0.05);
    expect(two.p50_days).toBeLessThan(s.forecast.p50_days);
    expect((await client.get(`/api/tasks/${id.Project}/schedule?team_size=2`)).json.forecast).toEqual(two);

    // Completing Foundation makes what waited for it ready, with one task.ready event.
    const done = await client.post(`/api/tasks/${id.Foundation}/complete`);
    expect(done.status).toBe(200);
    const after = (await client.get(`/api/tasks/${id.Project}/schedule`)).json;
    expect(after.ready).toEqual([id.Index, id.Profiles]);
    expect(after.critical_path).toEqual([id.Index, id["Query page"]]);
    const events = await server.deps.events.history({ userId: user.id, rootTaskId: id.Project });
    const ready = events.filter((e) => e.type === "task.ready");
    expect(ready).toHaveLength(1);
    expect(ready[0]!.data.ready).toEqual([id.Profiles, id.Index]);
    expect(ready[0]!.task_id).toBe(id.Foundation);

    // A subtree's schedule is its own work.
    const search = (await client.get(`/api/tasks/${id.Search}/schedule`)).json;
    expect(search.waves).toEqual([[id.Index], [id["Query page"]]]);
  });

  it("refuses a team size outside 1-50 with 422", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    for (const bad of ["0", "51", "2.5", "many"]) {
      const res = await client.get(`/api/tasks/${id.Project}/schedule?team_size=${bad}`);
      expect(res.status).toBe(422);
      expect(res.json.errors[0].field).toBe("team_size");
    }
    expect((await client.get(`/api/tasks/${id.Project}/schedule?team_size=50`)).status).toBe(200);
  });
});

describe("estimate ranges and roll-ups", () => {
  it("shows each leaf's range and every parent's roll-up, and takes a person's range", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, [
      ...PLAN,
      { title: "Done leaf", parent: "Search", hours: [1, 1, 1], done: true, points: 1 },
    ]);
    const tree = (await client.get(`/api/tasks/${id.Project}/tree`)).json;
    const search = tree.children.find((c: { id: string }) => c.id === id.Search);
    expect(search.rollup).toEqual({
      story_points: 5,
      estimate_hours: { low: 5, likely: 6, high: 7 },
      leaves_done: 1,
      leaves_total: 3,
      leaves_unestimated: 0,
    });
    expect(tree.rollup).toMatchObject({ leaves_total: 5, leaves_done: 1, estimate_hours: { likely: 12 } });
    const index = search.children.find((c: { id: string }) => c.id === id.Index);
    expect(index.rollup).toBeNull();
    expect(index.estimate_hours).toEqual({ low: 3, likely: 3, high: 3 });

    const patched = await client.request("PATCH", `/api/tasks/${id.Index}`, {
      estimate_hours: { low: 2, likely: 5, high: 9 },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      estimate_hours: { low: 2, likely: 5, high: 9 },
      estimated_hours: 5,
      estimate_source: "person",
    });
    const bad = await client.request("PATCH", `/api/tasks/${id.Index}`, {
      estimate_hours: { low: 6, likely: 5, high: 9 },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0]).toEqual({
      field: "estimate_hours.low",
      message: "low must not be above likely",
    });
    const after = (await client.get(`/api/tasks/${id.Project}/tree`)).json;
    expect(after.children.find((c: { id: string }) => c.id === id.Search).rollup.estimate_hours).toEqual({
      low: 4,
      likely: 8,
      high: 13,
    });
  });
});

describe("editing in place", () => {
  it("takes a node's acceptance criteria, with limits, as a person's edit", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const ok = await client.request("PATCH", `/api/tasks/${id.Index}`, {
      acceptance_criteria: ["  Finds recipes by ingredient ", "Answers in under 200 ms"],
    });
    expect(ok.status).toBe(200);
    expect(ok.json.acceptance_criteria).toEqual(["Finds recipes by ingredient", "Answers in under 200 ms"]);
    const tooMany = await client.request("PATCH", `/api/tasks/${id.Index}`, {
      acceptance_criteria: Array.from({ length: 11 }, (_, i) => `Criterion ${i}`),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.errors[0]).toEqual({
      field: "acceptance_criteria",
      message: "At most 10 acceptance criteria",
    });
    const empty = await client.request("PATCH", `/api/tasks/${id.Index}`, {
      acceptance_criteria: ["ok", "  "],
    });
    expect(empty.status).toBe(422);
    expect(empty.json.errors[0]).toEqual({
      field: "acceptance_criteria.1",
      message: "An acceptance criterion cannot be empty",
    });
    expect((await client.get(`/api/tasks/${id.Index}`)).json.acceptance_criteria).toHaveLength(2);
  });
});

describe("over tRPC", () => {
  it("adds and removes dependencies and schedules, with the same rules", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const trpc = trpcHttp(client);
    const added = await trpc.tasks.addDependency.mutate({ id: id.Profiles!, depends_on: id.Foundation! });
    expect(added.depends_on).toEqual([id.Foundation]);
    const err = await trpcError(
      trpc.tasks.addDependency.mutate({ id: id.Foundation!, depends_on: id.Profiles! }),
    );
    expect(err.data.code).toBe("UNPROCESSABLE_CONTENT");
    expect(err.message).toBe("This would create a cycle: Foundation -> Profiles -> Foundation");
    const schedule = await trpc.tasks.schedule.query({ id: id.Project!, team_size: 3 });
    expect(schedule.forecast.team_size).toBe(3);
    // Foundation -> Profiles (6 h) is the critical path; then by the work behind each: Index (3 h), Query page (2 h).
    expect(schedule.ready).toEqual([id.Foundation, id.Index, id["Query page"]]);
    await trpc.tasks.removeDependency.mutate({ id: id.Profiles!, depends_on_id: id.Foundation! });
    expect((await trpc.tasks.dependencies.query({ id: id.Profiles! })).depends_on).toEqual([]);
    const stranger = await signedIn();
    const notYours = await trpcError(trpcHttp(stranger.client).tasks.schedule.query({ id: id.Project! }));
    expect(notYours.data.code).toBe("NOT_FOUND");
  });
});

describe("moving a task", () => {
  const childrenOf = async (client: TestClient, rootId: string) => {
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    const titles = (n: { description: string; children: unknown[] }): unknown =>
      n.children.length ? { [n.description]: (n.children as (typeof n)[]).map(titles) } : n.description;
    return { tree, shape: titles(tree as { description: string; children: unknown[] }) };
  };

  it("moves a subtree to another parent or place, keeping sibling order and depths", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const res = await client.post(`/api/tasks/${id["Query page"]}/move`, {
      parent_id: id.Project,
      position: 0,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: id["Query page"], parent_id: id.Project, position: 0, depth: 1 });
    expect((await childrenOf(client, id.Project!)).shape).toEqual({
      Project: ["Query page", "Foundation", "Profiles", { Search: ["Index"] }],
    });
    // Past the end means last; moving within the same parent reorders.
    await client.post(`/api/tasks/${id["Query page"]}/move`, { parent_id: id.Project, position: 99 });
    await client.post(`/api/tasks/${id.Search}/move`, { parent_id: id.Project, position: 0 });
    const { tree, shape } = await childrenOf(client, id.Project!);
    expect(shape).toEqual({ Project: [{ Search: ["Index"] }, "Foundation", "Profiles", "Query page"] });
    expect(tree.children.map((c: { position: number }) => c.position)).toEqual([1, 2, 3, 4]);
    // A subtree moves with its depth: Search (with Index) under Foundation.
    await client.post(`/api/tasks/${id.Search}/move`, { parent_id: id.Foundation, position: 0 });
    const after = (await childrenOf(client, id.Project!)).tree;
    const index = after.children[0].children[0].children[0];
    expect(index).toMatchObject({ description: "Index", depth: 3 });
    const events = await server.deps.events.history({ userId: user.id, rootTaskId: id.Project });
    expect(events.filter((e) => e.type === "task.updated" && e.data.moved === true)).toHaveLength(4);
  });

  it("refuses the root, a place under itself, another plan's parent, a stranger, and bad input", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const other = await seedPlan(user.id, PLAN);
    const root = await client.post(`/api/tasks/${id.Project}/move`, { parent_id: id.Search, position: 0 });
    expect(root.status).toBe(422);
    expect(root.json.detail).toBe("The root task cannot be moved.");
    const under = await client.post(`/api/tasks/${id.Search}/move`, { parent_id: id.Index, position: 0 });
    expect(under.status).toBe(422);
    expect(under.json.detail).toBe("A task cannot be moved under itself or one of its subtasks.");
    expect(
      (await client.post(`/api/tasks/${id.Search}/move`, { parent_id: other.Project, position: 0 })).status,
    ).toBe(404);
    const stranger = await signedIn();
    expect(
      (await stranger.client.post(`/api/tasks/${id.Search}/move`, { parent_id: id.Project, position: 0 }))
        .status,
    ).toBe(404);
    const bad = await client.post(`/api/tasks/${id.Search}/move`, { parent_id: id.Project, position: -1 });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].field).toBe("position");
    expect((await childrenOf(client, id.Project!)).shape).toEqual({
      Project: ["Foundation", "Profiles", { Search: ["Index", "Query page"] }],
    });
  });

  it("refuses a move that would put two dependent tasks in one branch or close a cycle, and changes nothing", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    await client.post(`/api/tasks/${id.Index}/dependencies`, { depends_on: id.Profiles });
    const branch = await client.post(`/api/tasks/${id.Index}/move`, { parent_id: id.Profiles, position: 0 });
    expect(branch.status).toBe(422);
    expect(branch.json.detail).toContain('"Index" and "Profiles", which depend on each other, in one branch');
    await client.post(`/api/tasks/${id.Search}/dependencies`, { depends_on: id.Foundation });
    await client.post(`/api/tasks/${id.Foundation}/dependencies`, { depends_on: id.Profiles });
    // Profiles inside Search: Search waits for Foundation, which waits for Profiles, which Search holds.
    const cycle = await client.post(`/api/tasks/${id.Profiles}/move`, { parent_id: id.Search, position: 0 });
    expect(cycle.status).toBe(422);
    expect(cycle.json.detail).toBe(
      "This move would create a cycle in the plan's order. Remove a dependency first.",
    );
    expect((await childrenOf(client, id.Project!)).shape).toEqual({
      Project: ["Foundation", "Profiles", { Search: ["Index", "Query page"] }],
    });
  });

  it("moves over tRPC too", async () => {
    const { client, user } = await signedIn();
    const id = await seedPlan(user.id, PLAN);
    const trpc = trpcHttp(client);
    const moved = await trpc.tasks.move.mutate({ id: id.Profiles!, parent_id: id.Search!, position: 1 });
    expect(moved).toMatchObject({ parent_id: id.Search, position: 1, depth: 2 });
    expect((await childrenOf(client, id.Project!)).shape).toEqual({
      Project: ["Foundation", { Search: ["Index", "Profiles", "Query page"] }],
    });
  });
});
