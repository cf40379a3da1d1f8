import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../src/server/db/schema/index";
import { workingHours } from "../../src/shared/actuals";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Forecasts that learn from what happened (issue 33): actuals recorded on leaves (started, completed,
 * hours, entered or measured), the forecast calibrated on them (evidence-based scheduling) unless asked
 * not to be, the burn-up and accuracy figures, and what changed since a date; over /api and MCP.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS_ENABLED: "false", REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, userId: reg.user.id as string };
}

/** The plan's pending leaves, in tree order, with their likely hours. */
async function pendingLeaves(rootId: string) {
  return server.deps.db
    .select({ id: tasks.id, likely: tasks.estimatedHours, parent: tasks.parentId })
    .from(tasks)
    .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true), eq(tasks.status, "pending")))
    .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.id));
}

describe("actuals", () => {
  it("stamps the start and the finish, measures the working time, and keeps hours a person entered", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const [a, b] = await pendingLeaves(rootId);

    const started = await client.request("PATCH", `/api/tasks/${a!.id}`, { status: "in_progress" });
    expect(started.status).toBe(200);
    expect(started.json.started_at).toEqual(expect.any(String));
    expect(started.json.actual_hours).toBeNull();
    // Moving it again keeps its first start.
    await client.request("PATCH", `/api/tasks/${a!.id}`, { status: "pending" });
    const again = await client.request("PATCH", `/api/tasks/${a!.id}`, { status: "in_progress" });
    expect(again.json.started_at).toBe(started.json.started_at);

    // Started three hours ago: completing it takes the working time since then.
    await server.deps.db
      .update(tasks)
      .set({ startedAt: sql`now() - interval '3 hours'` })
      .where(eq(tasks.id, a!.id));
    const done = await client.request("PATCH", `/api/tasks/${a!.id}`, { status: "completed" });
    expect(done.status).toBe(200);
    const measured = workingHours(new Date(done.json.started_at), new Date(done.json.completed_at));
    expect(done.json.actual_hours).toBe(measured === null ? null : Math.min(measured, 4 * 4));
    expect(done.json.actual_source).toBe(measured === null ? null : "working_time");
    // Reopened, the measurement goes; the start stays.
    const reopened = await client.request("PATCH", `/api/tasks/${a!.id}`, { status: "pending" });
    expect(reopened.json).toMatchObject({ actual_hours: null, completed_at: null });
    expect(reopened.json.started_at).toBe(done.json.started_at);

    // Hours entered with or without a status change are the person's, and survive completion and reopening.
    const entered = await client.request("PATCH", `/api/tasks/${b!.id}`, {
      status: "completed",
      actual_hours: 7.5,
    });
    expect(entered.json).toMatchObject({ status: "completed", actual_hours: 7.5, actual_source: "person" });
    expect(entered.json.completed_at).toEqual(expect.any(String));
    await client.request("PATCH", `/api/tasks/${b!.id}`, { status: "pending" });
    const kept = await client.request("PATCH", `/api/tasks/${b!.id}`, { status: "completed" });
    expect(kept.json).toMatchObject({ actual_hours: 7.5, actual_source: "person" });
    const edited = await client.request("PATCH", `/api/tasks/${b!.id}`, { actual_hours: 0 });
    expect(edited.json).toMatchObject({ actual_hours: 0, actual_source: "person", status: "completed" });

    // Progress, not a plan edit: no revision, no lock.
    expect((await client.get(`/api/tasks/${rootId}/revisions`)).json.revisions).toHaveLength(0);
    expect(edited.json.locked).not.toContain("edited");

    // The tree carries the actuals (what the side panel and the exports show).
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    const node = tree.children
      .flatMap((c: { children: unknown[] }) => c.children)
      .find((n: { id: string }) => n.id === b!.id);
    expect(node).toMatchObject({ actual_hours: 0, actual_source: "person" });
  });

  it("refuses bad hours and hours on a parent with a 422 that names the field, changing nothing", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 2, depth: 2, plan: true });
    const [leaf] = await pendingLeaves(rootId);
    // 1e-320 and Number.MIN_VALUE underflow PostgreSQL's real (issue 39): refused, never a 500.
    for (const bad of [-1, 501, "six", true, 1e-320, Number.MIN_VALUE, 0.001]) {
      const res = await client.request("PATCH", `/api/tasks/${leaf!.id}`, { actual_hours: bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(JSON.stringify(res.json)).toContain("actual_hours");
    }
    for (const low of [1e-320, Number.MIN_VALUE]) {
      const res = await client.request("PATCH", `/api/tasks/${leaf!.id}`, {
        estimate_hours: { low, likely: 2, high: 3 },
      });
      expect(res.status, String(low)).toBe(422);
      expect(JSON.stringify(res.json)).toMatch(/low must be 0 or at least 0.01 hours/);
    }
    const parent = await client.request("PATCH", `/api/tasks/${leaf!.parent}`, { actual_hours: 3 });
    expect(parent.status).toBe(422);
    expect(parent.json.detail).toMatch(/without subtasks/);
    const [row] = await server.deps.db.select().from(tasks).where(eq(tasks.id, leaf!.parent!));
    expect(row!.actualHours).toBeNull();
    // Another user's task is not found.
    const other = await signedIn();
    expect((await other.client.request("PATCH", `/api/tasks/${leaf!.id}`, { actual_hours: 3 })).status).toBe(
      404,
    );
  });

  it("takes hours from MCP's set_task_status and says them back", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 2, depth: 2, plan: true });
    const [leaf] = await pendingLeaves(rootId);
    const token = (await client.post("/api/tokens", { name: "agent", scope: "write", expires_in_days: 30 }))
      .json.token as string;
    const agent = await connectMcp(server.url, token);
    try {
      const change = await callTool(agent, "set_task_status", {
        task_id: leaf!.id,
        status: "completed",
        actual_hours: 2.5,
      });
      expect(change.actual_hours).toBe(2.5);
      expect(
        await toolError(agent, "set_task_status", {
          task_id: leaf!.id,
          status: "completed",
          actual_hours: 1e-320,
        }),
      ).toMatch(/actual_hours must be 0 or at least 0.01 hours/);
      const [row] = await server.deps.db.select().from(tasks).where(eq(tasks.id, leaf!.id));
      expect(row).toMatchObject({ actualHours: 2.5, actualSource: "person", status: "completed" });
    } finally {
      await agent.close();
    }
  });
});

describe("calibrated forecast", () => {
  it("forecasts the rest about twice as long once 5 leaves took twice their estimate, and calibrate=false undoes it", async () => {
    const { client, userId } = await signedIn();
    // 64 leaves of 2-8 likely hours.
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 4, depth: 3, plan: true });
    const schedule = async (query = "") =>
      (await client.get(`/api/tasks/${rootId}/schedule?team_size=2${query}`)).json;
    const before = await schedule();
    expect(before.calibration).toMatchObject({ applied: false, scope: "none", samples: 0 });

    const leaves = await pendingLeaves(rootId);
    for (const leaf of leaves.slice(0, 4)) {
      await client.request("PATCH", `/api/tasks/${leaf.id}`, {
        status: "completed",
        actual_hours: 2 * leaf.likely!,
      });
    }
    // Four are not enough.
    expect((await schedule()).calibration).toMatchObject({ applied: false, scope: "none", samples: 0 });
    expect((await schedule()).calibration.plan.samples).toBe(4);

    const fifth = leaves[4]!;
    await client.request("PATCH", `/api/tasks/${fifth.id}`, {
      status: "completed",
      actual_hours: 2 * fifth.likely!,
    });
    const calibrated = await schedule();
    expect(calibrated.calibration).toMatchObject({
      applied: true,
      scope: "plan",
      samples: 5,
      ratio_p50: 2,
      by_source: { rule: { samples: 5, ratio_p50: 2 } },
    });
    const plain = await schedule("&calibrate=false");
    expect(plain.calibration).toMatchObject({ applied: false, scope: "plan", samples: 5 });
    const ratio = calibrated.forecast.p50_days / plain.forecast.p50_days;
    expect(ratio).toBeGreaterThan(1.8);
    expect(ratio).toBeLessThan(2.2);
    expect(calibrated.forecast.p90_days / plain.forecast.p90_days).toBeGreaterThan(1.8);
    // The uncalibrated figure is the plan's ranges alone: what it was, less the five finished leaves.
    expect(plain.forecast.p50_days).toBeLessThanOrEqual(before.forecast.p50_days);
    // The distribution of finishes covers every run.
    const runs = calibrated.forecast.distribution.reduce((n: number, b: { runs: number }) => n + b.runs, 0);
    expect(runs).toBe(calibrated.forecast.simulations);
    expect(calibrated.forecast.distribution.length).toBeLessThanOrEqual(31);

    // What a coding agent reads (MCP get_plan, GET /outline): the same calibrated forecast for one person.
    const outline = (await client.get(`/api/tasks/${rootId}/outline`)).json;
    expect(outline.forecast).toEqual({
      team_size: 1,
      p50_days: (await client.get(`/api/tasks/${rootId}/schedule?team_size=1`)).json.forecast.p50_days,
      p90_days: expect.any(Number),
      calibration: "Forecast calibrated on 5 finished tasks: yours take 2× their estimate.",
    });

    // The owner's next plan, with no history of its own, learns from this one.
    const next = await seedTree(server.deps.database, userId, { fanout: 2, depth: 2, plan: true });
    const second = (await client.get(`/api/tasks/${next.rootId}/schedule`)).json;
    expect(second.calibration).toMatchObject({ applied: true, scope: "user", samples: 5, ratio_p50: 2 });
    // Another user's forecast is their own.
    const other = await signedIn();
    const theirs = await seedTree(server.deps.database, other.userId, { fanout: 2, depth: 2, plan: true });
    expect((await other.client.get(`/api/tasks/${theirs.rootId}/schedule`)).json.calibration.samples).toBe(0);
    expect((await client.get(`/api/tasks/${rootId}/schedule?calibrate=maybe`)).status).toBe(422);
  });
});

describe("pictures and history", () => {
  it("gives the burn-up and the accuracy by source, only to the owner", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const leaves = await pendingLeaves(rootId);
    await client.request("PATCH", `/api/tasks/${leaves[0]!.id}`, { status: "completed", actual_hours: 3 });
    await client.request("PATCH", `/api/tasks/${leaves[1]!.id}`, {
      estimate_hours: { low: 1, likely: 2, high: 4 },
    });
    await client.request("PATCH", `/api/tasks/${leaves[1]!.id}`, { status: "completed", actual_hours: 5 });
    const res = await client.get(`/api/tasks/${leaves[2]!.id}/actuals`);
    expect(res.status).toBe(200);
    expect(res.json.task_id).toBe(leaves[2]!.id);
    const today = new Date().toISOString().slice(0, 10);
    const last = res.json.burn_up.at(-1);
    expect(last).toMatchObject({ date: today, scope_leaves: 9, done_leaves: 2 });
    expect(last.done_hours).toBe(leaves[0]!.likely! + 2);
    expect(res.json.accuracy).toHaveLength(2);
    expect(res.json.accuracy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          task_id: leaves[1]!.id,
          source: "person",
          estimate_hours: 2,
          actual_hours: 5,
        }),
        expect.objectContaining({ task_id: leaves[0]!.id, source: "rule", actual_hours: 3 }),
      ]),
    );
    expect(res.json.by_source.person).toEqual({ samples: 1, ratio_p50: 2.5 });
    const other = await signedIn();
    expect((await other.client.get(`/api/tasks/${rootId}/actuals`)).status).toBe(404);
    expect((await client.get(`/api/tasks/not-an-id/actuals`)).status).toBe(404);
  });

  it("says what was added, removed and re-estimated since a date, from the history", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 3, depth: 2, plan: true });
    const [a, b] = await pendingLeaves(rootId);
    const added = await client.post(`/api/tasks/${a!.id}/add-task`, {
      description: "Rate limit the login form",
      target_task_id: a!.id,
      position: "after",
      auto_decompose: false,
    });
    expect(added.status).toBe(201);
    await client.request("PATCH", `/api/tasks/${a!.id}`, {
      estimate_hours: { low: 8, likely: 10, high: 20 },
    });
    await client.request("DELETE", `/api/tasks/${b!.id}/subtask`);
    const today = new Date().toISOString().slice(0, 10);
    const res = await client.get(`/api/tasks/${rootId}/scope-changes?since=${today}`);
    expect(res.status).toBe(200);
    expect(res.json.complete).toBe(true);
    expect(res.json.added.map((t: { title: string }) => t.title)).toEqual(["Rate limit the login form"]);
    expect(res.json.removed.map((t: { id: string }) => t.id)).toEqual([b!.id]);
    expect(res.json.re_estimated).toEqual([
      expect.objectContaining({
        id: a!.id,
        before: expect.objectContaining({ hours: a!.likely }),
        after: expect.objectContaining({ hours: 10 }),
      }),
    ]);
    expect(res.json.hours_now).toBeGreaterThan(0);
    // Tomorrow: nothing changed since.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const none = (await client.get(`/api/tasks/${rootId}/scope-changes?since=${tomorrow}`)).json;
    expect(none).toMatchObject({ added: [], removed: [], re_estimated: [] });
    expect(none.hours_before).toBe(none.hours_now);
    for (const bad of ["yesterday", "2026-13-01", "", "0000-01-01", "1900-01-01", "9999-12-31"]) {
      expect((await client.get(`/api/tasks/${rootId}/scope-changes?since=${bad}`)).status).toBe(422);
    }
    const other = await signedIn();
    expect((await other.client.get(`/api/tasks/${rootId}/scope-changes?since=${today}`)).status).toBe(404);
  });
});
