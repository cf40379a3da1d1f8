import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskNotes } from "../../src/server/db/schema/index";
import { NOTES_PER_TASK_MAX } from "../../src/shared/schemas/notes";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The REST side of what agents and scripts use (issue 14): notes on a task, /api/projects,
 * /api/tasks/{id}/outline, /next, /brief and /status, with ownership and input checks like every route.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

async function planned(description: string, maxDepth = 2) {
  const client = new TestClient(server.url);
  await registerUser(client);
  const made = await client.post("/api/tasks", { description, max_depth: maxDepth });
  expect(made.status).toBe(201);
  await waitForStatus(client, made.json.id, ["completed"]);
  const tree = (await client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode;
  return {
    client,
    id: made.json.id as string,
    tree,
    leaves: flatten(tree).filter((n) => !n.children.length),
  };
}

describe("notes", () => {
  it("are appended with a timestamp, listed oldest first, refused empty, past the limit, or on another's task", async () => {
    const { client, id, leaves } = await planned("A team calendar with shared events", 1);
    const leaf = leaves[0]!;
    const first = await client.post(`/api/tasks/${leaf.id}/notes`, { body: "  First finding  " });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ task_id: leaf.id, body: "First finding", token_name: null });
    expect(Date.parse(first.json.created_at)).toBeGreaterThan(Date.now() - 60_000);
    await client.post(`/api/tasks/${leaf.id}/notes`, { body: "Second" });
    const listed = (await client.get(`/api/tasks/${leaf.id}/notes`)).json.notes;
    expect(listed.map((n: { body: string }) => n.body)).toEqual(["First finding", "Second"]);

    const empty = await client.post(`/api/tasks/${leaf.id}/notes`, { body: " " });
    expect(empty.status).toBe(422);
    expect(empty.json.detail).toBe("The note is empty");
    expect((await client.post(`/api/tasks/${leaf.id}/notes`, { text: "x" })).status).toBe(422);

    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    expect((await stranger.post(`/api/tasks/${leaf.id}/notes`, { body: "mine" })).status).toBe(404);
    expect((await stranger.get(`/api/tasks/${leaf.id}/notes`)).status).toBe(404);

    // The task next to it already holds the most notes a task keeps (all but one written straight away).
    const other = leaves[1]!;
    await server.deps.db.insert(taskNotes).values(
      Array.from({ length: NOTES_PER_TASK_MAX - 1 }, (_, i) => ({
        taskId: other.id,
        rootTaskId: id,
        body: `note ${i}`,
      })),
    );
    expect((await client.post(`/api/tasks/${other.id}/notes`, { body: "the last one" })).status).toBe(201);
    const over = await client.post(`/api/tasks/${other.id}/notes`, { body: "one too many" });
    expect(over.status).toBe(422);
    expect(over.json.detail).toBe(`This task already has ${NOTES_PER_TASK_MAX} notes, the most it keeps.`);
    expect((await client.get(`/api/tasks/${leaf.id}/notes`)).json.notes).toHaveLength(2);
  });
});

describe("the plan for agents and scripts", () => {
  it("lists projects with progress, outlines a plan to a depth, and gives the next task in full", async () => {
    const { client, id, tree, leaves } = await planned(
      "A recipe site\n- Members share recipes with photos\n- Visitors search recipes by ingredient",
    );
    const projects = (await client.get("/api/projects")).json;
    expect(projects).toMatchObject({ total: 1, projects: [{ id, status: "completed" }] });
    expect(projects.projects[0].progress).toMatchObject({ leaves_done: 0, leaves_total: leaves.length });
    expect((await client.get("/api/projects?limit=0")).status).toBe(422);

    const full = (await client.get(`/api/tasks/${id}/outline?depth=10`)).json;
    expect(full.omitted).toBe(0);
    expect(full.outline.split("\n")).toHaveLength(flatten(tree).length);
    const shallow = (await client.get(`/api/tasks/${id}/outline?depth=1`)).json;
    expect(shallow.outline.split("\n")).toHaveLength(tree.children.length + 2);
    expect(shallow.omitted).toBe(flatten(tree).length - 1 - tree.children.length);
    expect(shallow.outline).toMatch(/more tasks below/);
    expect((await client.get(`/api/tasks/${id}/outline?depth=11`)).json.detail).toBe(
      "depth must be between 1 and 10",
    );

    const next = (await client.get(`/api/tasks/${id}/next`)).json;
    expect(next.task).toMatchObject({ is_leaf: true, status: "pending", project: { id } });
    expect(next.task.path[0].id).toBe(id);
    expect(next.task.acceptance_criteria.length).toBeGreaterThan(0);
    expect(next.task.requirements.every((r: { text: string }) => r.text.length > 0)).toBe(true);
    const brief = (await client.get(`/api/tasks/${next.task.id}/brief`)).json;
    expect(brief).toEqual(next.task);

    // Starting it keeps it next (nothing else was started); others come before it once it is taken.
    const started = await client.post(`/api/tasks/${next.task.id}/status`, { status: "in_progress" });
    expect(started.json.task).toMatchObject({ id: next.task.id, status: "in_progress" });
    const after = (await client.get(`/api/tasks/${id}/next`)).json;
    if (after.also_ready.length === 0) expect(after.task.id).toBe(next.task.id);
    else expect(after.task.id).not.toBe(next.task.id);
    const done = await client.post(`/api/tasks/${next.task.id}/status`, { status: "completed" });
    expect(done.json.progress.leaves_done).toBe(1);
    expect((await client.post(`/api/tasks/${next.task.id}/status`, { status: "done" })).status).toBe(422);

    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    for (const path of [`/api/tasks/${id}/outline`, `/api/tasks/${id}/next`, `/api/tasks/${id}/brief`]) {
      expect((await stranger.get(path)).status).toBe(404);
    }
    expect((await stranger.post(`/api/tasks/${id}/status`, { status: "completed" })).status).toBe(404);
    expect((await stranger.get("/api/projects")).json.projects).toEqual([]);
  });

  it("says when nothing is ready and why", async () => {
    const { client, id, leaves } = await planned("A simple changelog page for a product", 1);
    for (const leaf of leaves) await client.post(`/api/tasks/${leaf.id}/status`, { status: "completed" });
    const next = (await client.get(`/api/tasks/${id}/next`)).json;
    expect(next).toMatchObject({ task: null, message: "Everything in this plan is done.", also_ready: [] });
    expect(next.progress).toMatchObject({ leaves_done: leaves.length, percent: 100 });
  });
});
