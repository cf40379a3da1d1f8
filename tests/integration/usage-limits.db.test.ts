import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

// Every request that starts a decomposition uses one of the monthly task allowance (decision 009):
// creating a task, restarting a decomposition, resubmitting a rejected plan, adding a task with
// auto_decompose. No job worker: these tests pin the accounting, not the pipeline. The operator counts all
// planning here (MONTHLY_LIMIT_ALL_PLANNING): the offline planner these servers run then counts as a model
// would; what the default counts is the last describe's.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    JOBS_ENABLED: "false",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    MONTHLY_LIMIT_ALL_PLANNING: "true",
  });
});
afterAll(() => server?.stop());

const LIMIT_REACHED =
  /^You have reached your monthly limit of 10 projects\. It resets on [A-Z][a-z]+ 1\..* Admins have no limit: the operator names them in ADMIN_EMAILS or runs npm run make-admin -- <email>\.$/;
const period = () => new Date().toISOString().slice(0, 7);

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, trpc: trpcHttp(client), user: reg.user };
}

async function setUsed(userId: string, used: number) {
  await server.deps.database.rows(
    sql`update users set tasks_created_this_month = ${used}, usage_period = ${period()} where id = ${userId}`,
  );
}

async function used(client: TestClient): Promise<number> {
  return (await client.get("/api/tasks/usage")).json.used as number;
}

describe("the monthly limit counts every decomposition (REST)", () => {
  it("counts a restart and an auto-decomposed added task, but not a manual one", async () => {
    const { client, user } = await signedIn();
    const root = (await client.post("/api/tasks", { description: "Counted project" })).json.id as string;
    expect(await used(client)).toBe(1);
    expect((await client.post(`/api/tasks/${root}/restart-decomposition`)).status).toBe(200);
    expect(await used(client)).toBe(2);
    const auto = await client.post(`/api/tasks/${root}/add-task`, {
      description: "Split me",
      position: "child",
    });
    expect(auto.status).toBe(201);
    expect(await used(client)).toBe(3);
    const manual = await client.post(`/api/tasks/${root}/add-task`, {
      description: "Just a note",
      position: "child",
      auto_decompose: false,
    });
    expect(manual.status).toBe(201);
    expect(await used(client)).toBe(3);
    // Restarting a subtask's decomposition counts too.
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
    const child = (await client.get(`/api/tasks/${rootId}/tree`)).json.children[0].id as string;
    expect((await client.post(`/api/tasks/${child}/restart-decomposition`)).status).toBe(200);
    expect(await used(client)).toBe(4);
    expect((await client.get("/api/auth/me")).json.tasks_created_this_month).toBe(4);
  });

  it("refuses a restart at the limit with the limit-reached error and leaves the task as it was", async () => {
    const { client, user } = await signedIn();
    const { rootId, count } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
    await setUsed(user.id, 10);
    const res = await client.post(`/api/tasks/${rootId}/restart-decomposition`);
    expect(res.status).toBe(429);
    expect(res.json.detail).toMatch(LIMIT_REACHED);
    const task = (await client.get(`/api/tasks/${rootId}`)).json;
    expect(task).toMatchObject({ status: "completed", total_subtasks: count - 1 });
    expect(await used(client)).toBe(10);
    const jobs = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from jobs where group_key = ${rootId}`,
    );
    expect(jobs[0]!.n).toBe(0);
  });

  it("refuses an auto-decomposed added task at the limit (saying how to add it anyway) but not a manual one", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 1, depth: 1 });
    await setUsed(user.id, 10);
    const auto = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "More",
      position: "child",
    });
    expect(auto.status).toBe(429);
    expect(auto.json.detail).toMatch(LIMIT_REACHED);
    expect(auto.json.detail).toMatch(
      /You can still add the task without automatic decomposition\. Admins have no limit/,
    );
    expect((await client.get(`/api/tasks/${rootId}`)).json.total_subtasks).toBe(1);
    const manual = await client.post(`/api/tasks/${rootId}/add-task`, {
      description: "More",
      position: "child",
      auto_decompose: false,
    });
    expect(manual.status).toBe(201);
    expect(await used(client)).toBe(10);
  });

  it("refuses resubmitting a rejected plan at the limit", async () => {
    const { client, user } = await signedIn();
    const id = (await client.post("/api/tasks", { description: "Plan to reject" })).json.id as string;
    expect((await client.post(`/api/tasks/${id}/reject`, { reason: "Not like this" })).status).toBe(200);
    await setUsed(user.id, 10);
    const res = await client.post(`/api/tasks/${id}/resubmit`, { description: "Plan, take two" });
    expect(res.status).toBe(429);
    expect(res.json.detail).toMatch(LIMIT_REACHED);
    expect((await client.get(`/api/tasks/${id}`)).json).toMatchObject({
      status: "rejected",
      description: "Plan to reject",
    });
    await setUsed(user.id, 9);
    expect((await client.post(`/api/tasks/${id}/resubmit`, { description: "Plan, take two" })).status).toBe(
      200,
    );
    expect(await used(client)).toBe(10);
  });

  it("lets exactly the remaining allowance through when restarts race", async () => {
    const { client, user } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 1, depth: 1 });
    await setUsed(user.id, 8);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => client.post(`/api/tasks/${rootId}/restart-decomposition`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await used(client)).toBe(10);
  });

  it("never limits admins, and still counts their use", async () => {
    const { client, user } = await signedIn();
    await server.deps.database.rows(sql`update users set role = 'admin' where id = ${user.id}`);
    const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 1, depth: 1 });
    await setUsed(user.id, 25);
    expect((await client.post(`/api/tasks/${rootId}/restart-decomposition`)).status).toBe(200);
    expect(
      (await client.post(`/api/tasks/${rootId}/add-task`, { description: "x", position: "child" })).status,
    ).toBe(201);
    expect((await client.get("/api/tasks/usage")).json).toMatchObject({ used: 27, limit: null });
  });
});

describe("the same rule over tRPC", () => {
  it("counts restarts and auto-decomposed additions, and refuses them at the limit with TOO_MANY_REQUESTS", async () => {
    const { client, trpc, user } = await signedIn();
    const created = await trpc.tasks.create.mutate({ description: "Counted over tRPC" });
    await trpc.tasks.restartDecomposition.mutate({ id: created.id });
    await trpc.tasks.addTask.mutate({ id: created.id, task: { description: "Child", position: "child" } });
    await trpc.tasks.addTask.mutate({
      id: created.id,
      task: { description: "Manual child", position: "child", auto_decompose: false },
    });
    expect(await trpc.tasks.usage.query()).toMatchObject({ used: 3, limit: 10 });

    await setUsed(user.id, 10);
    const restart = await trpcError(trpc.tasks.restartDecomposition.mutate({ id: created.id }));
    expect(restart.data).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429 });
    expect(restart.message).toMatch(LIMIT_REACHED);
    const add = await trpcError(
      trpc.tasks.addTask.mutate({ id: created.id, task: { description: "One more", position: "child" } }),
    );
    expect(add.data).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429 });
    const create = await trpcError(trpc.tasks.create.mutate({ description: "Over the limit" }));
    expect(create.data.code).toBe("TOO_MANY_REQUESTS");
    expect(await used(client)).toBe(10);
    // The task is untouched by the refused restart: its children are still there.
    expect((await trpc.tasks.get.query({ id: created.id })).total_subtasks).toBe(2);
  });
});

describe("by default, only planning with a model counts (issue 40)", () => {
  let llm: FakeOpenAI;
  let offline: TestServer;
  let withModel: TestServer;
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    const common = { JOBS_ENABLED: "false", REGISTRATIONS_PER_IP_PER_HOUR: "1000" };
    offline = await startTestServer(common);
    withModel = await startTestServer({
      ...common,
      OPENAI_API_KEY: llm.apiKey,
      OPENAI_BASE_URL: llm.url,
      LLM_MODEL: "fake-gpt",
    });
  });
  afterAll(async () => {
    await offline?.stop();
    await withModel?.stop();
    await llm?.close();
  });

  it("does not count the offline planner or a coding agent's planning, and says so", async () => {
    const client = new TestClient(offline.url);
    const { user } = await registerUser(client);
    await offline.deps.database.rows(
      sql`update users set tasks_created_this_month = 10, usage_period = ${period()} where id = ${user.id}`,
    );
    expect((await client.get("/api/tasks/usage")).json).toMatchObject({
      used: 10,
      limit: 10,
      counts_now: false,
    });
    const outlined = await client.post("/api/tasks", { description: "An outline costs nothing" });
    expect(outlined.status, outlined.text).toBe(201);
    const byAgent = await client.post("/api/tasks", { description: "My agent plans this", planner: "agent" });
    expect(byAgent.status, byAgent.text).toBe(201);
    expect((await client.get("/api/tasks/usage")).json.used).toBe(10);
  });

  it("counts planning with a model, and names the way out at the limit", async () => {
    const client = new TestClient(withModel.url);
    const { user } = await registerUser(client);
    expect((await client.get("/api/tasks/usage")).json).toMatchObject({ used: 0, counts_now: true });
    expect((await client.post("/api/tasks", { description: "Planned by the model" })).status).toBe(201);
    expect((await client.get("/api/tasks/usage")).json.used).toBe(1);
    await withModel.deps.database.rows(
      sql`update users set tasks_created_this_month = 10, usage_period = ${period()} where id = ${user.id}`,
    );
    const refused = await client.post("/api/tasks", { description: "One too many" });
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toMatch(
      /^You have reached your monthly limit of 10 projects planned with a model\. It resets on [A-Z][a-z]+ 1\. The offline planner and your coding agent's own planning do not count\. Admins have no limit: the operator names them in ADMIN_EMAILS or runs npm run make-admin -- <email>\.$/,
    );
    // A coding agent's planning still goes through.
    expect((await client.post("/api/tasks", { description: "Agent", planner: "agent" })).status).toBe(201);
  });
});
