import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CreateMessageRequest, CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { getEncoding } from "js-tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapLocalRepository } from "../../src/cli/local-repository";
import { scriptedSplit as answer } from "../support/agent-answers";
import { flatten, type TreeNode, waitForStatus, withoutDataMarkers } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { instanceOf } from "../support/schema-instance";
import { startTestServer, type TestServer } from "../support/server";
import { waitUntil } from "../support/wait";

/**
 * A coding agent plans a project through the MCP server with its own model (decision 029), through the
 * official SDK's client over Streamable HTTP, with no model configured on the server: the planning loop
 * as tools (a whole plan with scripted answers, a refused answer fixed and resubmitted, a session that
 * resumes, two agents racing for one node, another user's project, a read-only token, a project the
 * server plans), the size of each step on a plan of 300 nodes, and MCP sampling, where the server plans
 * with the client's model.
 */

let server: TestServer;
let o200k: ReturnType<typeof getEncoding>;
beforeAll(async () => {
  o200k = getEncoding("o200k_base");
  server = await startTestServer({
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
  });
});
afterAll(() => server?.stop());

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

async function account(tokenName = "claude-code") {
  const web = new TestClient(server.url);
  const reg = await registerUser(web);
  const token = async (scope: "read" | "write") => {
    const made = await web.post("/api/tokens", { name: tokenName, scope, expires_in_days: 30 });
    expect(made.status).toBe(201);
    return made.json.token as string;
  };
  return { web, user: reg.user, token };
}

async function mcp(token: string) {
  const client = await connectMcp(server.url, token);
  clients.push(client);
  return client;
}

type Step = {
  done: boolean;
  project_id: string;
  node_id: string;
  depth: number;
  brief: string;
  schema: { properties?: Record<string, unknown>; required?: string[] };
  remaining: { waiting: number; at_most: number };
  status?: string;
  composition?: { brief: string; schema: Record<string, unknown> };
};

const DESCRIPTION = [
  "A book club site",
  "- Members sign up with e-mail",
  "- Members propose books and vote on the next one",
  "- Organisers schedule meetings on a calendar",
  "Out of scope: a mobile app",
].join("\n");

/** The JSON Schema of one subtask in a step's answer. */
function subtaskItems(step: Step): { properties: Record<string, unknown> } {
  const subtasks = step.schema.properties?.subtasks as { items: { properties: Record<string, unknown> } };
  return subtasks.items;
}

async function planToTheEnd(agent: Client, first: Step, n = 3, leafDepth = 2) {
  let step = first;
  let steps = 0;
  const sizes: number[] = [];
  while (!step.done) {
    sizes.push(o200k.encode(JSON.stringify(step)).length);
    const res = await callTool<{ next: Step; created: number }>(
      agent,
      "submit_subtasks",
      answer(step, n, leafDepth),
    );
    step = res.next;
    steps++;
  }
  return { last: step, steps, sizes };
}

describe("a coding agent plans through the tools", () => {
  it("plans to the end with answers made from each step's schema alone (issue 39)", async () => {
    const { web, token } = await account("schema-filler");
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    let step = made.step;
    let steps = 0;
    while (!step.done) {
      // Exactly what the schema asks for, and nothing else: an agent that trusts the schema it is given.
      const answer = instanceOf(step.schema as Record<string, unknown>) as Record<string, unknown>;
      const res = await callTool<{ next: Step }>(agent, "submit_subtasks", {
        node_id: step.node_id,
        ...answer,
      });
      step = res.next;
      expect(++steps).toBeLessThan(20);
    }
    await waitForStatus(web, made.id, ["completed"], 60_000);
    expect(flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode).length).toBeGreaterThan(1);
  });

  it("plans a project to the end with its own answers, shown as planned by the agent, live", async () => {
    const { web, token } = await account("claude-code");
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; status: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    expect(made.status).toBe("processing");
    // The server's instructions say how to run the loop.
    expect(agent.getInstructions()).toMatch(
      /create_project with planner "agent", then repeat next_planning_step and submit_subtasks/,
    );
    const first = made.step;
    expect(first.done).toBe(false);
    expect(first.depth).toBe(0);
    expect(first.node_id).toBe(made.id);
    // The brief a model would get: the text read into requirements and non-goals, the kind, the rules.
    expect(first.brief).toContain("R3: Organisers schedule meetings on a calendar");
    expect(withoutDataMarkers(first.brief)).toMatch(/Out of scope \(never plan these\):\n- a mobile app/);
    expect(first.brief).toContain("Kind of work: new product");
    expect(first.brief).toMatch(/at most 16 hours/);
    expect(first.schema.required).toEqual(expect.arrayContaining(["assessment", "subtasks"]));
    expect(first.remaining).toEqual({ waiting: 1, at_most: 1 + 7 + 49 });

    const task = (await web.get(`/api/tasks/${made.id}`)).json;
    expect(task.planner).toBe("agent");
    expect(task.model).toBe("claude-code");

    const { last, steps } = await planToTheEnd(agent, first);
    // The root, then its three workstreams; their subtasks are leaves.
    expect(steps).toBe(4);
    expect(last.done).toBe(true);
    expect(last.composition?.brief).toContain("submit_composition");

    await waitForStatus(web, made.id, ["completed"]);
    const tree = (await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode;
    const nodes = flatten(tree);
    expect(nodes).toHaveLength(1 + 3 + 9);
    const root = (await web.get(`/api/tasks/${made.id}`)).json;
    expect(root.complexity_score).toBe(6);
    expect(root.story_points).toBe(13);
    // Requirement ids the description does not state were dropped; the agent's order became dependencies.
    const leaf = nodes.find((n) => n.depth === 2) as TreeNode & { requirement_ids: string[] };
    expect(leaf.requirement_ids).toEqual(["R1", "R2"]);
    expect(nodes.filter((n) => n.depth === 2).every((n) => n.is_atomic)).toBe(true);
    const second = nodes.find((n) => n.depth === 1 && n.position === 2)!;
    const deps = (await web.get(`/api/tasks/${second.id}/dependencies`)).json;
    expect(deps.blocked_by ?? deps.depends_on ?? deps.waits_for).toHaveLength(1);

    // The outline's composition until the agent replaces it.
    expect(root.context?.epics?.length ?? 0).toBeGreaterThan(0);
    const done = await callTool<Step>(agent, "next_planning_step", { project_id: made.id });
    expect(done).toMatchObject({ done: true, status: "completed", subtasks: 12 });
    const composed = await callTool(agent, "submit_composition", {
      project_id: made.id,
      epics: [{ id: "E1", title: "Club life", description: "Members and meetings.", priority: 1 }],
      user_stories: [
        {
          id: "US1",
          epic_id: "E1",
          actor: "member",
          action: "vote on the next book",
          benefit: "the club reads what most want",
          acceptance_criteria: ["A vote counts once"],
          story_points: 3,
          priority: "must_have",
        },
      ],
    });
    expect(composed).toMatchObject({ epics: 1, user_stories: 1 });
    const after = (await web.get(`/api/tasks/${made.id}`)).json;
    expect(after.context.epics.map((e: { title: string }) => e.title)).toEqual(["Club life"]);
    expect(after.context.user_stories[0].action).toBe("vote on the next book");

    // Planning is over: another answer is refused, and changes nothing.
    expect(
      await toolError(agent, "submit_subtasks", answer({ ...first, node_id: leaf.id, depth: 2 })),
    ).toMatch(/planning is finished/);
  });

  it("refuses a bad answer with every problem named, changes nothing, then takes the fixed one", async () => {
    const { web, token } = await account();
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    const good = answer(made.step, 3, 1);
    const bad = {
      node_id: made.step.node_id,
      subtasks: [
        { ...good.subtasks[0]!, acceptance_criteria: ["only one"] },
        { ...good.subtasks[1]!, depends_on: [3] },
        { ...good.subtasks[2]!, depends_on: [2], estimated_hours: 40, atomic: true },
      ],
    };
    const refusal = await toolError(agent, "submit_subtasks", bad);
    expect(refusal).toMatch(/subtasks\.0\.acceptance_criteria: .*2/);
    const semantic = await toolError(agent, "submit_subtasks", {
      ...bad,
      subtasks: bad.subtasks.map((s, i) => (i === 0 ? good.subtasks[0]! : s)),
    });
    expect(semantic).toMatch(/assessment: The first step also assesses the whole project/);
    expect(semantic).toMatch(/subtasks\.2\.atomic: Marked atomic but estimated at 40 h/);
    expect(flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode)).toHaveLength(1);

    // Dependencies the plan cannot take are dropped, as a model's are, and the agent is told which.
    const res = await callTool<{ created: number; next: Step; dropped_dependencies: string[] }>(
      agent,
      "submit_subtasks",
      {
        ...good,
        subtasks: good.subtasks.map((s, i) =>
          i === 1
            ? { ...s, depends_on: [1, 3] }
            : i === 2
              ? { ...s, depends_on: [2, 3], depends_on_elsewhere: [4] }
              : s,
        ),
      },
    );
    expect(res.created).toBe(3);
    expect(res.dropped_dependencies).toEqual([
      "subtask 3 waiting for 2 would close a cycle (2 waits for 3)",
      "subtask 3 waited for itself",
      "subtask 3 cited 4 in depends_on_elsewhere, but the step listed nothing",
    ]);
    expect(res.next.done).toBe(true);
    await waitForStatus(web, made.id, ["completed"]);
  });

  it("resumes in a new session where the last one stopped", async () => {
    const { token } = await account();
    const write = await token("write");
    const first = await mcp(write);
    const made = await callTool<{ id: string; step: Step }>(first, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    await callTool(first, "submit_subtasks", answer(made.step));
    await first.close();
    const second = await mcp(write);
    const step = await callTool<Step>(second, "next_planning_step", { project_id: made.id });
    expect(step.done).toBe(false);
    expect(step.depth).toBe(1);
    expect(withoutDataMarkers(step.brief)).toMatch(
      /Planning step 2 \(the whole description was in the first step; the path below starts at the project\)\./,
    );
    expect(withoutDataMarkers(step.brief)).toMatch(
      /Path from the project down to this task:\n- A book club site/,
    );
    expect(step.brief).toMatch(/Other work, numbered \(1-\d+: sibling tasks, planned separately/);
    expect(step.schema.required).not.toContain("assessment");
    const { last } = await planToTheEnd(second, step);
    expect(last.done).toBe(true);
  });

  it("shows the person the step it waits on, and lets them stop it (the outline plans the rest) or cancel it (issue 40)", async () => {
    const { web, token } = await account();
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    const waiting = await web.get(`/api/projects/${made.id}/planning`);
    expect(waiting.status).toBe(200);
    expect(waiting.json).toEqual({ step: 1, node_id: made.id, title: "A book club site", waiting: 1 });
    const { next } = await callTool<{ next: Step }>(agent, "submit_subtasks", answer(made.step));
    const second = (await web.get(`/api/projects/${made.id}/planning`)).json;
    expect(second).toMatchObject({ step: 2, node_id: next.node_id, waiting: 3 });
    expect(second.title).toMatch(/^Part 1 of /);

    // Stop: what the agent planned stays, the outline splits the rest, and the plan completes.
    const stopped = await web.post(`/api/projects/${made.id}/planning/stop`, {});
    expect(stopped.status).toBe(200);
    // The three tasks the agent left: each split by the outline or kept as a leaf.
    expect(stopped.json.finished).toBeGreaterThanOrEqual(3);
    const done = await waitForStatus(web, made.id, ["completed"], 60_000);
    expect(done.warnings.join(" ")).toMatch(
      /You stopped your coding agent's planning: the offline planner planned the rest/,
    );
    const tree = (await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode;
    expect(tree.children.map((c) => c.description)).toEqual(
      [1, 2, 3].map((i) => expect.stringMatching(new RegExp(`^Part ${i} of`))),
    );
    for (const c of flatten(tree).slice(1)) expect(c.children.length > 0 || c.is_atomic).toBe(true);
    expect(await toolError(agent, "submit_subtasks", answer(next))).toMatch(/planning is finished/);
    expect((await web.post(`/api/projects/${made.id}/planning/stop`, {})).status).toBe(409);
    expect((await web.get(`/api/projects/${made.id}/planning`)).json).toMatchObject({
      node_id: null,
      waiting: 0,
    });

    // Cancel: the project stops where it is, failed with that reason; the agent is told so.
    const other = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    const stranger = await account("other");
    for (const path of ["stop", "cancel"]) {
      expect((await stranger.web.post(`/api/projects/${other.id}/planning/${path}`, {})).status).toBe(404);
    }
    expect((await stranger.web.get(`/api/projects/${other.id}/planning`)).status).toBe(404);
    const cancelled = await web.post(`/api/projects/${other.id}/planning/cancel`, {});
    expect(cancelled.status).toBe(200);
    const failed = cancelled.json;
    expect((await web.get(`/api/tasks/${other.id}`)).json.status).toBe("failed");
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed.failure_reason).toMatch(/^You cancelled the planning\./);
    expect(await toolError(agent, "submit_subtasks", answer(other.step))).toMatch(/planning is finished/);
    expect((await web.post(`/api/projects/${other.id}/planning/cancel`, {})).status).toBe(409);
    // A project the server plans has no agent to stop.
    const served = await web.post("/api/tasks", { description: DESCRIPTION });
    expect((await web.post(`/api/projects/${served.json.id}/planning/stop`, {})).status).toBe(409);
  });

  it("lets only one of two agents split the same task", async () => {
    const { web, token } = await account();
    const write = await token("write");
    const [one, two] = [await mcp(write), await mcp(write)];
    const made = await callTool<{ id: string; step: Step }>(one, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    const seen = await callTool<Step>(two, "next_planning_step", { project_id: made.id });
    expect(seen.node_id).toBe(made.step.node_id);
    const results = await Promise.allSettled([
      callTool(one, "submit_subtasks", answer(made.step, 3)),
      callTool(two, "submit_subtasks", answer(seen, 4)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(lost.reason)).toMatch(/split already \(by you or another agent\)/);
    const children = flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode).filter(
      (n) => n.depth === 1,
    );
    expect([3, 4]).toContain(children.length);
  });

  it("keeps another user's project, read-only tokens and a server-planned project out of the loop", async () => {
    const owner = await account();
    const agent = await mcp(await owner.token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    const stranger = await mcp(await (await account()).token("write"));
    expect(await toolError(stranger, "next_planning_step", { project_id: made.id })).toMatch(
      /Task not found/,
    );
    expect(await toolError(stranger, "submit_subtasks", answer(made.step, 3, 1))).toMatch(/Task not found/);
    const reader = await mcp(await owner.token("read"));
    expect(await toolError(reader, "next_planning_step", { project_id: made.id })).toMatch(/read-only/);
    expect(await toolError(reader, "submit_subtasks", answer(made.step, 3, 1))).toMatch(/read-only/);
    expect(await toolError(reader, "create_project", { description: DESCRIPTION, planner: "agent" })).toMatch(
      /read-only/,
    );
    const auto = await callTool<{ id: string }>(agent, "create_project", {
      description: DESCRIPTION,
      max_depth: 1,
    });
    expect(await toolError(agent, "next_planning_step", { project_id: auto.id })).toMatch(
      /planned by the server's planner/,
    );
    // Nothing changed in the agent's project.
    expect(flatten((await owner.web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode)).toHaveLength(1);
  });

  it("keeps each step near 2,000 tokens on a plan of 300 nodes and more", async () => {
    const { web, token } = await account();
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 3,
    });
    // Seven subtasks a split: 1 + 7 + 49 splits, 1 + 7 + 49 + 343 = 400 nodes.
    const { steps, sizes } = await planToTheEnd(agent, made.step, 7, 3);
    expect(steps).toBe(57);
    expect(Math.max(...sizes)).toBeLessThan(2000);
    await waitForStatus(web, made.id, ["completed"], 60_000);
    expect(flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode)).toHaveLength(400);
  });
});

describe("a coding agent plans a change to code that exists (issue 42)", () => {
  const REPOSITORY = path.join(import.meta.dirname, "../fixtures/repositories/node-express-invoices");
  const CHANGE =
    "Let us set a payment due date when creating an invoice, and list the sent invoices past their due date that are not fully paid.";

  it("is asked for each subtask's files, keeps those it names where the map has them, ranks the rest, and stays under 2,000 tokens", async () => {
    const { web, token } = await account();
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: CHANGE,
      planner: "agent",
      max_depth: 2,
      repository_map: await mapLocalRepository(REPOSITORY),
    });
    const first = made.step;
    const items = subtaskItems(first);
    expect(Object.keys(items.properties)).toContain("files");
    // A change to the code it came with, on the stack its manifests name: nothing to choose or set up.
    expect(first.brief).toContain("Kind of work: feature on an existing product");
    expect(first.brief).toContain("Detected: Node 20, Express");
    expect(first.brief).toContain("src/routes/invoices.js");
    expect(first.brief).toMatch(/For each subtask also give files/);
    const base = answer(first, 3, 1);
    const named = {
      ...base,
      subtasks: base.subtasks.map((s, i) =>
        i === 0
          ? {
              ...s,
              description: "Store the invoice's due date",
              files: [
                { path: "prisma/schema.prisma", confidence: "high", new: false },
                { path: "src/routes/nowhere.js", confidence: "high", new: false },
              ],
            }
          : i === 1
            ? {
                ...s,
                description: "List overdue invoices",
                files: [
                  { path: "src/routes/overdue.js", confidence: "medium", new: true },
                  { path: "../outside.js", confidence: "high", new: true },
                ],
              }
            : { ...s, description: "Send invoice reminders by e-mail" },
      ),
    };
    const res = await callTool<{ next: Step; created: number }>(agent, "submit_subtasks", named);
    expect(res.created).toBe(3);
    const tree = flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode) as (TreeNode & {
      files?: { path: string; new: boolean }[] | null;
    })[];
    const byTitle = (words: string) => tree.find((t) => t.description.includes(words))!;
    // Existing paths the map has, and new ones inside the repository; a path it lacks, or outside it, goes.
    expect(byTitle("Store the invoice").files?.map((f) => f.path)).toEqual(["prisma/schema.prisma"]);
    expect(byTitle("List overdue").files).toEqual([
      { path: "src/routes/overdue.js", confidence: "medium", new: true },
    ]);
    // A subtask that names none is given those its words rank highest.
    expect(byTitle("Send invoice reminders").files?.length).toBeGreaterThan(0);
    expect(byTitle("Send invoice reminders").files?.every((f) => !f.new)).toBe(true);
    expect(o200k.encode(JSON.stringify(first)).length).toBeLessThan(2000);
  });

  it("is offered no files field on a plan without a map, and files sent anyway are not kept", async () => {
    const { web, token } = await account();
    const agent = await mcp(await token("write"));
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 1,
    });
    const items = subtaskItems(made.step);
    expect(Object.keys(items.properties)).not.toContain("files");
    const base = answer(made.step, 2, 1);
    await callTool(agent, "submit_subtasks", {
      ...base,
      subtasks: base.subtasks.map((s) => ({
        ...s,
        files: [{ path: "src/app.js", confidence: "high", new: false }],
      })),
    });
    const tree = flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode) as (TreeNode & {
      files?: unknown[] | null;
    })[];
    expect(tree).toHaveLength(3);
    expect(tree.every((t) => !t.files || t.files.length === 0)).toBe(true);
  });
});

describe("MCP sampling: the server plans with the client's model", () => {
  type Answer = (text: string, asked: number) => unknown;

  async function samplingClient(token: string, respond: Answer) {
    const client = new Client(
      { name: "sampling-agent", version: "1.0.0" },
      { capabilities: { sampling: {} } },
    );
    const prompts: CreateMessageRequest["params"][] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      prompts.push(req.params);
      const text = (req.params.messages[0]!.content as { text: string }).text;
      return {
        role: "assistant" as const,
        model: "scripted",
        content: { type: "text" as const, text: JSON.stringify(respond(text, prompts.length)) },
      };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return { client, prompts };
  }

  /** A step's answer, read from the prompt as a model would: the first step also assesses the project. */
  const subtasksFor = (text: string) => {
    const first = /plan the project's first level/.test(text);
    const node = text.match(/node_id "([^"]+)"/)![1]!;
    return answer({ node_id: node, depth: first ? 0 : 1 } as Step, 2, 2);
  };

  it("plans to the end when the client's model fills the schema in the prompt as given (issue 39)", async () => {
    const { web, token } = await account("schema-sampler");
    const { client, prompts } = await samplingClient(await token("write"), (text) => {
      const schema = JSON.parse(text.split("matching this JSON Schema:\n")[1]!.split("\n")[0]!);
      return instanceOf(schema);
    });
    const made = await callTool<{ id: string }>(client, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    await waitForStatus(web, made.id, ["completed"]);
    // No answer was refused: each prompt is a step of its own, never a second try.
    expect(prompts.some((p) => /previous answer was refused/.test(JSON.stringify(p.messages)))).toBe(false);
    expect(flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode).length).toBeGreaterThan(1);
  });

  it("plans to the end with the client's model, asking again with the problems named, and composes", async () => {
    const { web, token } = await account("cursor");
    let refusedOnce = false;
    const { client, prompts } = await samplingClient(await token("write"), (text) => {
      if (/submit_composition/.test(text))
        return {
          epics: [{ id: "E1", title: "From the client's model", description: "d", priority: 1 }],
          user_stories: [],
        };
      const { node_id: _node, ...body } = subtasksFor(text);
      if (!refusedOnce && /first level/.test(text)) {
        refusedOnce = true;
        return { subtasks: body.subtasks }; // no assessment: refused, then asked again
      }
      return body;
    });
    const made = await callTool<{ id: string; planning: string; step?: Step }>(client, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    expect(made.planning).toMatch(/MCP sampling/);
    expect(made.step).toBeUndefined();
    await waitForStatus(web, made.id, ["completed"]);
    await waitUntil(async () => {
      const t = (await web.get(`/api/tasks/${made.id}`)).json;
      return t.context?.epics?.[0]?.title === "From the client's model";
    });
    // The root's two workstreams, each split in two.
    expect(flatten((await web.get(`/api/tasks/${made.id}/tree`)).json as TreeNode)).toHaveLength(7);
    const second = prompts[1]!.messages[0]!.content as { text: string };
    expect(second.text).toMatch(
      /Your previous answer was refused:\n.*\nassessment: The first step also assesses/,
    );
    expect(prompts[0]!.systemPrompt).toMatch(/Answer with one JSON object/);
    expect(prompts[0]!.modelPreferences?.intelligencePriority).toBeGreaterThan(0.5);
    const task = (await web.get(`/api/tasks/${made.id}`)).json;
    expect(task).toMatchObject({ planner: "agent", model: "cursor" });
  });

  it("leaves the plan to the tools when the client's model stops, and says so on the project", async () => {
    const { web, token } = await account();
    const write = await token("write");
    const { client } = await samplingClient(write, () => ({ not: "an answer" }));
    const made = await callTool<{ id: string }>(client, "create_project", {
      description: DESCRIPTION,
      planner: "agent",
      max_depth: 2,
    });
    await waitUntil(async () => {
      const t = (await web.get(`/api/tasks/${made.id}`)).json;
      return t.warnings.some((w: string) => w.includes("Planning with your coding agent's model stopped"));
    });
    const agent = await mcp(write);
    const step = await callTool<Step>(agent, "next_planning_step", { project_id: made.id });
    expect(step).toMatchObject({ done: false, depth: 0 });
    const { last } = await planToTheEnd(agent, step, 3, 1);
    expect(last.done).toBe(true);
  });
});
