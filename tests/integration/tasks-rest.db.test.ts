import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  // No job worker: these tests pin the task service itself; the pipeline has its own suites.
  // Every account here is registered from 127.0.0.1: the per-address registration limit gets room.
  server = await startTestServer({
    ADMIN_EMAILS: "tasks.admin@example.com",
    JOBS_ENABLED: "false",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    // The offline planner's projects count as a model's would (the default counts only a model's:
    // usage-limits.test.ts).
    MONTHLY_LIMIT_ALL_PLANNING: "true",
  });
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, user: reg.user, email: reg.email };
}

const createBody = (description = "Build a recipe sharing site with user accounts and search") => ({
  description,
  max_depth: 4,
  max_subtasks: 7,
  complexity_threshold: 0.7,
  use_context: true,
  requires_approval: false,
  tech_preferences: {
    application_type: "web-application",
    tech_stack_id: "react-node-postgres",
    github_repo: "  https://github.com/acme/recipes  ",
    additional_requirements: "",
  },
});

describe("creating tasks", () => {
  it("creates a pending top-level task with the task fields and no invented tree", async () => {
    const { client, user } = await signedIn();
    const res = await client.post("/api/tasks", createBody("  Build a recipe site\nwith search  "));
    expect(res.status).toBe(201);
    const t = res.json;
    expect(t.task_id).toBe(t.id);
    expect(t).toMatchObject({
      description: "Build a recipe site\nwith search",
      status: "pending",
      depth: 0,
      parent_id: null,
      root_task_id: null,
      total_subtasks: 0,
      children_count: 0,
      is_atomic: false,
      options: {
        max_depth: 4,
        max_subtasks: 7,
        complexity_threshold: 0.7,
        use_context: true,
        requires_approval: false,
      },
      tech_preferences: {
        application_type: "web-application",
        tech_stack_id: "react-node-postgres",
        github_repo: "https://github.com/acme/recipes",
        additional_requirements: null,
      },
    });
    expect(t.context.tech_stack).toMatchObject({
      application_type: "web-application",
      database: expect.any(String),
    });
    expect(t.context.epics).toEqual([]);
    expect(t.metadata).toBeNull();
    const tree = await client.get(`/api/tasks/${t.id}/tree`);
    expect(tree.json.children).toEqual([]);
    const owned = await server.deps.database.rows<{ user_id: string }>(
      sql`select user_id from tasks where id = ${t.id}`,
    );
    expect(owned[0]!.user_id).toBe(user.id);
  });

  it("applies the section 9 defaults when only a description is sent", async () => {
    const { client } = await signedIn();
    const res = await client.post("/api/tasks", { description: "Only a description" });
    expect(res.status).toBe(201);
    expect(res.json.options).toEqual({
      max_depth: 4,
      max_subtasks: 7,
      complexity_threshold: 0.7,
      use_context: true,
      requires_approval: false,
    });
  });

  it.each([
    [{ description: "   " }, "description", "Please enter a task description"],
    [{}, "description", "Please enter a task description"],
    [{ description: "x", max_depth: 9 }, "max_depth", "max_depth must be between 1 and 6"],
    [
      { description: "x", complexity_threshold: 2 },
      "complexity_threshold",
      "complexity_threshold must be between 0 and 1",
    ],
    [{ description: "x", extra: true }, "body", "Unknown field: extra"],
    [
      { description: "x", tech_preferences: { application_type: "spaceship" } },
      "tech_preferences.application_type",
      "Unknown application type",
    ],
    [
      {
        description: "x",
        tech_preferences: { application_type: "game", tech_stack_id: "react-node-postgres" },
      },
      "tech_preferences.tech_stack_id",
      "The tech stack does not belong to Game",
    ],
    [
      { description: "x", tech_preferences: { tech_stack_id: "unity-csharp" } },
      "tech_preferences.tech_stack_id",
      "Choose an application type before a tech stack",
    ],
    [
      { description: "x", tech_preferences: { github_repo: "https://gitlab.com/a/b" } },
      "tech_preferences.github_repo",
      "Enter a GitHub repository URL like https://github.com/owner/repo",
    ],
  ])("rejects %j with 422 naming %s", async (body, field, message) => {
    const { client } = await signedIn();
    const res = await client.post("/api/tasks", body);
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe(message);
    expect(res.json.errors).toContainEqual({ field, message });
    expect((await client.get("/api/tasks")).json.total).toBe(0);
  });

  it("accepts wordpress-mysql under both web-application and cms", async () => {
    const { client } = await signedIn();
    for (const type of ["web-application", "cms"]) {
      const res = await client.post("/api/tasks", {
        description: `A ${type} on WordPress`,
        tech_preferences: { application_type: type, tech_stack_id: "wordpress-mysql" },
      });
      expect(res.status).toBe(201);
    }
  });

  it("enforces the monthly limit of 10 top-level tasks, counts usage, and exempts admins", async () => {
    const { client } = await signedIn();
    for (let i = 0; i < 10; i++)
      expect((await client.post("/api/tasks", { description: `Task ${i}` })).status).toBe(201);
    const usage = await client.get("/api/tasks/usage");
    expect(usage.json).toMatchObject({ used: 10, limit: 10 });
    expect((await client.get("/api/auth/me")).json.tasks_created_this_month).toBe(10);
    const over = await client.post("/api/tasks", { description: "one too many" });
    expect(over.status).toBe(429);
    expect(over.json.detail).toMatch(
      /^You have reached your monthly limit of 10 projects\. It resets on [A-Z][a-z]+ 1\. Admins have no limit: .*make-admin/,
    );
    expect((await client.get("/api/tasks")).json.total).toBe(10);
    // Deleting does not give the quota back: the limit counts decompositions started.
    const first = (await client.get("/api/tasks")).json.tasks[0];
    await client.request("DELETE", `/api/tasks/${first.id}`);
    expect((await client.post("/api/tasks", { description: "still over" })).status).toBe(429);

    const admin = new TestClient(server.url);
    await registerUser(admin, { email: "tasks.admin@example.com" });
    // Made admin in the database, however ADMIN_EMAILS is applied (it may wait for a verified e-mail).
    await server.deps.database.rows(
      sql`update users set role = 'admin', email_verified_at = now() where email = 'tasks.admin@example.com'`,
    );
    for (let i = 0; i < 11; i++)
      expect((await admin.post("/api/tasks", { description: `Admin ${i}` })).status).toBe(201);
    expect((await admin.get("/api/tasks/usage")).json).toMatchObject({ used: 11, limit: null });
  });

  it("starts a new month's count from zero", async () => {
    const { client, user } = await signedIn();
    await server.deps.database.rows(
      sql`update users set tasks_created_this_month = 10, usage_period = '2001-01' where id = ${user.id}`,
    );
    expect((await client.get("/api/tasks/usage")).json.used).toBe(0);
    expect((await client.post("/api/tasks", { description: "new month" })).status).toBe(201);
    expect((await client.get("/api/tasks/usage")).json.used).toBe(1);
  });
});

describe("listing and stats", () => {
  it("pages top-level tasks newest first with total, page and page_size, and handles the edges", async () => {
    const { client } = await signedIn();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await client.post("/api/tasks", { description: `Task number ${i}` })).json.id);
    const p1 = await client.get("/api/tasks?page=1&page_size=9&top_level_only=true");
    expect(p1.json).toMatchObject({ total: 10, page: 1, page_size: 9 });
    expect(p1.json.tasks.map((t: { id: string }) => t.id)).toEqual(ids.slice(1).reverse());
    const p2 = await client.get("/api/tasks?page=2&page_size=9");
    expect(p2.json.tasks.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
    const beyond = await client.get("/api/tasks?page=5&page_size=9");
    expect(beyond.json).toEqual({ tasks: [], total: 10, page: 5, page_size: 9 });
    const defaults = await client.get("/api/tasks");
    expect(defaults.json).toMatchObject({ page: 1, page_size: 9, total: 10 });
    for (const bad of [
      "page=0",
      "page_size=0",
      "page_size=101",
      "page=abc",
      "top_level_only=maybe",
      "sort=asc",
    ]) {
      const res = await client.get(`/api/tasks?${bad}`);
      expect(res.status, bad).toBe(422);
    }
  });

  it("counts subtasks on list items, and lists subtasks too when top_level_only is false", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
    const list = await client.get("/api/tasks");
    expect(list.json.total).toBe(1);
    expect(list.json.tasks[0]).toMatchObject({ id: rootId, total_subtasks: 6, children_count: 2 });
    const all = await client.get("/api/tasks?top_level_only=false&page_size=100");
    expect(all.json.total).toBe(7);
    const level1 = all.json.tasks.filter((t: { depth: number }) => t.depth === 1);
    expect(level1).toHaveLength(2);
    for (const t of level1)
      expect(t).toMatchObject({ total_subtasks: 2, children_count: 2, root_task_id: rootId });
  });

  it("gives each listed task its work's progress: leaves done of all, whatever the plan's own status", async () => {
    const { client, user } = await signedIn();
    // A planned root is "completed" (the plan is made); two of its four leaves are done.
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
    const unplanned = (await client.post("/api/tasks", createBody("Not planned yet"))).json.id as string;
    const list = await client.get("/api/tasks");
    const byId = new Map(list.json.tasks.map((t: { id: string }) => [t.id, t]));
    expect(byId.get(rootId)).toMatchObject({
      status: "completed",
      progress: { leaves_done: 2, leaves_total: 4, percent: 50 },
    });
    // A task without subtasks is its own one leaf.
    expect(byId.get(unplanned)).toMatchObject({
      status: "pending",
      progress: { leaves_done: 0, leaves_total: 1, percent: 0 },
    });
    // A subtask counts the leaves under it; a done leaf is its own whole.
    const all = await client.get("/api/tasks?top_level_only=false&page_size=100");
    type Listed = { depth: number; position: number; status: string; progress: unknown };
    const rows = all.json.tasks as Listed[];
    for (const t of rows.filter((r) => r.depth === 1))
      expect(t.progress).toEqual({ leaves_done: 1, leaves_total: 2, percent: 50 });
    for (const leaf of rows.filter((r) => r.depth === 2))
      expect(leaf.progress).toEqual(
        leaf.status === "completed"
          ? { leaves_done: 1, leaves_total: 1, percent: 100 }
          : { leaves_done: 0, leaves_total: 1, percent: 0 },
      );
  });

  it("reports stats top-level by default, counting projects by their work (issue 40)", async () => {
    const { client, user } = await signedIn();
    const a = (await client.post("/api/tasks", { description: "a" })).json.id;
    await client.post("/api/tasks", { description: "b" });
    await client.post(`/api/tasks/${a}/complete`);
    // A planned root (status "completed") with 1 of its 3 leaves done: its work is in progress.
    await seedTree(server.deps.database, user.id, { fanout: 3, depth: 1 });
    await server.deps.database.rows(
      sql`update tasks set status = 'rejected' where id = ${(await client.post("/api/tasks", { description: "c" })).json.id}`,
    );
    const stats = await client.get("/api/tasks/stats");
    expect(stats.json).toEqual({
      total: 4,
      completed: 1,
      in_progress: 1,
      pending: 1,
      rejected: 1,
      failed: 0,
    });
    const all = await client.get("/api/tasks/stats?top_level_only=false");
    expect(all.json.total).toBe(7);
  });
});

describe("reading one task and its tree", () => {
  it("returns the full tree nested with counts and every Task field on each node", async () => {
    const { client, user } = await signedIn();
    const { rootId, count } = await seedTree(server.deps.database, user.id, { fanout: 3, depth: 3 });
    expect(count).toBe(40);
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    expect(tree).toMatchObject({ id: rootId, total_subtasks: 39, children_count: 3, depth: 0 });
    const first = tree.children[0];
    expect(first).toMatchObject({
      depth: 1,
      total_subtasks: 12,
      children_count: 3,
      parent_id: rootId,
      root_task_id: rootId,
    });
    for (const key of [
      "task_id",
      "status",
      "complexity_score",
      "story_points",
      "is_atomic",
      "implementation_details",
      "created_at",
    ]) {
      expect(first).toHaveProperty(key);
    }
    expect(first.children.map((c: { position: number }) => c.position)).toEqual([1, 2, 3]);
    const sub = (await client.get(`/api/tasks/${first.id}/tree`)).json;
    expect(sub.id).toBe(first.id);
    expect(sub.total_subtasks).toBe(12);
    const one = (await client.get(`/api/tasks/${first.id}`)).json;
    expect(one).toMatchObject({ id: first.id, total_subtasks: 12, children_count: 3 });
  });

  it("loads a 2,801-node tree with one query for the nodes", async () => {
    const { client, user } = await signedIn();
    const { rootId, count } = await seedTree(server.deps.database, user.id);
    expect(count).toBe(2801);
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    expect(tree.total_subtasks).toBe(2800);
    let seen = 0;
    const walk = (n: { children: unknown[] }) => {
      seen += 1;
      for (const c of n.children) walk(c as { children: unknown[] });
    };
    walk(tree as { children: unknown[] });
    expect(seen).toBe(2801);
  });
});

describe("changing tasks", () => {
  it("patches description, status and atomicity, and refuses bad updates", async () => {
    const { client } = await signedIn();
    const id = (await client.post("/api/tasks", { description: "old" })).json.id;
    const res = await client.request("PATCH", `/api/tasks/${id}`, {
      description: "  new text ",
      status: "in_progress",
      is_atomic: true,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      description: "new text",
      status: "in_progress",
      is_atomic: true,
      completed_at: null,
    });
    const done = await client.request("PATCH", `/api/tasks/${id}`, { status: "completed" });
    expect(done.json.completed_at).toBeTruthy();
    for (const [body, message] of [
      [{}, "Nothing to update"],
      [{ status: "processing" }, "Status must be one of pending, in_progress, completed"],
      [{ description: "" }, "Please enter a task description"],
      [{ story_points: 4 }, "story_points must be one of 1, 2, 3, 5, 8, 13"],
      [{ owner: "me" }, "Unknown field: owner"],
    ] as const) {
      const bad = await client.request("PATCH", `/api/tasks/${id}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json.detail).toBe(message);
    }
    expect((await client.get(`/api/tasks/${id}`)).json.description).toBe("new text");
  });

  it("completes a task", async () => {
    const { client } = await signedIn();
    const id = (await client.post("/api/tasks", { description: "finish me" })).json.id;
    const res = await client.post(`/api/tasks/${id}/complete`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("completed");
  });

  it("deletes a whole tree with its epics, stories and event model in one go", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 3, depth: 2 });
    await client.request("PATCH", `/api/tasks/${rootId}/event-model`, { event_model_markdown: "# Model" });
    await server.deps.database.rows(
      sql`insert into epics (root_task_id, key, title) values (${rootId}, 'E1', 'Accounts')`,
    );
    const res = await client.request("DELETE", `/api/tasks/${rootId}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ detail: "Task deleted successfully", deleted: 13 });
    const left = await server.deps.database.rows<{ n: number }>(sql`select
      (select count(*)::int from tasks where id = ${rootId} or root_task_id = ${rootId}) +
      (select count(*)::int from epics where root_task_id = ${rootId}) +
      (select count(*)::int from event_models where root_task_id = ${rootId}) as n`);
    expect(left[0]!.n).toBe(0);
    expect((await client.get(`/api/tasks/${rootId}`)).status).toBe(404);
  });

  it("deletes a subtask with its subtree but never the root through the subtask route", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 3, depth: 2 });
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    const victim = tree.children[1];
    const res = await client.request("DELETE", `/api/tasks/${victim.id}/subtask`);
    expect(res.status).toBe(200);
    expect(res.json.deleted).toBe(4);
    const after = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    expect(after.total_subtasks).toBe(8);
    expect(after.children.map((c: { id: string }) => c.id)).not.toContain(victim.id);
    const root = await client.request("DELETE", `/api/tasks/${rootId}/subtask`);
    expect(root.status).toBe(400);
    expect(root.json.detail).toBe("The root task cannot be deleted as a subtask. Delete the task instead.");
  });

  it("restarting a decomposition drops the generated tree and resets the status", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
    await client.request("PATCH", `/api/tasks/${rootId}/event-model`, { event_model_markdown: "# Model" });
    const res = await client.post(`/api/tasks/${rootId}/restart-decomposition`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "pending", total_subtasks: 0, metadata: null });
  });

  it("saves the event model markdown on the root", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 1, depth: 1 });
    const child = (await client.get(`/api/tasks/${rootId}/tree`)).json.children[0].id;
    const res = await client.request("PATCH", `/api/tasks/${child}/event-model`, {
      event_model_markdown: "## Orders\n- OrderPlaced",
    });
    expect(res.status).toBe(200);
    expect(res.json.metadata.event_model_markdown).toBe("## Orders\n- OrderPlaced");
    expect((await client.get(`/api/tasks/${rootId}`)).json.metadata.event_model_markdown).toBe(
      "## Orders\n- OrderPlaced",
    );
    const bad = await client.request("PATCH", `/api/tasks/${rootId}/event-model`, { markdown: "x" });
    expect(bad.status).toBe(422);
  });
});

describe("adding a task to the tree", () => {
  it("inserts before, after and as a child, keeping sibling order", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 3, depth: 1 });
    const [a, b, c] = (await client.get(`/api/tasks/${rootId}/tree`)).json.children;
    const before = await client.post(`/api/tasks/${b.id}/add-task`, {
      description: "Before B",
      target_task_id: b.id,
      position: "before",
      auto_decompose: false,
    });
    expect(before.status).toBe(201);
    expect(before.json).toMatchObject({
      parent_id: rootId,
      root_task_id: rootId,
      depth: 1,
      status: "pending",
    });
    await client.post(`/api/tasks/${c.id}/add-task`, { description: "After C", position: "after" });
    await client.post(`/api/tasks/${a.id}/add-task`, { description: "  Child of A  ", position: "child" });
    await client.post(`/api/tasks/${rootId}/add-task`, { description: "Root child", position: "child" });
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    expect(tree.children.map((n: { description: string }) => n.description)).toEqual([
      a.description,
      "Before B",
      b.description,
      c.description,
      "After C",
      "Root child",
    ]);
    const childOfA = tree.children[0].children;
    expect(childOfA).toHaveLength(1);
    expect(childOfA[0]).toMatchObject({
      description: "Child of A",
      depth: 2,
      parent_id: a.id,
      root_task_id: rootId,
    });
    expect(tree.total_subtasks).toBe(7);
  });

  it("explains why a sibling of the root or a bad payload is refused", async () => {
    const { client } = await signedIn();
    const rootId = (await client.post("/api/tasks", { description: "root" })).json.id;
    const sibling = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "x",
      position: "after",
    });
    expect(sibling.status).toBe(400);
    expect(sibling.json.detail).toBe("The root task has no siblings: add the new task as a child instead.");
    const blank = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "  ",
      position: "child",
    });
    expect(blank.status).toBe(422);
    expect(blank.json.detail).toBe("Task description is required");
    const pos = await client.post(`/api/tasks/${rootId}/add-task`, { description: "x", position: "inside" });
    expect(pos.json.detail).toBe("Position must be before, after or child");
    const mismatch = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "x",
      position: "child",
      target_task_id: "00000000-0000-0000-0000-000000000000",
    });
    expect(mismatch.status).toBe(422);
  });
});

describe("ownership: another user's task is 404 everywhere", () => {
  it("hides every route behind ownership and needs a session", async () => {
    const owner = await signedIn();
    const { rootId } = await seedTree(server.deps.database, owner.user.id, { fanout: 1, depth: 1 });
    const childId = (await owner.client.get(`/api/tasks/${rootId}/tree`)).json.children[0].id;
    const other = await signedIn();
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/tasks/${rootId}`],
      ["GET", `/api/tasks/${rootId}/tree`],
      ["PATCH", `/api/tasks/${rootId}`, { status: "completed" }],
      ["DELETE", `/api/tasks/${rootId}`],
      ["DELETE", `/api/tasks/${childId}/subtask`],
      ["POST", `/api/tasks/${rootId}/restart-decomposition`, {}],
      ["POST", `/api/tasks/${rootId}/complete`, {}],
      ["PATCH", `/api/tasks/${rootId}/event-model`, { event_model_markdown: "mine now" }],
      ["POST", `/api/tasks/${rootId}/add-task`, { description: "intruder", position: "child" }],
    ];
    for (const [method, path, body] of calls) {
      const res = await other.client.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.detail).toBe("Task not found");
      const anon = await new TestClient(server.url).request(method, path, body);
      expect(anon.status, `anonymous ${method} ${path}`).toBe(401);
    }
    expect((await other.client.get("/api/tasks")).json.total).toBe(0);
    expect((await other.client.get("/api/tasks/stats")).json.total).toBe(0);
    const still = (await owner.client.get(`/api/tasks/${rootId}/tree`)).json;
    expect(still).toMatchObject({ status: "completed", total_subtasks: 1, metadata: null });
    expect((await owner.client.get(`/api/tasks/not-a-uuid`)).status).toBe(404);
  });
});

describe("the API reference", () => {
  it("serves the OpenAPI document and a readable page to anyone, and they describe the routes that answer", async () => {
    const client = new TestClient(server.url);
    const doc = await client.get("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toContain("application/json");
    expect(doc.json.openapi).toBe("3.1.0");
    // A described route answers as described: PATCH /tasks/{id} wants a session.
    expect(doc.json.paths["/tasks/{id}"].patch.responses["401"]).toBeDefined();
    expect((await client.request("PATCH", "/api/tasks/x", { description: "y" })).status).toBe(401);
    const page = await client.get("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("<code>/api/tasks/{id}</code>");
    expect(page.text).toContain("Changes a task&#39;s title, description, status, complexity or details.");
  });
});
