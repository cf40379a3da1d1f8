import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeChatRequest, FakeOpenAI } from "../fakes/openai";
import {
  flatten,
  startModelBackedServer,
  type TreeNode,
  waitForStatus,
  withoutDataMarkers,
} from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

// Issue 10: what a plan carries (requirements traced, acceptance criteria, estimates and their source),
// the dedup pass, atomic defined in time, and the offline planner seen through the API.

type Node = Omit<TreeNode, "children"> & {
  description: string;
  acceptance_criteria: string[];
  requirement_ids: string[];
  estimated_hours: number | null;
  estimate_source: string | null;
  stated_scope: {
    requirements: { id: string; text: string }[];
    non_goals: string[];
    constraints: string[];
    planned_as: { kind: string; label: string; because: string[] };
  } | null;
  children: Node[];
};

async function signedIn(server: TestServer) {
  const client = new TestClient(server.url);
  await registerUser(client);
  return client;
}

async function plan(client: TestClient, body: Record<string, unknown>) {
  const created = await client.post("/api/tasks", body);
  expect(created.status).toBe(201);
  const task = await waitForStatus(client, created.json.id, ["completed", "failed"], 40_000);
  const tree = (await client.get(`/api/tasks/${created.json.id}/tree`)).json as Node;
  return { task, tree, nodes: flatten(tree as unknown as TreeNode) as unknown as Node[] };
}

const PRD = `# Shared shopping list

## Scope (v1)
- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online

## Non-goals
- Recipe suggestions
- Video calls are out of scope
`;

describe("the offline planner, through the API", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it("traces every stated requirement to a leaf, plans no non-goal, and marks its estimates as a rule's", async () => {
    const client = await signedIn(server);
    const { task, tree, nodes } = await plan(client, { description: PRD });
    expect(task.status).toBe("completed");
    expect(task.planner).toBe("offline");
    expect(tree.stated_scope?.requirements.map((r) => r.id)).toEqual(["R1", "R2", "R3"]);
    expect(tree.stated_scope?.non_goals).toEqual(["Recipe suggestions", "Video calls are out of scope"]);

    const below = nodes.filter((n) => n.depth > 0);
    for (const id of ["R1", "R2", "R3"]) expect(below.some((n) => n.requirement_ids.includes(id))).toBe(true);
    // The requirement's own words are in the leaf that covers it.
    const r2 = below.find((n) => n.children.length === 0 && n.requirement_ids.join() === "R2")!;
    expect(r2.implementation_details).toContain(
      "Items can be ticked off and the change shows on every phone at once",
    );
    for (const n of below) {
      expect(n.description.toLowerCase()).not.toMatch(/recipe|video/);
      expect(n.estimate_source).toBe("rule");
      if (n.children.length === 0) {
        expect(n.acceptance_criteria.length).toBeGreaterThanOrEqual(2);
        expect(n.acceptance_criteria.length).toBeLessThanOrEqual(5);
        expect(n.estimated_hours).toBeLessThanOrEqual(16);
        expect(n.is_atomic).toBe(true);
      }
    }
    // No stack was named, so none is assumed: the plan starts by choosing one.
    expect(below.some((n) => n.description === "Choose the stack and record the decision")).toBe(true);
    expect(JSON.stringify(below)).not.toMatch(/\b(React|Express|Prisma|PostgreSQL|Django)\b/);
    // Estimates vary with the work.
    expect(
      new Set(below.filter((n) => n.children.length === 0).map((n) => n.story_points)).size,
    ).toBeGreaterThan(1);
    // Epics are the workstreams; the stories come from requirements that name who they are for.
    const epics = task.context.epics.map((e: { title: string }) => e.title);
    expect(epics).toHaveLength(3);
    expect([epics[0], epics[2]]).toEqual(["Project setup", "Quality and release"]);
    expect(task.context.user_stories.map((s: { action: string }) => s.action)).toEqual([
      "create lists and invite family members by email",
    ]);
  });

  it("shows an empty event model, not an invented one, when the text states no action or event", async () => {
    const client = await signedIn(server);
    const { task } = await plan(client, { description: "make our checkout faster" });
    expect(task.status).toBe("completed");
    expect(task.metadata.event_model_markdown).toBe("");
    expect(task.metadata.commands).toEqual([]);
    expect(task.metadata.extracted_events).toEqual([]);
  });

  it("plans a bug report as a bug fix: says why, plans only what it asks, reproduces before fixing", async () => {
    const client = await signedIn(server);
    const report = [
      "[BUG] CSV export: umlauts broken when the file is opened in Excel",
      "",
      "## Steps to reproduce",
      "1. Open Contacts and choose Export -> CSV",
      "2. Open contacts.csv in Excel",
      "",
      "## Expected behaviour",
      'Names show as "Jürgen Müller".',
      "",
      "## Actual behaviour",
      'Names show as "JÃ¼rgen MÃ¼ller".',
      "",
      "Please write a UTF-8 BOM at the start of the file. Don't change the delimiter.",
    ].join("\n");
    const { tree, nodes } = await plan(client, { description: report });
    expect(tree.stated_scope?.planned_as.kind).toBe("bug");
    expect(tree.stated_scope?.planned_as.label).toBe("bug fix");
    expect(tree.stated_scope?.planned_as.because.join(" ")).toMatch(/steps to reproduce/);
    expect(tree.stated_scope?.requirements.map((r) => r.text)).toEqual([
      "Please write a UTF-8 BOM at the start of the file",
    ]);
    // An instruction not to do something, written among the observations, is a constraint.
    expect(tree.stated_scope?.constraints).toEqual(["Don't change the delimiter"]);
    const titles = nodes.filter((n) => n.depth === 1).map((n) => n.description);
    expect(titles[0]).toMatch(/^Reproduce: CSV export: umlauts broken/);
    expect(titles.at(-1)).toBe("Release the fix with a note");
    expect(titles.join("\n")).not.toMatch(/choose the stack|set up the repository|first version/i);
    // Neither the steps to reproduce nor what was observed became work.
    expect(titles.join("\n")).not.toMatch(/Open Contacts|JÃ¼rgen/);
  });

  it("plans a performance request discovery-first, with no greenfield scaffolding", async () => {
    const client = await signedIn(server);
    const { nodes } = await plan(client, { description: "make our checkout faster" });
    const titles = nodes.filter((n) => n.depth === 1).map((n) => n.description);
    expect(titles[0]).toBe("Measure the current baseline");
    expect(titles.at(-1)).toBe("Verify against the baseline and guard against regressions");
    expect(titles.join("\n")).not.toMatch(/set up the repository|sign[- ]up|choose the stack/i);
  });
});

describe("a model's plan", () => {
  let llm: FakeOpenAI;
  let server: TestServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ llm, server, stop } = await startModelBackedServer({ LLM_MAX_RETRIES: "0" }));
  });
  afterAll(() => stop?.());
  beforeEach(() => llm.reset());

  const taskOf = (req: FakeChatRequest) =>
    withoutDataMarkers(req.messages.at(-1)!.content).match(/Task to split:\n(.*)/)?.[1] ?? "";
  const subtask = (description: string, extra: Record<string, unknown> = {}) => ({
    description,
    complexity_score: 3,
    story_points: 2,
    implementation_details: `How to ${description.toLowerCase()}.`,
    acceptance_criteria: [`${description} is done`, "It is covered by a test"],
    requirement_ids: [],
    estimated_hours: 6,
    ...extra,
  });

  it("is told the stated requirements and non-goals, keeps only stated ids, and merges work planned twice", async () => {
    llm.setResponder((req) => {
      if (req.schemaName !== "subtask_plan") return undefined;
      const task = taskOf(req);
      if (/Depth: 0 /.test(req.messages.at(-1)!.content))
        return {
          subtasks: [
            subtask("Lists and sharing", {
              complexity_score: 9,
              estimated_hours: 30,
              requirement_ids: ["R1"],
            }),
            subtask("Offline sync", {
              complexity_score: 9,
              estimated_hours: 30,
              requirement_ids: ["R3", "R9"],
            }),
          ],
        };
      // Both branches plan the same local database work: the dedup pass keeps one.
      if (task === "Lists and sharing")
        return {
          subtasks: [
            subtask("Create the lists table and its API", { requirement_ids: ["R1"] }),
            subtask("Store lists in the local device database", { requirement_ids: ["R1"] }),
          ],
        };
      return {
        subtasks: [
          subtask("Store the lists in the local device database.", { requirement_ids: ["r3"] }),
          subtask("Replay queued changes when back online", { requirement_ids: ["R3"] }),
        ],
      };
    });
    const client = await signedIn(server);
    const { task, nodes } = await plan(client, { description: PRD, max_depth: 3 });
    expect(task.status).toBe("completed");

    const first = withoutDataMarkers(
      llm.requests.find((r) => r.schemaName === "subtask_plan")!.messages.at(-1)!.content,
    );
    expect(first).toContain("R2: Items can be ticked off and the change shows on every phone at once");
    expect(first).toMatch(
      /Out of scope \(never plan these\):\n- Recipe suggestions\n- Video calls are out of scope/,
    );

    // R9 does not exist and was dropped; "r3" was read as R3.
    expect(nodes.find((n) => n.description === "Offline sync")!.requirement_ids).toEqual(["R3"]);
    const stores = nodes.filter((n) => /local device database/.test(n.description));
    expect(stores).toHaveLength(1);
    expect(stores[0]!.requirement_ids).toEqual(["R1", "R3"]);
    expect(nodes.every((n) => n.depth === 0 || n.estimate_source === "model")).toBe(true);
  });

  it("splits a node the model scores as simple when its estimate is over two developer-days", async () => {
    llm.setResponder((req) => {
      if (req.schemaName !== "subtask_plan") return undefined;
      if (/Depth: 0 /.test(req.messages.at(-1)!.content))
        return { subtasks: [subtask("A week of simple work", { complexity_score: 2, estimated_hours: 40 })] };
      return { subtasks: [subtask("Day one"), subtask("Day two")] };
    });
    const client = await signedIn(server);
    const { nodes } = await plan(client, { description: "Something", max_depth: 3 });
    const week = nodes.find((n) => n.description === "A week of simple work")!;
    expect(week.is_atomic).toBe(false);
    expect(week.children.map((c) => c.description)).toEqual(["Day one", "Day two"]);
  });
});
