import { createHmac, randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Requirement traceability (issue 33): each requirement a plan's description states, the tasks covering
 * it, their status and tracker links, and the pull requests closing their GitHub issues, over /api and
 * MCP; a requirement no task covers is flagged. A pull request merged on GitHub with "Closes #n" closes
 * the issue there, and "Sync now" brings the completion back and lists the pull request under its
 * requirement.
 */

const PRD = `# Shared shopping list

## Scope (v1)
- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online
`;

type Link = { kind: string; key: string; url: string; status: string | null };
type Requirement = {
  id: string;
  text: string;
  status: string;
  leaves_done: number;
  leaves_total: number;
  tasks: { id: string; title: string; status: string; leaves_total: number; remote_links: Link[] }[];
  pull_requests: { number: number; title: string; url: string; state: string; repository: string }[];
};
type Answer = {
  project_id: string;
  project_title: string;
  requirements: Requirement[];
  totals: { requirements: number; done: number; not_done: number; without_tasks: number };
};
type Node = TreeNode & { requirement_ids: string[]; remote_links?: Link[] };

let server: TestServer;
let github: FakeGitHub;
const clients: Client[] = [];

beforeAll(async () => {
  github = await startFakeGitHub();
  github.addToken({ token: "ghp_trace", login: "ada", scopes: ["repo"] });
  github.setContentLimits({ perMinute: 1000 });
  server = await startTestServer({
    GITHUB_API_URL: github.url,
    GITHUB_WRITE_INTERVAL_MS: "5",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    API_TOKEN_REQUESTS_PER_MINUTE: "5000",
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await github?.close();
});

async function planned(description = PRD) {
  const client = new TestClient(server.url);
  await registerUser(client);
  const made = await client.post("/api/tasks", { description, max_depth: 2 });
  expect(made.status).toBe(201);
  await waitForStatus(client, made.json.id, ["completed"], 40_000);
  const tree = (await client.get(`/api/tasks/${made.json.id}/tree`)).json as Node;
  return { client, id: made.json.id as string, nodes: flatten(tree) as Node[] };
}

const requirementsOf = async (client: TestClient, id: string) => {
  const res = await client.get(`/api/tasks/${id}/requirements`);
  expect(res.status).toBe(200);
  return res.json as Answer;
};

async function mcpFor(client: TestClient, scope: "read" | "write" = "read") {
  const made = await client.post("/api/tokens", { name: `agent-${scope}`, scope, expires_in_days: 30 });
  expect(made.status).toBe(201);
  const agent = await connectMcp(server.url, made.json.token as string);
  clients.push(agent);
  return agent;
}

describe("the requirements of a plan", () => {
  it("lists each stated requirement with its tasks and status, the same over /api and MCP, from any task of the plan", async () => {
    const { client, id, nodes } = await planned();
    const answer = await requirementsOf(client, id);
    expect(answer.project_id).toBe(id);
    expect(answer.project_title).toBe("# Shared shopping list");
    expect(answer.requirements.map((r) => [r.id, r.text])).toEqual([
      ["R1", "Users can create lists and invite family members by email"],
      ["R2", "Items can be ticked off and the change shows on every phone at once"],
      ["R3", "Lists work offline and sync when back online"],
    ]);
    expect(answer.totals).toEqual({ requirements: 3, done: 0, not_done: 3, without_tasks: 0 });
    for (const r of answer.requirements) {
      expect(r.status).toBe("not_started");
      expect(r.tasks.length).toBeGreaterThan(0);
      expect(r.leaves_total).toBeGreaterThan(0);
      expect(r.pull_requests).toEqual([]);
      // Each task listed names the requirement, as the tree shows it.
      for (const t of r.tasks) {
        const node = nodes.find((n) => n.id === t.id)!;
        expect(node.requirement_ids).toContain(r.id);
        expect(t).toMatchObject({ status: "pending", remote_links: [] });
        expect(node.description.startsWith(t.title.replace(/…$/, ""))).toBe(true);
      }
    }

    // Any task of the plan names the plan.
    const leaf = nodes.find((n) => n.children.length === 0)!;
    expect(await requirementsOf(client, leaf.id)).toEqual(answer);

    // Completing the work of R2 makes it done, and the totals follow.
    const r2 = answer.requirements[1]!;
    const below = (taskId: string): Node[] => flatten(nodes.find((n) => n.id === taskId)!) as Node[];
    for (const t of r2.tasks)
      for (const n of below(t.id).filter((x) => x.children.length === 0))
        expect((await client.post(`/api/tasks/${n.id}/complete`, {})).status).toBe(200);
    const after = await requirementsOf(client, id);
    expect(after.requirements[1]).toMatchObject({ status: "done", leaves_done: r2.leaves_total });
    expect(after.totals).toMatchObject({ done: 1, not_done: 2 });

    const agent = await mcpFor(client);
    expect(await callTool<Answer>(agent, "requirement_status", { project_id: leaf.id })).toEqual(after);
  });

  it("flags a requirement no task covers, and says so when the description states none", async () => {
    const { client, id } = await planned();
    const root = (await client.get(`/api/tasks/${id}`)).json as { description: string };
    const edited = await client.request("PATCH", `/api/tasks/${id}`, {
      description: `${root.description}\n- Members see who bought what`,
    });
    expect(edited.status).toBe(200);
    const answer = await requirementsOf(client, id);
    expect(answer.requirements.at(-1)).toMatchObject({
      id: "R4",
      text: "Members see who bought what",
      status: "no_tasks",
      tasks: [],
      leaves_total: 0,
    });
    expect(answer.totals).toEqual({ requirements: 4, done: 0, not_done: 4, without_tasks: 1 });

    const plain = await planned("Fix the typo on the about page");
    const none = await requirementsOf(plain.client, plain.id);
    expect(none.requirements.length).toBeLessThanOrEqual(1);
    expect(none.totals.requirements).toBe(none.requirements.length);
  });

  it("answers someone else's plan, ids that name no task and malformed ids with 404, never 500", async () => {
    const { client, id } = await planned();
    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    const theirs = await stranger.get(`/api/tasks/${id}/requirements`);
    expect(theirs.status).toBe(404);
    expect(theirs.json.detail).toBe("Task not found");
    expect((await client.get("/api/tasks/not-a-task/requirements")).status).toBe(404);
    expect((await client.get("/api/tasks/00000000-0000-4000-8000-000000000000/requirements")).status).toBe(
      404,
    );
    // Whatever cannot be a task's id is refused with a detail: no task by that name, or text no id holds.
    const refused: Array<[string, number]> = [];
    for (const bad of ["x".repeat(300), "%00", "..%2F..%2Fetc%2Fpasswd"]) {
      const res = await client.get(`/api/tasks/${bad}/requirements`);
      expect(typeof res.json.detail).toBe("string");
      refused.push([bad.slice(0, 3), res.status]);
    }
    expect(refused).toEqual([
      ["xxx", 404],
      ["%00", 422],
      ["..%", 404],
    ]);
    // A query string this route does not read changes nothing.
    expect((await client.get(`/api/tasks/${id}/requirements?extra=1`)).status).toBe(200);

    const agent = await mcpFor(stranger);
    expect(await toolError(agent, "requirement_status", { project_id: id })).toMatch(/Task not found/);
    expect(await toolError(agent, "requirement_status", {})).toMatch(/project_id/);
  });
});

describe("a plan exported to GitHub", () => {
  it("shows the issues under each task, and after Sync now the completion a merged pull request made and the pull request itself", async () => {
    github.addRepo({ owner: "ada", name: "shopping", files: ["README.md"] });
    const { client, id } = await planned();
    expect((await client.post("/api/github/connect", { access_token: "ghp_trace" })).status).toBe(200);
    const started = await client.post("/api/github/start-export", {
      task_id: id,
      config: { repository: "ada/shopping" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");

    const exported = await requirementsOf(client, id);
    const r1 = exported.requirements[0]!;
    for (const t of r1.tasks) {
      expect(t.remote_links).toHaveLength(1);
      expect(t.remote_links[0]).toMatchObject({ kind: "github", key: expect.stringMatching(/^#\d+$/) });
      expect(t.remote_links[0]!.url).toMatch(/^https:\/\/github\.com\/ada\/shopping\/issues\/\d+$/);
    }
    // The first task of R1 that is a work item: a person fixes it on GitHub with a pull request.
    const tree = (await client.get(`/api/tasks/${id}/tree`)).json as Node;
    const leaves = (flatten(tree) as Node[]).filter((n) => n.children.length === 0);
    const r1Leaves = leaves.filter((n) => n.requirement_ids.includes("R1"));
    const target = r1Leaves[0]!;
    const issue = Number(target.remote_links![0]!.key.slice(1));
    const pr = github.createPullRequest("ada", "shopping", {
      title: "Invite family members by email",
      body: `Sends the invitation mail.\n\nCloses #${issue}`,
    });
    // One that only mentions an issue links nothing, and one into another branch is not GitHub's link either.
    github.createPullRequest("ada", "shopping", { title: "Mentions", body: `See #${issue}` });
    github.createPullRequest("ada", "shopping", { title: "Elsewhere", body: `Fixes #${issue}`, base: "dev" });
    await github.setPullRequestState("ada", "shopping", pr.number, "merged");
    expect(github.issues("ada", "shopping").find((i) => i.number === issue)).toBeDefined();

    const synced = await client.post(`/api/tasks/${id}/sync`, {});
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ problems: [], changed: 1 });

    const after = await requirementsOf(client, id);
    const r1After = after.requirements[0]!;
    expect(r1After.pull_requests).toEqual([
      {
        number: pr.number,
        title: "Invite family members by email",
        url: pr.html_url,
        state: "merged",
        repository: "ada/shopping",
      },
    ]);
    expect(r1After.leaves_done).toBe(1);
    expect(r1After.status).toBe(r1Leaves.length === 1 ? "done" : "in_progress");
    const listed = r1After.tasks.find((t) => t.id === target.id);
    if (listed)
      expect(listed).toMatchObject({ status: "completed", remote_links: [{ status: "closed (completed)" }] });
    // Only the requirement whose work the pull request closes lists it.
    for (const r of after.requirements.slice(1))
      if (!target.requirement_ids.includes(r.id)) expect(r.pull_requests).toEqual([]);

    // The same over MCP, and in the plan's Markdown.
    const agent = await mcpFor(client);
    const viaMcp = await callTool<Answer>(agent, "requirement_status", { project_id: id });
    expect(viaMcp.requirements[0]!.pull_requests.map((p) => p.number)).toEqual([pr.number]);
    const plan = await agent.readResource({ uri: `atomize://plans/${id}` });
    const markdown = (plan.contents[0] as { text: string }).text;
    expect(markdown).toContain("## Requirements");
    expect(markdown).toContain(
      `**R1** Users can create lists and invite family members by email _(${r1After.status === "done" ? "done" : "in progress"}`,
    );

    // A later sync keeps one row per pull request.
    await client.post(`/api/tasks/${id}/sync`, {});
    expect((await requirementsOf(client, id)).requirements[0]!.pull_requests).toHaveLength(1);
  });

  it("takes GitHub's own closing links (GraphQL): one made by hand counts, a keyword in a list item does not; REST keywords where GraphQL is refused", async () => {
    github.addRepo({ owner: "ada", name: "linked-prs", files: ["README.md"] });
    const { client, id } = await planned();
    expect((await client.post("/api/github/connect", { access_token: "ghp_trace" })).status).toBe(200);
    const started = await client.post("/api/github/start-export", {
      task_id: id,
      config: { repository: "ada/linked-prs" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${id}/tree`)).json as Node;
    const leaves = (flatten(tree) as Node[]).filter(
      (n) => n.children.length === 0 && n.remote_links?.length && n.requirement_ids.length > 0,
    );
    const [a, b, c] = leaves.map((n) => Number(n.remote_links![0]!.key.slice(1)));
    // Linked in the Development sidebar, its description naming nothing.
    const byHand = github.createPullRequest("ada", "linked-prs", { title: "By hand", body: "Adds it." });
    github.linkPullRequest("ada", "linked-prs", byHand.number, a!);
    // A keyword inside a list item links nothing; one in prose does.
    github.createPullRequest("ada", "linked-prs", { title: "Listed", body: `Changes:\n- fixes #${b}\n` });
    const prose = github.createPullRequest("ada", "linked-prs", { title: "Prose", body: `Fixes #${c}` });
    const listed = async () =>
      (await requirementsOf(client, id)).requirements
        .flatMap((r) => r.pull_requests.map((p) => p.number))
        .filter((n, i, all) => all.indexOf(n) === i)
        .sort((x, y) => x - y);
    expect((await client.post(`/api/tasks/${id}/sync`, {})).json.problems).toEqual([]);
    expect(await listed()).toEqual([byHand.number, prose.number].sort((x, y) => x - y));

    // GraphQL refused (an organisation's SAML rule, say): the descriptions' keywords, over REST.
    github.refuseGraphql("Resource protected by organization SAML enforcement.");
    try {
      expect((await client.post(`/api/tasks/${id}/sync`, {})).json.problems).toEqual([]);
      expect(await listed()).toEqual([prose.number]);
    } finally {
      github.refuseGraphql(null);
    }
  });

  it("lists a pull request as its webhook deliveries arrive: opened, edited off and back onto the default branch, merged", async () => {
    github.addRepo({ owner: "ada", name: "live-prs", files: ["README.md"] });
    const { client, id } = await planned();
    expect((await client.post("/api/github/connect", { access_token: "ghp_trace" })).status).toBe(200);
    const started = await client.post("/api/github/start-export", {
      task_id: id,
      config: { repository: "ada/live-prs" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const hook = (await client.post("/api/webhooks/github", {})).json as { url: string; secret: string };
    github.addWebhook("ada", "live-prs", { url: hook.url, secret: hook.secret });
    const tree = (await client.get(`/api/tasks/${id}/tree`)).json as Node;
    const target = (flatten(tree) as Node[]).find(
      (n) => n.children.length === 0 && n.requirement_ids.includes("R1"),
    )!;
    const issue = Number(target.remote_links![0]!.key.slice(1));
    const prsOfR1 = async () => (await requirementsOf(client, id)).requirements[0]!.pull_requests;

    // Opened: listed at once, no "Sync now".
    const pr = github.createPullRequest("ada", "live-prs", { title: "Invites", body: `Closes #${issue}` });
    await github.settleDeliveries();
    expect(await prsOfR1()).toEqual([
      { number: pr.number, title: "Invites", url: pr.html_url, state: "open", repository: "ada/live-prs" },
    ]);
    // Moved to another branch, GitHub no longer links it; back on the default branch, it is linked again.
    await github.editPullRequest("ada", "live-prs", pr.number, { base: "dev" });
    expect(await prsOfR1()).toEqual([]);
    await github.editPullRequest("ada", "live-prs", pr.number, { base: "main", title: "Family invites" });
    expect(await prsOfR1()).toMatchObject([{ number: pr.number, title: "Family invites", state: "open" }]);
    // Merged: the pull request says so, and the issue it closed completes the task.
    await github.setPullRequestState("ada", "live-prs", pr.number, "merged");
    await github.settleDeliveries();
    expect(await prsOfR1()).toMatchObject([{ number: pr.number, state: "merged" }]);
    expect((await client.get(`/api/tasks/${target.id}`)).json.status).toBe("completed");
    // Issue 39: a late, older "opened" delivery is stale and leaves it merged; a newer one whose page is
    // not on GitHub ("javascript:", another host) is listed with the pull request's own page instead.
    const opened = github.deliveries.find(
      (d) =>
        d.event === "pull_request" && d.action === "opened" && (d.payload.number as number) === pr.number,
    )!;
    const replay = async (payload: Record<string, unknown>) => {
      const body = JSON.stringify(payload);
      return fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-github-delivery": randomUUID(),
          "x-hub-signature-256": `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`,
        },
        body,
      });
    };
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    const late = await replay({
      ...opened.payload,
      pull_request: { ...(opened.payload.pull_request as Record<string, unknown>), updated_at: earlier },
    });
    expect(late.status).toBe(202);
    expect(await late.json()).toMatchObject({ status: "stale" });
    expect(await prsOfR1()).toMatchObject([{ number: pr.number, state: "merged", url: pr.html_url }]);
    const later = new Date(Date.now() + 60_000).toISOString();
    for (const url of ["javascript:alert(1)", "https://evil.example/ada/live-prs/pull/1"]) {
      const pull = opened.payload.pull_request as Record<string, unknown>;
      const res = await replay({
        ...opened.payload,
        action: "edited",
        pull_request: {
          ...pull,
          html_url: url,
          updated_at: later,
          state: "closed",
          merged: true,
          merged_at: later,
        },
      });
      expect(res.status).toBe(200);
      expect(await prsOfR1()).toMatchObject([{ number: pr.number, state: "merged", url: pr.html_url }]);
    }
    // A pull request that closes nothing exported is not listed anywhere.
    github.createPullRequest("ada", "live-prs", { title: "Docs", body: "Closes #99999" });
    await github.settleDeliveries();
    const all = (await requirementsOf(client, id)).requirements.flatMap((r) => r.pull_requests);
    expect(all.map((p) => p.number)).toEqual([pr.number]);
  });

  it("still syncs statuses when the token may not read pull requests, and says what it could not read", async () => {
    github.addRepo({ owner: "ada", name: "private-list", private: true, files: ["README.md"] });
    github.addToken({ token: "github_pat_noPulls", login: "ada", pullRequests: "none" });
    const { client, id } = await planned();
    expect((await client.post("/api/github/connect", { access_token: "github_pat_noPulls" })).status).toBe(
      200,
    );
    const started = await client.post("/api/github/start-export", {
      task_id: id,
      config: { repository: "ada/private-list" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const synced = await client.post(`/api/tasks/${id}/sync`, {});
    expect(synced.status).toBe(200);
    expect(synced.json.checked).toBeGreaterThan(0);
    expect(synced.json.problems).toEqual([
      expect.stringMatching(/^GitHub \(ada\/private-list\): its pull requests could not be read: .*403/),
    ]);
    expect((await requirementsOf(client, id)).requirements.every((r) => r.pull_requests.length === 0)).toBe(
      true,
    );
  });
});
