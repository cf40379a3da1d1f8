import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS_ENABLED: "false", REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

async function signedIn() {
  const tab = new TestClient(server.url);
  const reg = await registerUser(tab);
  return { trpc: trpcHttp(tab), user: reg.user };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCClientError) return (e.data as { code: string }).code;
    throw e;
  }
  return "OK";
}

describe("tasks over tRPC (the SPA's path), same services as /api", () => {
  it("runs every procedure end to end", async () => {
    const { trpc } = await signedIn();
    const created = await trpc.tasks.create.mutate({
      description: "Plan a mobile habit tracker",
      tech_preferences: { application_type: "mobile-application", tech_stack_id: "flutter-firebase" },
    });
    expect(created).toMatchObject({ status: "pending", total_subtasks: 0 });
    expect(created.created_at).toEqual(expect.any(String));

    const list = await trpc.tasks.list.query({ page: 1, page_size: 9, top_level_only: true });
    expect(list.total).toBe(1);
    // Not planned yet: the task is its own one leaf, not done.
    expect(list.tasks[0]!.progress).toEqual({ leaves_done: 0, leaves_total: 1, percent: 0 });
    expect(await trpc.tasks.stats.query()).toMatchObject({ total: 1, pending: 1 });
    // The offline planner costs nothing: it does not count toward the monthly limit (issue 40).
    expect(await trpc.tasks.usage.query()).toMatchObject({ used: 0, limit: 10, counts_now: false });
    expect(list.tasks[0]).toMatchObject({ plan_state: "queued", work_state: "not_started" });
    expect((await trpc.tasks.get.query({ id: created.id })).description).toBe("Plan a mobile habit tracker");

    const child = await trpc.tasks.addTask.mutate({
      id: created.id,
      task: { description: "Design the streak screen", position: "child", auto_decompose: false },
    });
    const sibling = await trpc.tasks.addTask.mutate({
      id: child.id,
      task: { description: "Set up push reminders", position: "before" },
    });
    const tree = await trpc.tasks.tree.query({ id: created.id });
    expect(tree.children.map((c) => c.id)).toEqual([sibling.id, child.id]);
    expect(tree.total_subtasks).toBe(2);

    const updated = await trpc.tasks.update.mutate({
      id: child.id,
      updates: { status: "in_progress", is_atomic: true },
    });
    expect(updated).toMatchObject({ status: "in_progress", is_atomic: true });
    expect((await trpc.tasks.complete.mutate({ id: child.id })).status).toBe("completed");
    const em = await trpc.tasks.updateEventModel.mutate({ id: created.id, event_model_markdown: "# Habits" });
    expect(em.event_model_markdown).toBe("# Habits");
    expect((await trpc.tasks.deleteSubtask.mutate({ id: sibling.id })).deleted).toBe(1);
    expect(await codeOf(trpc.tasks.deleteSubtask.mutate({ id: created.id }))).toBe("BAD_REQUEST");
    const restarted = await trpc.tasks.restartDecomposition.mutate({ id: created.id });
    expect(restarted).toMatchObject({ status: "pending", total_subtasks: 0, metadata: null });
    expect((await trpc.tasks.delete.mutate({ id: created.id })).deleted).toBe(1);
    expect(await codeOf(trpc.tasks.get.query({ id: created.id }))).toBe("NOT_FOUND");
  });

  it("validates inputs with the shared schemas", async () => {
    const { trpc } = await signedIn();
    expect(await codeOf(trpc.tasks.create.mutate({ description: "   " }))).toBe("BAD_REQUEST");
    expect(await codeOf(trpc.tasks.list.query({ page: 0 }))).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for another user's task and UNAUTHORIZED without a session", async () => {
    const owner = await signedIn();
    const { rootId } = await seedTree(server.deps.database, owner.user.id, { fanout: 2, depth: 1 });
    const other = await signedIn();
    const probes = [
      other.trpc.tasks.get.query({ id: rootId }),
      other.trpc.tasks.tree.query({ id: rootId }),
      other.trpc.tasks.update.mutate({ id: rootId, updates: { status: "completed" } }),
      other.trpc.tasks.complete.mutate({ id: rootId }),
      other.trpc.tasks.delete.mutate({ id: rootId }),
      other.trpc.tasks.restartDecomposition.mutate({ id: rootId }),
      other.trpc.tasks.updateEventModel.mutate({ id: rootId, event_model_markdown: "x" }),
      other.trpc.tasks.addTask.mutate({ id: rootId, task: { description: "x", position: "child" } }),
    ];
    // Every probe gets its handler at once: a later one may fail while an earlier one is still awaited.
    const codes = await Promise.all(probes.map(codeOf));
    expect(codes).toEqual(probes.map(() => "NOT_FOUND"));
    const anon = trpcHttp(new TestClient(server.url));
    expect(await codeOf(anon.tasks.list.query())).toBe("UNAUTHORIZED");
    expect((await owner.trpc.tasks.tree.query({ id: rootId })).total_subtasks).toBe(2);
  });
});
