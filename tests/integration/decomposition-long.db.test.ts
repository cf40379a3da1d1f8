/**
 * Issue 38, item 1 (decision 033): no plan fails on valid input. Long descriptions, planned by the
 * offline planner through the real server, complete with no subtask needing attention; Restart and
 * re-plan complete too. A step that fails for a reason of ours reads as a sentence, not a dump.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Planner } from "../../src/server/engine/planners/contract";
import { plannedSubtask } from "../../src/shared/schemas/plan";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { corpusTexts, externalTexts, type LongText, syntheticTexts } from "../support/long-descriptions";
import { startTestServer, type TestServer } from "../support/server";
import { waitUntil } from "../support/wait";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

type Node = TreeNode & {
  needs_attention: boolean;
  attention_reason: string | null;
  requirement_ids: string[];
};

async function signedIn() {
  const client = new TestClient(server.url);
  await registerUser(client);
  return client;
}

const treeOf = async (client: TestClient, id: string) =>
  flatten((await client.get(`/api/tasks/${id}/tree`)).json as TreeNode) as Node[];

/** Plans `text` through POST /api/tasks and expects a completed plan with nothing needing attention. */
async function expectCompleted(client: TestClient, id: string, what: string) {
  const task = await waitForStatus(client, id, ["completed", "failed"], 120_000);
  expect(task.failure_reason, what).toBeNull();
  expect(task.status, what).toBe("completed");
  const nodes = await treeOf(client, id);
  expect(
    nodes.filter((n) => n.needs_attention).map((n) => `${n.description}: ${n.attention_reason}`),
    what,
  ).toEqual([]);
  return nodes;
}

async function planAndRestart(client: TestClient, text: LongText) {
  const created = await client.post("/api/tasks", { description: text.description });
  expect(created.status, text.name).toBe(201);
  const nodes = await expectCompleted(client, created.json.id, text.name);
  // A description stating more than the old 50-id cap has groups citing more than 50 ids.
  const restarted = await client.post(`/api/tasks/${created.json.id}/restart-decomposition`, {});
  expect(restarted.status, text.name).toBe(200);
  const again = await expectCompleted(client, created.json.id, `${text.name}, restarted`);
  expect(again.length).toBe(nodes.length);
  // The plan as it is now: Restart planned it again, with new subtasks.
  return { id: created.json.id as string, nodes: again };
}

const longest = (texts: LongText[]) => texts.find((t) => !t.name.endsWith("all joined"))!;
const joined = (texts: LongText[]) => texts.find((t) => t.name.endsWith("all joined"))!;

describe("long descriptions plan through the server", () => {
  it("plans the external corpus' longest text and all of it joined to the limit, and restarts them", async () => {
    const client = await signedIn();
    const external = externalTexts();
    await planAndRestart(client, longest(external));
    const { nodes } = await planAndRestart(client, joined(external));
    expect(Math.max(...nodes.map((n) => n.requirement_ids.length))).toBeGreaterThan(50);
  }, 300_000);

  it("plans the project corpus joined to the limit and a 900-item list, restarts and re-plans them", async () => {
    const client = await signedIn();
    const { id } = await planAndRestart(client, joined(corpusTexts()));
    const list = syntheticTexts().find((t) => t.name === "bullets to the limit")!;
    const { nodes } = await planAndRestart(client, list);
    // Re-planning the whole plan, and a group citing more than 50 requirements, proposes without failing.
    const replanned = await client.post(`/api/tasks/${id}/replan`, {});
    expect(replanned.status).toBe(200);
    const group = nodes.find((n) => n.depth === 1 && n.requirement_ids.length > 50)!;
    expect(group).toBeDefined();
    const more = await client.post(`/api/tasks/${group.id}/replan`, { guidance: "more detail" });
    expect(more.status).toBe(200);
  }, 300_000);
});

describe("a step that fails for a reason of ours", () => {
  it("reads as a sentence, for the plan and for a subtask", async () => {
    const planners = server.deps.planners;
    const forUser = planners.forUser;
    /** The outline, except that its answers break the plan's schema where `broken` says. */
    const breaking =
      (broken: (depth: number) => boolean) =>
      async (...args: Parameters<typeof forUser>): Promise<Planner> => {
        const real = await forUser(...args);
        return {
          ...real,
          async splitTask(request, signal) {
            if (!broken(request.depth)) return real.splitTask(request, signal);
            // What a planner with a bug would return: six acceptance criteria, parsed as a planner parses.
            const subtask = plannedSubtask.parse({
              description: `Part of ${request.task.description}`,
              complexity_score: 3,
              story_points: 2,
              implementation_details: "How.",
              acceptance_criteria: Array(6).fill("Done"),
              requirement_ids: [],
              estimated_hours: 4,
            });
            return { value: [subtask], usage: { calls: 1, promptTokens: 0, completionTokens: 0 } };
          },
        };
      };
    const client = await signedIn();
    const description =
      "Team tool\n\n- Staff can book rooms\n- Staff can cancel bookings\n- Admins can export reports";
    try {
      planners.forUser = breaking((depth) => depth === 0);
      const failed = await client.post("/api/tasks", { description });
      const task = await waitForStatus(client, failed.json.id, ["failed", "completed"]);
      expect(task.status).toBe("failed");
      expect(task.failure_reason).toBe(
        "The planner's answer for this step did not fit the plan's rules (too many acceptance criteria). Use Restart to try again.",
      );

      planners.forUser = breaking((depth) => depth === 1);
      const flagged = await client.post("/api/tasks", { description, complexity_threshold: 0 });
      const plan = await waitForStatus(client, flagged.json.id, ["failed", "completed"]);
      expect(plan.status).toBe("completed");
      const nodes = await waitUntil(
        async () => {
          const found = (await treeOf(client, flagged.json.id)).filter((n) => n.needs_attention);
          return found.length > 0 && found;
        },
        { message: "a subtask flagged" },
      );
      for (const n of nodes)
        expect(n.attention_reason).toBe(
          "The planner's answer for this subtask did not fit the plan's rules (too many acceptance criteria). Restart its decomposition to try again.",
        );
    } finally {
      planners.forUser = forUser;
    }
  });
});
