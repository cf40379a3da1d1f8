import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AWAITING_REVIEW_MAX } from "../../src/shared/schemas/reading";
import { deployPipeline } from "../eval/corpus/deploy-pipeline";
import { moreBugStripeWebhookSignature } from "../eval/corpus/more-bug-stripe-webhook-signature";
import { moreMigSpringBoot3 } from "../eval/corpus/more-mig-spring-boot-3";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The user checks what was read before anything is planned (issue 38): a project created with
 * review_reading waits in awaiting_review, its reading is read and corrected over /api and MCP, and
 * planning (and its use of the monthly allowance) starts only when the user says plan. An unchanged
 * reading plans exactly as planning without a check.
 */

const PRD = `# Shared shopping list

- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online

Out of scope: a web version.`;

type Item = { id: string | null; text: string; role: string };
type Reading = {
  project_id: string;
  status: string;
  kind: string;
  kind_reasons: string[];
  kinds: { id: string; label: string }[];
  items: Item[];
};
type Node = TreeNode & { requirement_ids: string[] };

let server: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startTestServer({
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    API_TOKEN_REQUESTS_PER_MINUTE: "5000",
    // What is counted when: the offline planner here counts as a model would (usage-limits.test.ts).
    MONTHLY_LIMIT_ALL_PLANNING: "true",
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
});

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, user: reg.user as { id: string } };
}

const used = async (client: TestClient) => (await client.get("/api/tasks/usage")).json.used as number;
const edit = (r: Reading) => r.items.map(({ text, role }) => ({ text, role }));

async function waiting(client: TestClient, description = PRD) {
  const made = await client.post("/api/tasks", { description, review_reading: true, max_depth: 2 });
  expect(made.status).toBe(201);
  expect(made.json.status).toBe("awaiting_review");
  return made.json.id as string;
}

async function planned(client: TestClient, id: string) {
  await waitForStatus(client, id, ["completed"], 40_000);
  return flatten((await client.get(`/api/tasks/${id}/tree`)).json as Node) as Node[];
}

describe("a project created with review_reading", () => {
  it("is read, not planned, and uses nothing of the allowance until the user plans it", async () => {
    const { client } = await signedIn();
    const id = await waiting(client);
    expect(await used(client)).toBe(0);
    // Nothing is planned while it waits.
    await new Promise((r) => setTimeout(r, 300));
    const task = (await client.get(`/api/tasks/${id}`)).json;
    expect(task.status).toBe("awaiting_review");
    expect((await client.get(`/api/tasks/${id}/tree`)).json.children).toEqual([]);
    expect((await client.get("/api/tasks/stats")).json).toMatchObject({ total: 1, pending: 1 });
    // Its page already says what was read.
    expect(task.stated_scope.requirements.map((r: { id: string }) => r.id)).toEqual(["R1", "R2", "R3"]);

    const reading = (await client.get(`/api/tasks/${id}/reading`)).json as Reading;
    expect(reading.kind).toBe("product");
    expect(reading.kind_reasons.length).toBeGreaterThan(0);
    expect(reading.kinds.map((k) => k.id)).toEqual([
      "product",
      "feature",
      "bug",
      "performance",
      "migration",
      "infrastructure",
      "data",
      "spike",
    ]);
    expect(reading.items.filter((i) => i.role === "work").map((i) => i.id)).toEqual(["R1", "R2", "R3"]);
    expect(reading.items).toContainEqual({ id: null, text: "a web version", role: "non_goal" });
  });

  it("plans the corrected reading: every work item covered, nothing else a leaf, the chosen kind", async () => {
    const { client } = await signedIn();
    const id = await waiting(client);
    const reading = (await client.get(`/api/tasks/${id}/reading`)).json as Reading;
    const items = edit(reading);
    // The second requirement is a constraint, not work; a work item is added; "offline" is split in two.
    items[1]!.role = "constraint";
    const offline = items.findIndex((i) => i.text.startsWith("Lists work offline"));
    items.splice(
      offline,
      1,
      { text: "Lists work offline", role: "work" },
      { text: "Lists sync when back online", role: "work" },
    );
    items.push({ text: "Admins can export every list as CSV", role: "work" });
    const put = await client.request("PUT", `/api/tasks/${id}/reading`, { kind: "feature", items });
    expect(put.status).toBe(200);
    const after = put.json as Reading;
    expect(after.kind).toBe("feature");
    expect(after.kind_reasons).toEqual(["you chose it when you checked the reading"]);
    expect(after.items.filter((i) => i.role === "work")).toEqual([
      { id: "R1", text: items[0]!.text, role: "work" },
      { id: "R2", text: "Lists work offline", role: "work" },
      { id: "R3", text: "Lists sync when back online", role: "work" },
      { id: "R4", text: "Admins can export every list as CSV", role: "work" },
    ]);
    // Read back as stored.
    expect((await client.get(`/api/tasks/${id}/reading`)).json).toEqual(after);
    expect(await used(client)).toBe(0);

    const plan = await client.post(`/api/tasks/${id}/plan`);
    expect(plan.status).toBe(200);
    expect(["pending", "processing", "completed"]).toContain(plan.json.status);
    expect(await used(client)).toBe(1);
    const nodes = await planned(client, id);
    const leaves = nodes.filter((n) => n.children.length === 0);
    const covered = new Set(leaves.flatMap((n) => n.requirement_ids));
    expect([...covered].sort()).toEqual(["R1", "R2", "R3", "R4"]);
    const constraint = items[1]!.text;
    expect(leaves.some((n) => n.description.includes(constraint.slice(0, 30)))).toBe(false);
    expect(leaves.some((n) => /web version/i.test(n.description))).toBe(false);
    // The chosen kind's shape: a feature on what exists maps the code it touches and rolls out; no stack choice.
    expect(nodes.some((n) => /^Map the code and data the change touches/.test(n.description))).toBe(true);
    expect(nodes.some((n) => /^Roll out the change/.test(n.description))).toBe(true);
    expect(nodes.some((n) => /choose .*stack/i.test(n.description))).toBe(false);
    const root = (await client.get(`/api/tasks/${id}`)).json;
    expect(root.stated_scope.planned_as).toMatchObject({ kind: "feature", because: after.kind_reasons });
    expect(root.stated_scope.constraints).toContain(constraint);
    expect(root.stated_scope.requirements.map((r: { text: string }) => r.text)).toContain(
      "Admins can export every list as CSV",
    );

    // Planned: the reading is what it was planned from, and no longer changes.
    const again = await client.request("PUT", `/api/tasks/${id}/reading`, { kind: "bug", items });
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/awaiting_review/);
    expect((await client.post(`/api/tasks/${id}/plan`)).status).toBe(409);
    expect(((await client.get(`/api/tasks/${id}/reading`)).json as Reading).kind).toBe("feature");
    expect(await used(client)).toBe(1);
  });

  it("plans an unchanged reading exactly as planning without a check, for several kinds", async () => {
    const { client } = await signedIn();
    for (const c of [deployPipeline, moreBugStripeWebhookSignature, moreMigSpringBoot3]) {
      const plain = await client.post("/api/tasks", { description: c.description, max_depth: 2 });
      expect(plain.status).toBe(201);
      const id = await waiting(client, c.description);
      const reading = (await client.get(`/api/tasks/${id}/reading`)).json as Reading;
      expect(
        (
          await client.request("PUT", `/api/tasks/${id}/reading`, {
            kind: reading.kind,
            items: edit(reading),
          })
        ).status,
      ).toBe(200);
      expect((await client.post(`/api/tasks/${id}/plan`)).status).toBe(200);
      const shape = (nodes: Node[]) =>
        nodes.map((n) => [n.depth, n.description.split("\n")[0], n.requirement_ids]);
      const [a, b] = [await planned(client, plain.json.id), await planned(client, id)];
      expect(shape(b), c.id).toEqual(shape(a));
      const scopeOf = async (x: string) => (await client.get(`/api/tasks/${x}`)).json.stated_scope;
      expect(await scopeOf(id), c.id).toEqual(await scopeOf(plain.json.id));
    }
  });

  it("names each bad field, bounds the reading, and answers only its owner", async () => {
    const { client } = await signedIn();
    const id = await waiting(client);
    const reading = (await client.get(`/api/tasks/${id}/reading`)).json as Reading;
    const items = edit(reading);
    const bad = async (body: unknown) => {
      const res = await client.request("PUT", `/api/tasks/${id}/reading`, body);
      expect(res.status).toBe(422);
      return res.json as { detail: string; errors: { field: string; message: string }[] };
    };
    const wrongRole = items.map((i, n) => (n === 3 ? { ...i, role: "task" } : i));
    expect((await bad({ kind: "product", items: wrongRole })).errors).toContainEqual({
      field: "items.3.role",
      message: expect.stringMatching(/role must be one of work, context, non_goal/),
    });
    const empty = items.map((i, n) => (n === 1 ? { ...i, text: "   " } : i));
    expect((await bad({ kind: "product", items: empty })).errors.map((e) => e.field)).toEqual([
      "items.1.text",
    ]);
    const long = items.map((i, n) => (n === 0 ? { ...i, text: "x".repeat(2001) } : i));
    expect((await bad({ kind: "product", items: long })).errors[0]).toMatchObject({
      field: "items.0.text",
      message: expect.stringMatching(/at most 2,000 characters/),
    });
    expect((await bad({ kind: "novel", items })).errors[0]!.field).toBe("kind");
    const many = Array.from({ length: 301 }, (_, n) => ({ text: `Item ${n}`, role: "work" }));
    expect((await bad({ kind: "product", items: many })).errors[0]).toMatchObject({
      field: "items",
      message: "A reading has at most 300 items",
    });
    const noWork = items.map((i) => ({ ...i, role: "context" }));
    expect((await bad({ kind: "product", items: noWork })).detail).toMatch(/at least one work item/);
    expect(
      (await bad({ kind: "product", items: [{ text: "x", role: "work", id: "R1" }] })).errors[0]!.field,
    ).toBe("items.0");

    // Another user's project is not found, as everywhere.
    const { client: stranger } = await signedIn();
    expect((await stranger.get(`/api/tasks/${id}/reading`)).status).toBe(404);
    expect(
      (await stranger.request("PUT", `/api/tasks/${id}/reading`, { kind: "product", items })).status,
    ).toBe(404);
    expect((await stranger.post(`/api/tasks/${id}/plan`)).status).toBe(404);
    expect(((await client.get(`/api/tasks/${id}`)).json as { status: string }).status).toBe(
      "awaiting_review",
    );

    // Its status is not set by hand before it is planned.
    const complete = await client.post(`/api/tasks/${id}/complete`);
    expect(complete.status).toBe(409);
    expect(complete.json.detail).toMatch(/not planned yet/);
    // A new description waiting for its check is read again.
    const edited = await client.request("PATCH", `/api/tasks/${id}`, {
      description: "# Shopping list\n\n- Users can share lists\n- Users can print lists",
    });
    expect(edited.status).toBe(200);
    const reread = (await client.get(`/api/tasks/${id}/reading`)).json as Reading;
    expect(reread.items.map((i) => [i.id, i.text])).toEqual([
      ["R1", "Users can share lists"],
      ["R2", "Users can print lists"],
    ]);

    // Restarting has nothing to restart; deleting drops it.
    const restart = await client.post(`/api/tasks/${id}/restart-decomposition`);
    expect(restart.status).toBe(409);
    expect(restart.json.detail).toMatch(/not been planned yet/);
    expect(await used(client)).toBe(0);
    expect((await client.request("DELETE", `/api/tasks/${id}`)).status).toBe(200);
    expect((await client.get(`/api/tasks/${id}/reading`)).status).toBe(404);
  });

  it(`holds at most ${AWAITING_REVIEW_MAX} projects waiting per user, and counts a plan against the monthly limit`, async () => {
    const { client, user } = await signedIn();
    const ids: string[] = [];
    for (let i = 0; i < AWAITING_REVIEW_MAX; i++)
      ids.push(await waiting(client, `Project ${i}: a todo app with tags`));
    const over = await client.post("/api/tasks", { description: "One too many", review_reading: true });
    expect(over.status).toBe(409);
    expect(over.json.detail).toMatch(/already have 20 projects waiting/);
    // Planned at once, a project is not held.
    expect((await client.post("/api/tasks", { description: "Planned at once", max_depth: 1 })).status).toBe(
      201,
    );

    const period = new Date().toISOString().slice(0, 7);
    await server.deps.database.rows(
      sql`update users set tasks_created_this_month = monthly_task_limit, usage_period = ${period} where id = ${user.id}`,
    );
    const refused = await client.post(`/api/tasks/${ids[0]}/plan`);
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toMatch(/^You have reached your monthly limit of \d+ projects/);
    expect((await client.get(`/api/tasks/${ids[0]}`)).json.status).toBe("awaiting_review");
  });
});

describe("over MCP", () => {
  async function agent(scope: "read" | "write", client: TestClient) {
    const made = await client.post("/api/tokens", { name: `agent-${scope}`, scope, expires_in_days: 30 });
    expect(made.status).toBe(201);
    const mcp = await connectMcp(server.url, made.json.token as string);
    clients.push(mcp);
    return mcp;
  }

  it("creates for review, corrects the reading and plans with the same operations; a read token only reads", async () => {
    const { client } = await signedIn();
    const writer = await agent("write", client);
    const made = await callTool(writer, "create_project", {
      description: PRD,
      review_reading: true,
      max_depth: 2,
    });
    expect(made).toMatchObject({ status: "awaiting_review", reading: { kind: "product" } });
    const id = made.id as string;
    const reading = (await callTool(writer, "get_reading", { project_id: id })) as Reading;
    expect(reading.items.filter((i) => i.role === "work")).toHaveLength(3);

    const reader = await agent("read", client);
    expect((await callTool(reader, "get_reading", { project_id: id })).items).toEqual(reading.items);
    expect(
      await toolError(reader, "set_reading", { project_id: id, kind: "product", items: edit(reading) }),
    ).toMatch(/read-only|read only|scope/i);
    expect(await toolError(reader, "plan_project", { project_id: id })).toMatch(/read-only|read only|scope/i);

    const items = edit(reading);
    items[2]!.role = "question";
    expect(
      await toolError(writer, "set_reading", {
        project_id: id,
        kind: "product",
        items: [{ text: "x", role: "job" }],
      }),
    ).toMatch(/items\.0\.role/);
    const set = await callTool(writer, "set_reading", { project_id: id, kind: "infrastructure", items });
    expect(set.kind).toBe("infrastructure");
    expect(set.items.filter((i: Item) => i.role === "work").map((i: Item) => i.id)).toEqual(["R1", "R2"]);
    expect(await used(client)).toBe(0);
    expect(await callTool(writer, "plan_project", { project_id: id })).toMatchObject({ id });
    expect(await used(client)).toBe(1);
    const nodes = await planned(client, id);
    const covered = new Set(nodes.filter((n) => n.children.length === 0).flatMap((n) => n.requirement_ids));
    expect([...covered].sort()).toEqual(["R1", "R2"]);
    expect((await client.get(`/api/tasks/${id}`)).json.stated_scope.planned_as.kind).toBe("infrastructure");
    expect(await toolError(writer, "plan_project", { project_id: id })).toMatch(/awaiting_review/);
  });

  it("lets a coding agent plan a checked reading itself", async () => {
    const { client } = await signedIn();
    const writer = await agent("write", client);
    const made = await callTool(writer, "create_project", {
      description: PRD,
      planner: "agent",
      review_reading: true,
    });
    expect(made.status).toBe("awaiting_review");
    expect(await toolError(writer, "next_planning_step", { project_id: made.id })).toMatch(/plan_project/);
    const reading = (await callTool(writer, "get_reading", { project_id: made.id })) as Reading;
    const items = edit(reading).filter((i) => i.role !== "work" || !i.text.startsWith("Lists work offline"));
    await callTool(writer, "set_reading", { project_id: made.id, kind: reading.kind, items });
    const planning = await callTool(writer, "plan_project", { project_id: made.id });
    expect(planning).toMatchObject({ id: made.id, status: "processing", step: { done: false } });
    // The step's brief lists the checked requirements, not the dropped one, and says they were corrected.
    const brief = planning.step.brief as string;
    expect(brief).toContain(`- R2: ${items[1]!.text}`);
    expect(brief).not.toContain("- R3:");
    expect(brief).toMatch(/checked and corrected what was read/);
  });
});
