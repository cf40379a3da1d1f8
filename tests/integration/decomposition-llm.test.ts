import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isAtomic } from "../../src/server/engine/atomicity";
import type { FakeOpenAI } from "../fakes/openai";
import {
  flatten,
  startModelBackedServer,
  type TreeNode,
  waitForStatus,
  withoutDataMarkers,
} from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { waitForJobsIdle } from "../support/jobs";
import { startTestServer, type TestServer } from "../support/server";
import { waitUntil } from "../support/wait";

let llm: FakeOpenAI;
let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ llm, server, stop } = await startModelBackedServer({ LLM_MAX_RETRIES: "2", LLM_TIMEOUT_MS: "5000" }));
});
afterAll(() => stop?.());
beforeEach(() => llm.reset());

async function signedIn() {
  const client = new TestClient(server.url);
  await registerUser(client);
  return client;
}

async function decompose(client: TestClient, body: Record<string, unknown>, until = ["completed", "failed"]) {
  const created = await client.post("/api/tasks", body);
  expect(created.status).toBe(201);
  const done = await waitForStatus(client, created.json.id, until);
  const tree = (await client.get(`/api/tasks/${created.json.id}/tree`)).json as TreeNode;
  return { task: done, tree, nodes: flatten(tree) };
}

describe("decomposition through LangChain against an OpenAI-compatible server", () => {
  it("runs every stage and produces a complete plan: tree, context, epics, stories, event model", async () => {
    // complexity(depth) scores the children of a node at `depth`: level 1 gets 9 or 8 (split), level 2 gets 4 (atomic).
    llm.setPlanShape({ subtasks: 3, complexity: (depth, i) => (depth === 0 ? 9 - (i % 2) : 4) });
    const client = await signedIn();
    const { task, tree, nodes } = await decompose(client, {
      description: "An online bookshop with search, reviews and checkout",
      max_depth: 3,
      max_subtasks: 3,
      tech_preferences: { application_type: "ecommerce", tech_stack_id: "shopify-liquid" },
    });
    expect(task).toMatchObject({
      status: "completed",
      planner: "langchain",
      model: "fake-gpt",
      failure_reason: null,
    });
    expect(task.complexity_score).toEqual(expect.any(Number));
    expect(tree.children).toHaveLength(3);
    for (const n of nodes.slice(1)) {
      expect(n.complexity_score).toBeGreaterThanOrEqual(1);
      expect([1, 2, 3, 5, 8, 13]).toContain(n.story_points);
      expect(n.implementation_details).toBeTruthy();
      expect(n.is_atomic).toBe(
        isAtomic({ depth: n.depth, complexityScore: n.complexity_score! }, { maxDepth: 3, threshold: 0.7 }),
      );
      if (n.is_atomic) expect(n.children).toHaveLength(0);
      else expect(n.children.length).toBeGreaterThan(0);
    }
    // Level 1 (scored 8-9, above 7) is split; level 2 (scored 4) is atomic.
    expect(nodes.filter((n) => n.depth === 2)).toHaveLength(9);
    expect(nodes.some((n) => n.depth === 3)).toBe(false);
    expect(task.context.epics.length).toBeGreaterThan(0);
    expect(task.context.user_stories.length).toBeGreaterThan(0);
    expect(task.context.tech_stack.application_type).toBe("ecommerce");
    expect(task.metadata.swimlanes.length).toBeGreaterThan(0);
    // The model is asked for the structure only; the document is rendered from it (decision 010).
    const eventModelRequest = llm.requests.find((r) => r.schemaName === "event_model")!;
    expect(JSON.stringify(eventModelRequest.schema)).not.toContain("event_model_markdown");
    expect(task.metadata.event_model_markdown).toMatch(/^# Event model/);
    for (const lane of task.metadata.swimlanes)
      expect(task.metadata.event_model_markdown).toContain(`### ${lane.name}`);
    // 1 complexity + 1 root split + 3 node splits + 2 compose calls.
    expect(llm.usage.requests).toBe(7);
    expect(task.predictions).toEqual({
      llm_calls: 7,
      prompt_tokens: llm.usage.promptTokens,
      completion_tokens: llm.usage.completionTokens,
    });
    expect(llm.requests.map((r) => r.schemaName)).toEqual(
      expect.arrayContaining(["complexity_assessment", "subtask_plan", "project_context", "event_model"]),
    );
    expect(llm.requests.find((r) => r.schemaName === "subtask_plan")!.messages.at(-1)!.content).toContain(
      "An online bookshop with search, reviews and checkout",
    );
  });

  it("shows each split its siblings and the rest of the outline, so shared work is not planned twice", async () => {
    llm.setPlanShape({ subtasks: 3, complexity: (depth) => (depth <= 1 ? 9 : 3) });
    const client = await signedIn();
    const { tree } = await decompose(client, {
      description: "A recipe site with accounts, search and comments",
      max_depth: 3,
      max_subtasks: 3,
    });
    const firstLevel = tree.children.map((c) => (c as TreeNode & { description: string }).description);
    const splits = llm.requests
      .filter((r) => r.schemaName === "subtask_plan")
      .map((r) => withoutDataMarkers(r.messages.at(-1)!.content))
      .filter((p) => /Depth: 1 of/.test(p));
    expect(splits).toHaveLength(3);
    for (const prompt of splits) {
      const own = prompt.split("Task to split:\n")[1]!.split("\n")[0]!;
      const siblings = prompt.split(
        "Sibling tasks, planned separately (do not repeat their work; cite their numbers in depends_on_elsewhere when a subtask needs one finished first):\n",
      )[1]!;
      const listed = siblings.split("\n\n")[0]!.split("\n");
      // Numbered from 1, so a subtask can cite a sibling of its parent as work that must come first.
      expect(listed.map((line) => line.match(/^(\d+)\. /)?.[1])).toEqual(listed.map((_, i) => String(i + 1)));
      for (const d of firstLevel) {
        expect(listed.some((line) => line.endsWith(`. ${d.slice(0, 100)}`))).toBe(d !== own);
      }
    }
    // A second-level split also sees what the other branches planned.
    const deeper = llm.requests
      .map((r) => withoutDataMarkers(r.messages.at(-1)!.content))
      .find((p) => /Depth: 2 of/.test(p))!;
    expect(deeper).toMatch(
      /Already planned elsewhere in this project \(titles only; do not plan this work again; cite their numbers in depends_on_elsewhere when a subtask needs one finished first\):\n\d+\. /,
    );
    // ...and the path down to it: the project, then the first-level task it belongs to, which is not
    // offered as work planned elsewhere.
    const parent = firstLevel.find((d) => deeper.includes(`\n  - ${d}\n`))!;
    expect(parent).toBeDefined();
    expect(deeper).toContain(
      `Path from the project down to this task:\n- ${tree.description}\n  - ${parent}\n`,
    );
    const elsewhere = deeper.split("Already planned elsewhere in this project")[1]!.split("\n\n")[0]!;
    expect(elsewhere).not.toContain(`. ${parent}\n`);
  });

  it("is given the reading of the text, and drops an id that breaks the id rules like an unknown one", async () => {
    llm.setResponder((req) =>
      req.schemaName === "subtask_plan"
        ? {
            subtasks: ["Reproduce the crash", "Fix the buffering"].map((description, i) => ({
              description,
              complexity_score: 3,
              story_points: 2,
              implementation_details: "Details.",
              acceptance_criteria: ["It works", "It is tested"],
              // A sentence where an id belongs, an unknown id, and a stated one.
              requirement_ids:
                i === 0
                  ? ["the export streams the file instead of buffering it, which is R1", "R9"]
                  : ["r1 "],
              estimated_hours: 4,
              estimate_low_hours: null,
              estimate_high_hours: null,
              depends_on: [],
            })),
          }
        : undefined,
    );
    const client = await signedIn();
    const description = [
      "Export crashes on files over 2 GB",
      "",
      "### Steps to reproduce",
      "1. Open a project with a 3 GB file",
      "2. Click Export",
      "",
      "Please stream the file instead of buffering it.",
      "",
      "Out of scope: the import dialog.",
    ].join("\n");
    const { task, nodes } = await decompose(client, { description, max_depth: 1, max_subtasks: 4 });
    expect(task.status).toBe("completed");
    const steps = nodes.filter((n) => n.depth === 1).sort((a, b) => a.position - b.position);
    expect(steps.map((n) => (n as unknown as { requirement_ids: string[] }).requirement_ids)).toEqual([
      [],
      ["R1"],
    ]);
    const prompt = withoutDataMarkers(
      llm.requests
        .find((r) => r.schemaName === "subtask_plan")!
        .messages.map((m) => m.content)
        .join("\n"),
    );
    expect(prompt).toContain("Kind of work: bug fix. Plan it as a bug fix: reproduce it");
    expect(prompt).toContain("R1: Please stream the file instead of buffering it");
    expect(prompt).toContain("Out of scope (never plan these):\n- the import dialog");
    expect(prompt).not.toMatch(/R\d+: Click Export/);
  });

  it("keeps an answer citing more than 50 ids: unknown and repeated ones are dropped, the node is not failed", async () => {
    // 60 stated requirements; the answer cites all of them, twice over, and ten the text never states.
    const description = [
      "Office tool",
      "",
      ...Array.from(
        { length: 60 },
        (_, i) =>
          `- Staff can ${["create", "edit", "archive", "share", "print", "tag"][i % 6]} ${["invoices", "reports", "bookings", "rooms", "badges"][i % 5]} by rule ${i + 1}`,
      ),
    ].join("\n");
    const cited = [
      ...Array.from({ length: 60 }, (_, i) => `R${i + 1}`),
      ...Array.from({ length: 60 }, (_, i) => `r${i + 1} `),
      ...Array.from({ length: 10 }, (_, i) => `R${100 + i}`),
    ];
    llm.setResponder((req) =>
      req.schemaName === "subtask_plan"
        ? {
            subtasks: ["Build every stated feature", "Ship it"].map((description, i) => ({
              description,
              complexity_score: 3,
              story_points: 2,
              implementation_details: "Details.",
              acceptance_criteria: ["It works", "It is tested"],
              requirement_ids: i === 0 ? cited : [],
              estimated_hours: 4,
              estimate_low_hours: null,
              estimate_high_hours: null,
              depends_on: [],
            })),
          }
        : undefined,
    );
    const client = await signedIn();
    const { task, nodes } = await decompose(client, { description, max_depth: 1, max_subtasks: 4 });
    expect(task.status).toBe("completed");
    expect(nodes.filter((n) => (n as unknown as { needs_attention: boolean }).needs_attention)).toEqual([]);
    const first = nodes.find((n) => n.description === "Build every stated feature")!;
    expect((first as unknown as { requirement_ids: string[] }).requirement_ids).toEqual(
      Array.from({ length: 60 }, (_, i) => `R${i + 1}`),
    );
  });

  it("keeps the dependencies and estimate ranges the model proposes, dropping impossible ones", async () => {
    const deps = [[], [1], [1, 2, 9], [3, 4]];
    let call = 0;
    llm.setResponder((req) =>
      req.schemaName === "subtask_plan"
        ? {
            subtasks: deps.map((depends_on, i) => ({
              description: `Ordered step ${++call}`,
              complexity_score: 3,
              story_points: 2,
              implementation_details: "Details.",
              acceptance_criteria: ["It works", "It is tested"],
              requirement_ids: [],
              estimated_hours: 8,
              // Strict mode answers every property; null where the model has nothing to say.
              estimate_low_hours: i === 0 ? null : 5,
              estimate_high_hours: i === 0 ? null : 13,
              depends_on,
            })),
          }
        : undefined,
    );
    const client = await signedIn();
    const { nodes } = await decompose(client, { description: "Ordered plan", max_depth: 1, max_subtasks: 4 });
    const steps = nodes.filter((n) => n.depth === 1).sort((a, b) => a.position - b.position);
    expect(steps).toHaveLength(4);
    const [s1, s2, s3, s4] = steps.map((n) => n.id);
    expect(steps.map((n) => n.depends_on)).toEqual([[], [s1], [s1, s2], [s3]]);
    expect(steps[0]!.estimate_hours).toEqual({ low: 6, likely: 8, high: 14 }); // the rule's range
    expect(steps[1]!.estimate_hours).toEqual({ low: 5, likely: 8, high: 13 });
    const schedule = (await client.get(`/api/tasks/${nodes[0]!.id}/schedule`)).json;
    expect(schedule.critical_path).toEqual([s1, s2, s3, s4]);
    expect(schedule.ready).toEqual([s1]);
  });

  it("keeps dependencies the model proposes across branches by their number in the prompt, dropping impossible ones", async () => {
    const step = (description: string, extra: Record<string, unknown> = {}) => ({
      description,
      complexity_score: 3,
      story_points: 2,
      implementation_details: "Details.",
      acceptance_criteria: ["It works", "It is tested"],
      requirement_ids: [],
      estimated_hours: 6,
      ...extra,
    });
    llm.setResponder((req) => {
      if (req.schemaName !== "subtask_plan") return undefined;
      const prompt = withoutDataMarkers(req.messages.at(-1)!.content);
      if (/Depth: 0 of/.test(prompt))
        return {
          subtasks: [
            step("Billing branch", { complexity_score: 9 }),
            step("Invoices branch", { complexity_score: 9 }),
          ],
        };
      if (!/Task to split:\nInvoices branch/.test(prompt))
        return { subtasks: [step("Billing data model"), step("Billing screens")] };
      // The numbered lists of work outside this branch: cite "Billing branch" (a sibling of the task being
      // split) by its number, plus a number that names nothing.
      const number = Number(prompt.match(/^(\d+)\. Billing branch$/m)?.[1]);
      expect(number).toBeGreaterThan(0);
      return {
        subtasks: [
          step("Send invoices", { depends_on_elsewhere: [number, 999] }),
          step("Invoice history", { depends_on_elsewhere: null }),
        ],
      };
    });
    const client = await signedIn();
    const { nodes } = await decompose(client, {
      description: "Billing and invoices",
      max_depth: 2,
      max_subtasks: 2,
    });
    const byTitle = (t: string) => nodes.find((n) => n.description === t)!;
    expect(byTitle("Send invoices").depends_on).toEqual([byTitle("Billing branch").id]);
    expect(byTitle("Invoice history").depends_on).toEqual([]);
    const schedule = (await client.get(`/api/tasks/${nodes[0]!.id}/schedule`)).json;
    expect(schedule.waves[0]).not.toContain(byTitle("Send invoices").id);
  });

  it("honours max_subtasks even when the model proposes more, and max_depth", async () => {
    // Numbered across the whole plan: the same title in two branches would be merged as a duplicate.
    let proposed = 0;
    llm.setResponder((req) =>
      req.schemaName === "subtask_plan"
        ? {
            subtasks: Array.from({ length: 8 }, () => ({
              description: `Proposed step ${++proposed}`,
              complexity_score: 9,
              story_points: 13,
              implementation_details: "Details.",
              acceptance_criteria: ["It works", "It is tested"],
              requirement_ids: [],
              estimated_hours: 12,
            })),
          }
        : undefined,
    );
    const client = await signedIn();
    const { nodes } = await decompose(client, { description: "Capped plan", max_depth: 2, max_subtasks: 2 });
    for (const n of nodes) expect(n.children.length).toBeLessThanOrEqual(2);
    expect(Math.max(...nodes.map((n) => n.depth))).toBe(2);
    expect(nodes).toHaveLength(1 + 2 + 4);
    for (const n of nodes.filter((x) => x.depth === 2)) expect(n.is_atomic).toBe(true);
  });

  it("decides atomicity with complexity_threshold: scores above threshold x 10 are split", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth === 0 ? 6 : 3) });
    const client = await signedIn();
    const strict = await decompose(client, {
      description: "Threshold 0.5",
      max_depth: 3,
      max_subtasks: 2,
      complexity_threshold: 0.5,
    });
    expect(strict.nodes.filter((n) => n.depth === 1).every((n) => !n.is_atomic)).toBe(true); // 6 > 5
    expect(strict.nodes.filter((n) => n.depth === 2)).toHaveLength(4);
    const loose = await decompose(client, {
      description: "Threshold 0.7",
      max_depth: 3,
      max_subtasks: 2,
      complexity_threshold: 0.7,
    });
    expect(loose.nodes.filter((n) => n.depth === 1).every((n) => n.is_atomic)).toBe(true); // 6 <= 7
    expect(loose.nodes).toHaveLength(3);
  });

  it("retries invalid model output and still completes", async () => {
    llm.setMode("schema_violation", { times: 2 });
    const client = await signedIn();
    const { task } = await decompose(client, { description: "Flaky model", max_depth: 1, max_subtasks: 2 });
    expect(task.status).toBe("completed");
  });

  it("fails the task with a readable reason when the output stays invalid", async () => {
    llm.setMode("malformed_json");
    const client = await signedIn();
    const { task } = await decompose(client, { description: "Broken model", max_depth: 1, max_subtasks: 2 });
    expect(task.status).toBe("failed");
    expect(task.failure_reason).toMatch(/invalid output for complexity analysis/);
    const me = (await client.get("/api/auth/me")).json;
    const events = await server.deps.events.history({ userId: me.id, rootTaskId: task.id });
    const failed = events.find((e) => e.type === "service.status" && e.status === "error");
    expect(failed?.operator_id).toBe("complexity_scorer");
    llm.setMode("ok");
  });

  it("rides out a rate limit (429 with Retry-After) and a 500", async () => {
    llm.setMode("rate_limit", { times: 1 });
    const client = await signedIn();
    const { task } = await decompose(client, { description: "Busy provider", max_depth: 1, max_subtasks: 2 });
    expect(task.status).toBe("completed");
    llm.setMode("server_error", { times: 1 });
    const second = await decompose(client, {
      description: "Erratic provider",
      max_depth: 1,
      max_subtasks: 2,
    });
    expect(second.task.status).toBe("completed");
  });

  it("fails at once, with advice, when the provider refuses the key", async () => {
    llm.setMode("unauthorized");
    const client = await signedIn();
    const { task } = await decompose(client, { description: "Wrong key", max_depth: 1 });
    expect(task.status).toBe("failed");
    // The provider's own words (its masked echo of the key included), the status, the stage, the advice.
    expect(task.failure_reason).toMatch(
      /^The AI provider refused the request: Incorrect API key provided: sk-\S+\. You can find your API key at \S+ \(HTTP 401, during complexity analysis\)\. Check OPENAI_API_KEY\.$/,
    );
    expect(llm.requests).toHaveLength(1);
    llm.setMode("ok");
  });

  it("deleting a task mid-decomposition stops its work", async () => {
    llm.setLatency(300);
    llm.setPlanShape({ subtasks: 3, complexity: () => 9 });
    const client = await signedIn();
    const created = await client.post("/api/tasks", { description: "Doomed", max_depth: 4, max_subtasks: 3 });
    await waitForStatus(client, created.json.id, ["processing"]);
    await new Promise((r) => setTimeout(r, 700));
    expect((await client.request("DELETE", `/api/tasks/${created.json.id}`)).status).toBe(200);
    const callsAtDelete = llm.requests.length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(llm.requests.length - callsAtDelete).toBeLessThanOrEqual(4); // only calls already in flight
    const left = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from tasks where id = ${created.json.id} or root_task_id = ${created.json.id}`,
    );
    expect(left[0]!.n).toBe(0);
    const active = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from jobs where group_key = ${created.json.id} and status in ('queued', 'running')`,
    );
    expect(active[0]!.n).toBe(0);
    llm.setLatency(0);
  });
});

describe("restart and add-task", () => {
  it("restart-decomposition drops the plan and runs the pipeline again from the start", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth === 0 ? 9 : 3) });
    const client = await signedIn();
    const first = await decompose(client, { description: "Do it twice", max_depth: 2, max_subtasks: 2 });
    expect(first.nodes).toHaveLength(7);
    const before = new Set(first.nodes.map((n) => n.id));
    const restarted = await client.post(`/api/tasks/${first.task.id}/restart-decomposition`);
    expect(restarted.status).toBe(200);
    const done = await waitForStatus(client, first.task.id, ["completed"]);
    const tree = (await client.get(`/api/tasks/${first.task.id}/tree`)).json as TreeNode;
    const nodes = flatten(tree);
    expect(nodes).toHaveLength(7);
    expect(nodes.slice(1).some((n) => before.has(n.id))).toBe(false);
    expect(done.predictions.llm_calls).toBe(1 + 1 + 2 + 2);
  });

  it("add-task with auto_decompose splits the new task; without it the task stays a leaf", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth === 0 ? 9 : 3) });
    const client = await signedIn();
    const { task } = await decompose(client, { description: "Grow later", max_depth: 3, max_subtasks: 2 });
    const added = await client.post(`/api/tasks/${task.id}/add-task`, {
      description: "A new area",
      position: "child",
      auto_decompose: true,
    });
    const node = await waitUntil(
      async () => {
        const n = (await client.get(`/api/tasks/${added.json.id}`)).json;
        return n.children_count > 0 && n;
      },
      { intervalMs: 100, message: "the added task split" },
    );
    expect(node.children_count).toBe(2);
    const plain = await client.post(`/api/tasks/${task.id}/add-task`, {
      description: "Just a note",
      position: "child",
      auto_decompose: false,
    });
    await waitForJobsIdle(server, task.id); // a split of it would have been queued by add-task itself
    expect((await client.get(`/api/tasks/${plain.json.id}`)).json.children_count).toBe(0);
  });
});

describe("a model that never answers", () => {
  it("times out, retries, then fails the task with a readable reason", async () => {
    const slow = await startTestServer({
      OPENAI_API_KEY: llm.apiKey,
      OPENAI_BASE_URL: llm.url,
      LLM_MODEL: "fake-gpt",
      LLM_MAX_RETRIES: "0",
      LLM_TIMEOUT_MS: "1000",
    });
    try {
      llm.setMode("timeout");
      const client = new TestClient(slow.url);
      await registerUser(client);
      const created = await client.post("/api/tasks", { description: "Silent model", max_depth: 1 });
      const done = await waitForStatus(client, created.json.id, ["failed"], 20_000);
      expect(done.failure_reason).toMatch(/did not answer in time during complexity analysis/);
      expect(llm.requests.length).toBe(3); // one call per job attempt
    } finally {
      llm.setMode("ok");
      await slow.stop();
    }
  });
});

describe("review before commit (requires_approval)", () => {
  it("pauses after the first level, then continues on approval", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth <= 1 ? 9 : 3) });
    const client = await signedIn();
    const created = await client.post("/api/tasks", {
      description: "Needs review",
      max_depth: 2,
      max_subtasks: 2,
      requires_approval: true,
    });
    const submitted = await waitForStatus(client, created.json.id, ["submitted"]);
    expect(submitted.children_count).toBe(2);
    expect(submitted.total_subtasks).toBe(2); // nothing below the first level yet
    const approved = await client.post(`/api/tasks/${created.json.id}/approve`);
    expect(approved.status).toBe(200);
    const done = await waitForStatus(client, created.json.id, ["completed"]);
    expect(done.total_subtasks).toBe(6);
    expect((await client.post(`/api/tasks/${created.json.id}/approve`)).status).toBe(409);
  });

  it("rejects with a reason, and a resubmitted description is decomposed again", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: () => 3 });
    const client = await signedIn();
    const created = await client.post("/api/tasks", {
      description: "First idea",
      max_depth: 2,
      requires_approval: true,
    });
    await waitForStatus(client, created.json.id, ["submitted"]);
    expect((await client.post(`/api/tasks/${created.json.id}/reject`, { reason: "  " })).json.detail).toBe(
      "Please give a reason for rejecting the plan",
    );
    const rejected = await client.post(`/api/tasks/${created.json.id}/reject`, { reason: "Too vague" });
    expect(rejected.json).toMatchObject({ status: "rejected", rejection_reason: "Too vague" });
    const list = await client.get("/api/tasks");
    expect(list.json.tasks[0].rejection_reason).toBe("Too vague");
    const resubmitted = await client.post(`/api/tasks/${created.json.id}/resubmit`, {
      description: "Second, sharper idea",
    });
    expect(resubmitted.json).toMatchObject({
      // The decomposition's worker is woken at commit and may have begun by the time the task is read.
      status: expect.stringMatching(/^(pending|processing)$/),
      rejection_reason: null,
      description: "Second, sharper idea",
    });
    await waitForStatus(client, created.json.id, ["submitted"]);
    const events = await server.deps.events.history({
      userId: resubmitted.json.id ? (await client.get("/api/auth/me")).json.id : "",
      rootTaskId: created.json.id,
    });
    const rejections = events.filter((e) => e.type === "task.rejected");
    expect(rejections.map((e) => e.data.new_description ?? null)).toEqual([null, "Second, sharper idea"]);
  });
});
