import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IntegrationError } from "../../src/server/integrations/errors";
import type { ExportPlan } from "../../src/server/services/exports/tracker";
import type { Exporter } from "../../src/server/services/exports/tracker-deps";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The export runner drives every target through one interface (services/exports/runner.ts): `prepare`
 * checks credentials and options and plans the writes, then `run` performs them. A refusal in `prepare`
 * leaves the target untouched.
 */
let github: FakeGitHub;
let server: TestServer;

beforeAll(async () => {
  github = await startFakeGitHub();
  github.addRepo({ owner: "ada", name: "plans", readme: "# Plans", files: ["README.md"] });
  github.addRepo({ owner: "bob", name: "theirs", readme: "# Bob's", files: ["README.md"] });
  github.addToken({ token: "ghp_classic_ok", login: "ada", scopes: ["repo", "read:user"] });
  server = await startTestServer({ GITHUB_API_URL: github.url });
});
afterAll(async () => {
  // Every request this suite made to GitHub must follow GitHub's own OpenAPI description.
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await github?.close();
});

async function connectedOwner() {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2 });
  expect((await client.post("/api/github/connect", { access_token: "ghp_classic_ok" })).status).toBe(200);
  return { client, rootId };
}

describe("the export runner", () => {
  it("calls the target's prepare, then run with the plan prepare returned, and nothing else", async () => {
    const { client, rootId } = await connectedOwner();
    const calls: string[] = [];
    type Plan = ExportPlan & { repository: string };
    const recording: Exporter<Plan> = {
      async prepare(ctx) {
        calls.push(`prepare ${ctx.config.repository}`);
        return { repository: String(ctx.config.repository), writes: { issues: ctx.tree.children.length } };
      },
      async run(ctx, plan) {
        calls.push(`run ${plan.repository}`);
        await ctx.progress("issue_creation", 50, "Half-way");
        return { planned: plan.writes.issues };
      },
    };
    const real = server.deps.trackers.github;
    server.deps.trackers.github = { ...real, exporter: recording };
    try {
      const started = await client.post("/api/github/start-export", {
        task_id: rootId,
        config: { repository: "ada/plans" },
      });
      const done = await waitForExport(client, started.json.export_id);
      expect(done.status).toBe("completed");
      expect(done.result).toEqual({ planned: 2 });
      expect(calls).toEqual(["prepare ada/plans", "run ada/plans"]);
    } finally {
      server.deps.trackers.github = real;
    }
  });

  it("fails an export whose prepare refuses, without calling run", async () => {
    const { client, rootId } = await connectedOwner();
    let ran = false;
    const real = server.deps.trackers.github;
    server.deps.trackers.github = {
      ...real,
      exporter: {
        async prepare() {
          throw new IntegrationError("The target refused the plan.", 400);
        },
        async run() {
          ran = true;
          return {};
        },
      },
    };
    try {
      const started = await client.post("/api/github/start-export", {
        task_id: rootId,
        config: { repository: "ada/plans" },
      });
      const done = await waitForExport(client, started.json.export_id);
      expect(done).toMatchObject({ status: "failed", error: "The target refused the plan." });
      expect(ran).toBe(false);
    } finally {
      server.deps.trackers.github = real;
    }
  });

  it("GitHub: a repository the token cannot push to is refused in prepare, before any write", async () => {
    const { client, rootId } = await connectedOwner();
    const started = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "bob/theirs" },
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done).toMatchObject({
      status: "failed",
      error: "The repository was not found, or the connected token cannot write to it.",
    });
    const writes = github.requests.filter((r) => r.method !== "GET" && r.path.startsWith("/repos/bob/"));
    expect(writes).toEqual([]);
    expect(github.issues("bob", "theirs")).toEqual([]);
  });
});
