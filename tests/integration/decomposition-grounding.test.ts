import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrationCredentials } from "../../src/server/db/schema/index";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

let llm: FakeOpenAI;
let github: FakeGitHub;
let server: TestServer;
beforeAll(async () => {
  llm = await startFakeOpenAI();
  github = await startFakeGitHub();
  github.addRepo({
    owner: "acme",
    name: "shop",
    readme: "# Acme Shop\n\nA Django storefront using Stripe for payments and Celery for emails.",
    files: ["manage.py", "shop/models.py", "shop/views.py", "payments/stripe.py", "requirements.txt"],
  });
  github.addRepo({
    owner: "acme",
    name: "secret",
    private: true,
    readme: "# Top secret roadmap",
    files: ["plan.md"],
  });
  github.addToken({
    token: "ghp_connected",
    login: "ada",
    scopes: ["repo", "read:user"],
    canSee: ["acme/secret"],
  });
  server = await startTestServer({
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    GITHUB_API_URL: github.url,
  });
});
afterAll(async () => {
  // Every request this suite made to GitHub must follow GitHub's own OpenAPI description.
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await llm?.close();
  await github?.close();
});

const userPrompts = () => llm.requests.map((r) => r.messages.at(-1)!.content).join("\n");

describe("grounding in a linked GitHub repository (context_fetch)", () => {
  it("feeds a bounded summary of the README and file tree to the planner", async () => {
    llm.reset();
    const client = new TestClient(server.url);
    await registerUser(client);
    const created = await client.post("/api/tasks", {
      description: "Add a loyalty programme to our shop",
      max_depth: 1,
      tech_preferences: { github_repo: "https://github.com/acme/shop" },
    });
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.warnings).toEqual([]);
    const prompts = userPrompts();
    expect(prompts).toContain("A Django storefront using Stripe for payments");
    expect(prompts).toContain("payments/stripe.py");
    // Mapped (issue 42): the stack its manifests name, and the files nearest each task with how to answer them.
    expect(prompts).toContain("Files of the repository most likely near this task");
    expect(prompts).toMatch(/shop\/(models|views)\.py/);
    expect(
      github.requests.some((r) => r.path.includes("/git/trees/") && r.path.includes("recursive=1")),
    ).toBe(true);
  });

  it("gives the summary to every stage: deeper splits and the composer, not only the first level", async () => {
    llm.reset();
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth <= 1 ? 9 : 3) });
    const client = new TestClient(server.url);
    await registerUser(client);
    const created = await client.post("/api/tasks", {
      description: "Add gift cards to our shop",
      max_depth: 2,
      tech_preferences: { github_repo: "https://github.com/acme/shop" },
    });
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    const lastUser = (r: (typeof llm.requests)[number]) => r.messages.at(-1)!.content;
    const deeper = llm.requests.filter(
      (r) => r.schemaName === "subtask_plan" && /Depth: 1 of/.test(lastUser(r)),
    );
    const composer = llm.requests.filter(
      (r) => r.schemaName === "project_context" || r.schemaName === "event_model",
    );
    expect(deeper.length).toBeGreaterThan(0);
    expect(composer).toHaveLength(2);
    for (const r of [...deeper, ...composer])
      expect(lastUser(r)).toContain("A Django storefront using Stripe");
    // Every subtask names files: the model's own, kept only where the repository has them or as new files.
    const tree = (await client.get(`/api/tasks/${created.json.id}/tree`)).json;
    const nodes: { files: { path: string; new: boolean }[]; children: unknown[] }[] = [];
    const walk = (n: (typeof nodes)[number]) => {
      nodes.push(n);
      (n.children as (typeof nodes)[number][]).forEach(walk);
    };
    tree.children.forEach(walk);
    const existing = [
      "manage.py",
      "shop/models.py",
      "shop/views.py",
      "payments/stripe.py",
      "requirements.txt",
      "README.md",
    ];
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) {
      expect(n.files.length).toBeGreaterThan(0);
      for (const f of n.files) expect(f.new || existing.includes(f.path), f.path).toBe(true);
    }
  });

  it("treats a missing or private repository as a warning, not a failure", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    const created = await client.post("/api/tasks", {
      description: "Plan around a private repo",
      max_depth: 1,
      tech_preferences: { github_repo: "https://github.com/acme/secret" },
    });
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.warnings).toEqual([
      "The repository acme/secret was not found or is private (connect GitHub in Settings to read private repositories); the plan was made without it.",
    ]);
  });

  it("reads a private repository with the user's connected token", async () => {
    llm.reset();
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    // The GitHub connection (issue 5) stores the token encrypted; store it the same way here.
    await server.deps.db.insert(integrationCredentials).values({
      userId: user.id,
      provider: "github",
      secretCiphertext: server.deps.vault.encrypt(JSON.stringify({ token: "ghp_connected" })),
      publicData: { login: "ada" },
    });
    const created = await client.post("/api/tasks", {
      description: "Plan around a private repo, connected",
      max_depth: 1,
      tech_preferences: { github_repo: "https://github.com/acme/secret" },
    });
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.warnings).toEqual([]);
    expect(userPrompts()).toContain("Top secret roadmap");
    expect(github.requests.filter((r) => r.auth === "Bearer ghp_connected").length).toBeGreaterThan(0);
  });

  it("warns when GitHub is down", async () => {
    github.setMode("server_error", { times: 3 });
    const client = new TestClient(server.url);
    await registerUser(client);
    const created = await client.post("/api/tasks", {
      description: "GitHub outage",
      max_depth: 1,
      tech_preferences: { github_repo: "https://github.com/acme/shop" },
    });
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.warnings[0]).toMatch(/GitHub answered 502 for acme\/shop|could not be reached/);
    github.setMode("ok");
  });
});
