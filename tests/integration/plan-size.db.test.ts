/**
 * Issue 39, item 1: PLAN_MAX_NODES caps every path that adds tasks to a plan. Past it the change is refused
 * with 422 naming the limit and nothing is written; a coding agent's steps say how many more it may take;
 * the engine's own splits stop at it, flagging the node that could not be split.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

const LIMIT = 10;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PLAN_MAX_NODES: String(LIMIT), REGISTRATIONS_PER_IP_PER_HOUR: "100" });
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  return { client, userId: user.id as string };
}

const sizeOf = async (client: TestClient, rootId: string) =>
  flatten((await client.get(`/api/tasks/${rootId}/tree`)).json as TreeNode).length;

describe("a plan's size limit", () => {
  it("refuses a task added past it with 422 naming the limit, and writes nothing", async () => {
    const { client, userId } = await signedIn();
    // 1 + 2 + 4 = 7 tasks.
    const { rootId } = await seedTree(server.deps.database, userId, { fanout: 2, depth: 2 });
    for (let n = 7; n < LIMIT; n++) {
      const added = await client.post(`/api/tasks/${rootId}/add-task`, {
        description: `Extra ${n}`,
        position: "child",
        auto_decompose: false,
      });
      expect(added.status).toBe(201);
    }
    expect(await sizeOf(client, rootId)).toBe(LIMIT);
    const refused = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "One too many",
      position: "child",
      auto_decompose: false,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toMatch(/at most 10 tasks \(PLAN_MAX_NODES\)/);
    expect(await sizeOf(client, rootId)).toBe(LIMIT);
  });

  it("tells a coding agent how many steps are left, and refuses the answer that would pass it", async () => {
    const { client } = await signedIn();
    const token = (await client.post("/api/tokens", { name: "agent", scope: "write", expires_in_days: 30 }))
      .json.token as string;
    const agent = await connectMcp(server.url, token);
    try {
      const made = await callTool<{ id: string; step: { node_id: string; remaining: { at_most: number } } }>(
        agent,
        "create_project",
        {
          description: "A book club site\n- Members propose books\n- Members vote",
          planner: "agent",
          max_depth: 3,
        },
      );
      // The project is 1 task: at most 9 more steps, whatever the depth would allow.
      expect(made.step.remaining.at_most).toBeLessThanOrEqual(LIMIT - 1);
      const subtask = (i: number) => ({
        description: `Part ${i}`,
        complexity_score: 7,
        story_points: 13,
        implementation_details: "Where it goes.",
        acceptance_criteria: ["It works", "A test covers it"],
        requirement_ids: [],
        estimated_hours: 40,
        atomic: false,
      });
      // 7 subtasks (the project's max_subtasks) make 8 tasks; the next step's 7 would make 15.
      const first = await callTool<{ next: { node_id: string; remaining: { at_most: number } } }>(
        agent,
        "submit_subtasks",
        {
          node_id: made.step.node_id,
          assessment: { complexity_score: 5, story_points: 8, rationale: "Two features." },
          subtasks: Array.from({ length: 7 }, (_, i) => subtask(i + 1)),
        },
      );
      expect(first.next.remaining.at_most).toBeLessThanOrEqual(LIMIT - 8);
      const message = await toolError(agent, "submit_subtasks", {
        node_id: first.next.node_id,
        subtasks: Array.from({ length: 7 }, (_, i) => subtask(i + 1)),
      });
      expect(message).toMatch(/PLAN_MAX_NODES/);
      expect(await sizeOf(client, made.id)).toBe(8);
    } finally {
      await agent.close();
    }
  });

  it("stops the engine's own splits at it: the plan ends within the limit, the node it could not split flagged", async () => {
    const { client } = await signedIn();
    const created = await client.post("/api/tasks", {
      description: [
        "A team tool",
        "- Staff book rooms",
        "- Staff cancel bookings",
        "- Admins export reports",
        "- Admins manage rooms",
        "- Staff see a calendar",
      ].join("\n"),
      max_depth: 3,
      complexity_threshold: 0,
    });
    expect(created.status).toBe(201);
    await waitForStatus(client, created.json.id, ["completed", "failed"], 60_000);
    const nodes = flatten(
      (await client.get(`/api/tasks/${created.json.id}/tree`)).json as TreeNode,
    ) as (TreeNode & {
      needs_attention: boolean;
      attention_reason: string | null;
    })[];
    expect(nodes.length).toBeLessThanOrEqual(LIMIT);
    const flagged = nodes.filter((n) => n.needs_attention).map((n) => n.attention_reason);
    expect(flagged, JSON.stringify(flagged)).toContainEqual(expect.stringMatching(/PLAN_MAX_NODES/));
  });
});
