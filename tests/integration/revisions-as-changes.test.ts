import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  planStateDirty,
  planStateDirtyEdges,
  taskDependencies,
  taskRevisions,
  tasks,
} from "../../src/server/db/schema/index";
import { REVISIONS_KEPT } from "../../src/server/plan/revisions";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The plan's history stored as changes (issue 32, plan/revisions.ts): a revision holds what changed, not
 * the whole plan, and restoring any kept revision still brings the plan back exactly, across the window of
 * kept revisions, after a restore, with progress made outside revisions, and from the whole snapshots that
 * revisions saved before the change.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const user = await registerUser(client);
  return { client, userId: user.user.id as string };
}

/** What a restore brings back, read from the rows: every task's place and content, and the dependencies. */
async function stateOf(rootId: string) {
  const rows = await server.deps.db
    .select({
      id: tasks.id,
      parent: tasks.parentId,
      position: tasks.position,
      depth: tasks.depth,
      description: tasks.description,
      points: tasks.storyPoints,
    })
    .from(tasks)
    .where(sql`${tasks.id} = ${rootId} or ${tasks.rootTaskId} = ${rootId}`);
  const deps = await server.deps.db
    .select({ task: taskDependencies.taskId, on: taskDependencies.dependsOnId })
    .from(taskDependencies)
    .where(eq(taskDependencies.rootTaskId, rootId));
  return {
    tasks: rows.sort((a, b) => a.id.localeCompare(b.id)),
    deps: deps.map((d) => `${d.task} -> ${d.on}`).sort(),
  };
}

/** The plan's revision rows as stored: bytes of each row's JSON text, newest first. */
async function storedBytes(rootId: string): Promise<number[]> {
  const rows = await server.deps.database.rows<{ bytes: number }>(
    sql`select octet_length(to_jsonb(r)::text) as bytes from task_revisions r
        where r.root_task_id = ${rootId} order by r.seq desc`,
  );
  return rows.map((r) => Number(r.bytes));
}

const revisionsOf = async (client: TestClient, id: string) =>
  (await client.get(`/api/tasks/${id}/revisions`)).json.revisions as { revision_id: string; kind: string }[];

const leavesOf = async (rootId: string) =>
  (
    await server.deps.db
      .select({ id: tasks.id, parent: tasks.parentId })
      .from(tasks)
      .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true)))
  ).sort((a, b) => a.id.localeCompare(b.id));

/** A revision as the code before issue 32 saved it: the whole plan as a snapshot, no changes. */
const legacy = async (rootId: string, kind: string) =>
  server.deps.database.rows<{
    id: string;
  }>(sql`insert into task_revisions (root_task_id, kind, summary, snapshot, task_count)
        select ${rootId}::uuid, ${kind}::text, 'saved before issue 32', jsonb_build_object(
          'nodes', (select jsonb_agg(jsonb_build_object(
              'id', t.id, 'parent_id', t.parent_id, 'position', t.position, 'depth', t.depth,
              'description', t.description, 'implementation_details', t.implementation_details,
              'acceptance_criteria', t.acceptance_criteria, 'requirement_ids', t.requirement_ids,
              'story_points', t.story_points, 'complexity_score', t.complexity_score,
              'estimated_hours', t.estimated_hours, 'estimate_low_hours', t.estimate_low_hours,
              'estimate_high_hours', t.estimate_high_hours, 'estimate_source', t.estimate_source,
              'is_atomic', t.is_atomic, 'status', t.status, 'completed_at', t.completed_at,
              'edited_at', t.edited_at, 'exported_at', t.exported_at) order by t.depth, t.position)
            from tasks t where t.id = ${rootId} or t.root_task_id = ${rootId}),
          'edges', coalesce((select jsonb_agg(jsonb_build_object(
              'task_id', d.task_id, 'depends_on_id', d.depends_on_id, 'source', d.source))
            from task_dependencies d where d.root_task_id = ${rootId}), '[]'::jsonb)),
          (select count(*)::int from tasks t where t.id = ${rootId} or t.root_task_id = ${rootId})
        returning id`);

describe("history stored as changes", () => {
  it("restores the 45th-newest of 60 small edits, and the oldest kept one after it, exactly", async () => {
    const { client, userId } = await signedIn();
    // 40 nodes, siblings chained by dependencies.
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 3, plan: true });
    const states = new Map<string, Awaited<ReturnType<typeof stateOf>>>();
    const added: string[] = [];
    let removed: { task: string; on: string } | undefined;
    for (let i = 0; i < 60; i++) {
      const leaves = await leavesOf(rootId);
      const leaf = leaves[(i * 7) % leaves.length]!;
      let res: { status: number; json: Record<string, unknown> };
      switch (i % 6) {
        case 0:
          res = await client.request("PATCH", `/api/tasks/${leaf.id}`, { description: `Edit number ${i}` });
          break;
        case 1:
          res = await client.request("PATCH", `/api/tasks/${leaf.id}`, {
            story_points: [1, 2, 3, 5, 8][i % 5],
          });
          break;
        case 2:
          // Within its own parent: siblings are chained by dependencies, so another parent could close a cycle.
          res = await client.post(`/api/tasks/${leaf.id}/move`, { parent_id: leaf.parent, position: 0 });
          break;
        case 3: {
          res = await client.post(`/api/tasks/${leaf.id}/add-task`, {
            description: `Added number ${i}`,
            target_task_id: leaf.id,
            position: "after",
            auto_decompose: false,
          });
          added.push(res.json.id as string);
          break;
        }
        case 4: {
          const [dep] = await server.deps.db
            .select({ task: taskDependencies.taskId, on: taskDependencies.dependsOnId })
            .from(taskDependencies)
            .where(eq(taskDependencies.rootTaskId, rootId))
            .limit(1);
          if (removed && i % 12 === 10) {
            res = await client.post(`/api/tasks/${removed.task}/dependencies`, { depends_on: removed.on });
            removed = undefined;
          } else {
            removed = dep!;
            res = await client.request("DELETE", `/api/tasks/${dep!.task}/dependencies/${dep!.on}`);
          }
          break;
        }
        default:
          res = await client.request("DELETE", `/api/tasks/${added.shift()}/subtask`);
      }
      expect(res.status, `edit ${i}: ${JSON.stringify(res.json)}`).toBeLessThan(300);
      // Progress between edits is not a revision, and a restore keeps it.
      if (i % 5 === 0) await client.post(`/api/tasks/${leaves[(i * 3) % leaves.length]!.id}/complete`, {});
      states.set((await revisionsOf(client, rootId))[0]!.revision_id, await stateOf(rootId));
    }
    const list = await revisionsOf(client, rootId);
    expect(list).toHaveLength(REVISIONS_KEPT);
    // A revision holds the change, not the plan (a whole snapshot of these 40 tasks is over 20 KB).
    for (const bytes of await storedBytes(rootId)) expect(bytes).toBeLessThan(8_000);

    const target = list[44]!;
    // Writes outside revisions (as a decomposition's): a restore undoes them as well.
    await server.deps.db
      .update(tasks)
      .set({ description: "Changed outside revisions" })
      .where(eq(tasks.id, rootId));
    await server.deps.db.insert(tasks).values({
      userId,
      parentId: rootId,
      rootTaskId: rootId,
      depth: 1,
      position: 9,
      description: "Written outside",
    });
    const completed = await server.deps.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.rootTaskId, rootId), isNotNull(tasks.completedAt)));
    expect(
      (await client.post(`/api/tasks/${rootId}/revisions/${target.revision_id}/restore`, {})).status,
    ).toBe(200);
    expect(await stateOf(rootId)).toEqual(states.get(target.revision_id));
    const stillCompleted = await server.deps.db
      .select({ id: tasks.id, status: tasks.status })
      .from(tasks)
      .where(
        sql`${tasks.id} in (${sql.join(
          completed.map((c) => sql`${c.id}`),
          sql`, `,
        )})`,
      );
    for (const t of stillCompleted) expect(t.status).toBe("completed");

    // After the restore, the oldest kept revision and a recent one still come back exactly.
    const after = await revisionsOf(client, rootId);
    expect(after[0]!.kind).toBe("restore");
    states.set(after[0]!.revision_id, await stateOf(rootId));
    for (const again of [after[REVISIONS_KEPT - 1]!, after[3]!]) {
      expect(
        (await client.post(`/api/tasks/${rootId}/revisions/${again.revision_id}/restore`, {})).status,
      ).toBe(200);
      expect(await stateOf(rootId)).toEqual(states.get(again.revision_id));
    }
    // Restoring the first restore brings the 45th-newest back again.
    expect(
      (await client.post(`/api/tasks/${rootId}/revisions/${after[0]!.revision_id}/restore`, {})).status,
    ).toBe(200);
    expect(await stateOf(rootId)).toEqual(states.get(target.revision_id));
  }, 120_000);

  it("stores a small PATCH on a 2,801-node plan in a few KB, not the whole plan", async () => {
    const { client, userId } = await signedIn();
    const { rootId, count } = await seedTree(server.deps.database, userId, { plan: true });
    expect(count).toBe(2801);
    const [leaf] = await leavesOf(rootId);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 5 })).status).toBe(200);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { description: "Renamed" })).status).toBe(
      200,
    );
    const bytes = await storedBytes(rootId);
    expect(bytes).toHaveLength(3); // two edits and the baseline
    // Today's snapshot per revision was about 1.5 MB of JSON here.
    for (const b of bytes) expect(b).toBeLessThan(20_000);
    const list = await revisionsOf(client, rootId);
    expect(list.map((r) => r.kind)).toEqual(["edit", "edit", "baseline"]);
    expect((await client.get(`/api/tasks/${rootId}/revisions`)).json.revisions[2].tasks).toBe(2801);
    const before = await stateOf(rootId);
    await client.post(`/api/tasks/${rootId}/revisions/${list[2]!.revision_id}/restore`, {});
    const back = await stateOf(rootId);
    expect(back.tasks.find((t) => t.id === leaf!.id)!.description).not.toBe("Renamed");
    expect(back.tasks).toHaveLength(before.tasks.length);
    expect(back.deps).toEqual(before.deps);
  });

  it("restores revisions saved as whole snapshots before the change, and newer ones after them", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const [leaf, other] = await leavesOf(rootId);
    // Two revisions as the earlier code saved them.
    const [baseline] = await legacy(rootId, "baseline");
    const s0 = await stateOf(rootId);
    await server.deps.db
      .update(tasks)
      .set({ description: "Changed by the old code" })
      .where(eq(tasks.id, leaf!.id));
    await server.deps.db.delete(tasks).where(eq(tasks.id, other!.id));
    const [edit] = await legacy(rootId, "edit");
    const s1 = await stateOf(rootId);
    // The migration's own statements start the plan's state from its newest snapshot.
    const file = readdirSync(path.resolve("drizzle")).find((f) => f.endsWith("_revisions_as_changes.sql"))!;
    for (const statement of readFileSync(path.resolve("drizzle", file), "utf8").split(
      "--> statement-breakpoint",
    )) {
      if (statement.includes('INSERT INTO "plan_state_')) await server.deps.database.rows(sql.raw(statement));
    }
    expect(
      (await client.request("PATCH", `/api/tasks/${leaf!.id}`, { description: "New code edit" })).status,
    ).toBe(200);
    const [newer] = await revisionsOf(client, rootId);
    const s2 = await stateOf(rootId);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 13 })).status).toBe(200);
    // The new revisions hold only what changed.
    const bytes = await storedBytes(rootId);
    expect(bytes[0]).toBeLessThan(bytes[2]! / 2);

    await client.post(`/api/tasks/${rootId}/revisions/${baseline!.id}/restore`, {});
    expect(await stateOf(rootId)).toEqual(s0);
    await client.post(`/api/tasks/${rootId}/revisions/${newer!.revision_id}/restore`, {});
    expect(await stateOf(rootId)).toEqual(s2);
    await client.post(`/api/tasks/${rootId}/revisions/${edit!.id}/restore`, {});
    expect(await stateOf(rootId)).toEqual(s1);
  });

  it("starts the kept state from the newest snapshot when a plan has only revisions saved before the change", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const [leaf] = await leavesOf(rootId);
    const [baseline] = await legacy(rootId, "baseline");
    const s0 = await stateOf(rootId);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 13 })).status).toBe(200);
    const [edit] = await revisionsOf(client, rootId);
    const s1 = await stateOf(rootId);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { description: "Later" })).status).toBe(
      200,
    );
    expect((await storedBytes(rootId))[0]).toBeLessThan(2_000);
    await client.post(`/api/tasks/${rootId}/revisions/${edit!.revision_id}/restore`, {});
    expect(await stateOf(rootId)).toEqual(s1);
    await client.post(`/api/tasks/${rootId}/revisions/${baseline!.id}/restore`, {});
    expect(await stateOf(rootId)).toEqual(s0);
  });

  it("compares only the tasks whose kept fields changed, whoever changed them, and nothing for plans with no history", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const [leaf, other, third] = await leavesOf(rootId);
    const marked = async (root: string) =>
      (
        await server.deps.db
          .select({ id: planStateDirty.taskId })
          .from(planStateDirty)
          .where(eq(planStateDirty.rootTaskId, root))
      )
        .map((r) => r.id)
        .sort();
    // Progress on a plan with no history yet marks nothing (its first revision starts from the rows).
    expect((await client.post(`/api/tasks/${third!.id}/complete`, {})).status).toBe(200);
    expect(await marked(rootId)).toEqual([]);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 8 })).status).toBe(200);
    expect(await marked(rootId)).toEqual([]);
    // A write to a field a revision does not keep marks nothing; progress, and a write from anywhere, do.
    await server.deps.db.update(tasks).set({ updatedAt: new Date() }).where(eq(tasks.rootTaskId, rootId));
    expect(await marked(rootId)).toEqual([]);
    expect((await client.post(`/api/tasks/${other!.id}/complete`, {})).status).toBe(200);
    await server.deps.db.update(tasks).set({ description: "Written outside" }).where(eq(tasks.id, third!.id));
    expect(await marked(rootId)).toEqual([other!.id, third!.id].sort());
    // The next revision holds the edit and what changed outside revisions, and clears the marks.
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 3 })).status).toBe(200);
    expect(await marked(rootId)).toEqual([]);
    const [newest] = await server.deps.db
      .select({ changes: taskRevisions.changes })
      .from(taskRevisions)
      .where(eq(taskRevisions.rootTaskId, rootId))
      .orderBy(sql`${taskRevisions.seq} desc`)
      .limit(1);
    const changed = newest!.changes!.nodes;
    expect(changed.map((c) => c.id).sort()).toEqual([leaf!.id, other!.id, third!.id].sort());
    expect(changed.find((c) => c.id === other!.id)!.after!.status).toBe("completed");
    expect(changed.find((c) => c.id === third!.id)!.after!.description).toBe("Written outside");
    // A dependency written outside revisions marks its task, and the next revision holds it (on a leaf of
    // another family: the seed chains only siblings, so the pair is new).
    const far = (await leavesOf(rootId)).find((l) => l.parent !== other!.parent)!;
    await server.deps.db
      .insert(taskDependencies)
      .values({ taskId: other!.id, dependsOnId: far.id, rootTaskId: rootId, source: "person" });
    const markedEdges = await server.deps.db
      .select({ id: planStateDirtyEdges.taskId })
      .from(planStateDirtyEdges)
      .where(eq(planStateDirtyEdges.rootTaskId, rootId));
    expect(markedEdges.map((m) => m.id)).toEqual([other!.id]);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 2 })).status).toBe(200);
    const [withEdge] = await server.deps.db
      .select({ changes: taskRevisions.changes })
      .from(taskRevisions)
      .where(eq(taskRevisions.rootTaskId, rootId))
      .orderBy(sql`${taskRevisions.seq} desc`)
      .limit(1);
    expect(withEdge!.changes!.edges).toEqual([
      { task_id: other!.id, depends_on_id: far.id, source: "person", op: "added" },
    ]);
    expect(
      await server.deps.db
        .select()
        .from(planStateDirtyEdges)
        .where(eq(planStateDirtyEdges.rootTaskId, rootId)),
    ).toEqual([]);
    // A deleted task is marked, and its revision removes it from the kept state.
    await server.deps.db.delete(tasks).where(eq(tasks.id, third!.id));
    expect(await marked(rootId)).toEqual([third!.id]);
    expect((await client.request("PATCH", `/api/tasks/${leaf!.id}`, { story_points: 5 })).status).toBe(200);
    const [gone] = await server.deps.db
      .select({ changes: taskRevisions.changes })
      .from(taskRevisions)
      .where(eq(taskRevisions.rootTaskId, rootId))
      .orderBy(sql`${taskRevisions.seq} desc`)
      .limit(1);
    expect(gone!.changes!.nodes.find((c) => c.id === third!.id)).toMatchObject({ after: null });
  });
});
