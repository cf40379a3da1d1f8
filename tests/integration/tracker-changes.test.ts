import { createHmac, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { flatten, type TreeNode } from "../support/decomposition";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Edits people make in the tracker come back for review (issue 31): "Sync now" and webhooks compare each
 * exported item with what it said after the last export, and keep each difference as a change with theirs
 * and ours; a change Atomize also made since is a conflict, applied in neither direction until someone
 * chooses. Status keeps applying directly, except from a delivery that is not a status change (JIRA sends
 * `jira:issue_updated` for every edit, our own re-export's too) or one older than an Atomize change.
 */

const ACCOUNT = "5b10ac8d82e05b22cc7d4ef5";
let jira: FakeJira;
let github: FakeGitHub;
let server: TestServer;

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({ email: "lead@example.com", apiToken: "atl-token", accountId: ACCOUNT });
  github = await startFakeGitHub();
  github.addToken({ token: "ghp_review", login: "ada", scopes: ["repo"] });
  // Six exports by one person within a minute pass GitHub's 80 writes a minute; the limit itself is
  // tested in exports-github-site.test.ts.
  github.setContentLimits({ perMinute: 1000 });
  server = await startTestServer({
    JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
    ATLASSIAN_API_URL: jira.url,
    GITHUB_API_URL: github.url,
    GITHUB_WRITE_INTERVAL_MS: "5",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await jira?.close();
  await github?.close();
});

type Linked = TreeNode & {
  description: string;
  status: string;
  parent_id: string | null;
  remote_links: Array<{ kind: string; key: string; url: string; status: string | null }>;
};
type Change = {
  id: string;
  service: string;
  key: string;
  field: string;
  task_id: string | null;
  theirs: string;
  ours: string;
  conflict: boolean;
};

const hmac256 = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

async function deliver(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function plan(description: string) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 2, description });
  await server.deps.db.execute(
    sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
  );
  return { client, rootId };
}

async function leavesOf(client: TestClient, rootId: string) {
  const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
  return (flatten(tree) as Linked[]).filter((n) => n.children.length === 0);
}
const task = async (client: TestClient, id: string) => (await client.get(`/api/tasks/${id}`)).json as Linked;
const changesOf = async (client: TestClient, rootId: string) => {
  const res = await client.get(`/api/tasks/${rootId}/tracker-changes`);
  expect(res.status).toBe(200);
  return (res.json as { changes: Change[] }).changes;
};
/** A person opens an issue labelled atomize in ada/<repo> on GitHub, as the API takes it. */
async function openLabelledIssue(repo: string, title: string, body: string) {
  const made = await fetch(`${github.url}/repos/ada/${repo}/issues`, {
    method: "POST",
    headers: {
      authorization: "Bearer ghp_review",
      accept: "application/vnd.github+json",
      "content-type": "application/json",
      "user-agent": "a-person",
    },
    body: JSON.stringify({ title, body, labels: ["atomize"] }),
  });
  expect(made.status).toBe(201);
  return made;
}

const resolve = (client: TestClient, rootId: string, id: string, decision: "theirs" | "ours") =>
  client.post(`/api/tasks/${rootId}/tracker-changes/${id}`, { decision });

/** A person's edit on github.com, through the API with their own token. */
async function editIssue(repo: string, number: number, patch: Record<string, unknown>) {
  const res = await fetch(`${github.url}/repos/ada/${repo}/issues/${number}`, {
    method: "PATCH",
    headers: {
      authorization: "Bearer ghp_review",
      accept: "application/vnd.github+json",
      "content-type": "application/json",
      "user-agent": "a-person",
    },
    body: JSON.stringify(patch),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ number: number; title: string; body: string }>;
}

async function exportedToGitHub(repo: string) {
  github.addRepo({ owner: "ada", name: repo, files: ["README.md"] });
  const { client, rootId } = await plan(`Review ${repo}`);
  expect((await client.post("/api/github/connect", { access_token: "ghp_review" })).status).toBe(200);
  const started = await client.post("/api/github/start-export", {
    task_id: rootId,
    config: { repository: `ada/${repo}` },
  });
  expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
  const leaves = await leavesOf(client, rootId);
  const number = (n: Linked) => Number(n.remote_links[0]!.key.slice(1));
  return { client, rootId, leaves, number };
}

describe("edits made on GitHub come back for review", () => {
  it("brings a new title and body back as changes, applies the one taken, keeps ours for the other, and never proposes them again", async () => {
    const { client, rootId, leaves, number } = await exportedToGitHub("review");
    // Nothing changed there yet: Sync now finds nothing to review.
    const quiet = (await client.post(`/api/tasks/${rootId}/sync`, {})).json;
    expect(await changesOf(client, rootId)).toEqual([]);
    expect(quiet).toMatchObject({ problems: [], to_review: 0 });
    expect(await changesOf(client, rootId)).toEqual([]);

    const [a, b] = leaves as [Linked, Linked];
    await editIssue("review", number(a), { title: "Sign-in with passkeys" });
    const issueB = github.issues("ada", "review").find((i) => i.number === number(b))!;
    await editIssue("review", number(b), { body: `Only admins can do this.\n\n${issueB.body}` });
    const synced = (await client.post(`/api/tasks/${rootId}/sync`, {})).json;
    expect(synced).toMatchObject({ problems: [], to_review: 2, changed: 0 });

    const changes = await changesOf(client, rootId);
    expect(changes.map((c) => [c.field, c.task_id, c.conflict])).toEqual([
      ["title", a.id, false],
      ["description", b.id, false],
    ]);
    const title = changes[0]!;
    expect(title).toMatchObject({ service: "github", key: `#${number(a)}`, theirs: "Sign-in with passkeys" });
    expect(title.ours).toBe(a.description.split("\n")[0]);
    // The description they wrote, without what the export adds (figures, "Planned with Atomize").
    expect(changes[1]!.theirs).toBe(`Only admins can do this.\n\n${b.description}`);
    expect(changes[1]!.theirs).not.toContain("Planned with Atomize");

    // Theirs for the title: the task takes it (its first line), as a person's edit would.
    const took = await resolve(client, rootId, title.id, "theirs");
    expect(took.status).toBe(200);
    expect(took.json).toMatchObject({ decision: "theirs", task_id: a.id, remaining: 1 });
    expect((await task(client, a.id)).description.split("\n")[0]).toBe("Sign-in with passkeys");
    // Ours for the body: the task keeps its description.
    expect((await resolve(client, rootId, changes[1]!.id, "ours")).json).toMatchObject({ remaining: 0 });
    expect((await task(client, b.id)).description).toBe(b.description);
    // A decided change cannot be decided again.
    expect((await resolve(client, rootId, title.id, "ours")).status).toBe(409);

    // The same edits are not news the next time.
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json).toMatchObject({ to_review: 0 });
    expect(await changesOf(client, rootId)).toEqual([]);
  });

  it("marks a change as a conflict when the task was edited here too, and applies neither until someone chooses", async () => {
    const { client, rootId, leaves, number } = await exportedToGitHub("conflict");
    const a = leaves[0]!;
    await editIssue("conflict", number(a), { title: "Their title" });
    expect(
      (await client.request("PATCH", `/api/tasks/${a.id}`, { description: "Our title\nOur text" })).status,
    ).toBe(200);
    await client.post(`/api/tasks/${rootId}/sync`, {});
    const [change] = await changesOf(client, rootId);
    expect(change).toMatchObject({
      field: "title",
      theirs: "Their title",
      ours: "Our title",
      conflict: true,
    });
    // Neither side moved by itself.
    expect((await task(client, a.id)).description).toBe("Our title\nOur text");
    expect(github.issues("ada", "conflict").find((i) => i.number === number(a))!.title).toBe("Their title");
    // Resolved: theirs.
    await resolve(client, rootId, change!.id, "theirs");
    expect((await task(client, a.id)).description).toBe("Their title\nOur text");
  });

  it("offers an issue labelled atomize there as a new task, and links it when taken", async () => {
    const { client, rootId } = await exportedToGitHub("added");
    const made = await openLabelledIssue("added", "Export to CSV", "People asked for it.");
    const issue = (await made.json()) as { number: number };
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json).toMatchObject({ to_review: 1 });
    const [added] = await changesOf(client, rootId);
    expect(added).toMatchObject({
      field: "added",
      key: `#${issue.number}`,
      theirs: "Export to CSV",
      task_id: null,
    });
    const took = (await resolve(client, rootId, added!.id, "theirs")).json as { task_id: string };
    const created = await task(client, took.task_id);
    expect(created.description).toBe("Export to CSV\n\nPeople asked for it.");
    expect(created.remote_links.map((l) => l.key)).toEqual([`#${issue.number}`]);
    // Linked now: not offered again, and its status follows it.
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json).toMatchObject({ to_review: 0 });
  });

  it("applies a change once when two resolves race: one takes it, the other gets 409 (issue 39)", async () => {
    const { client, rootId } = await exportedToGitHub("raced");
    await openLabelledIssue("raced", "Import from CSV", "Asked twice.");
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json).toMatchObject({ to_review: 1 });
    const [added] = await changesOf(client, rootId);
    const before = flatten((await client.get(`/api/tasks/${rootId}/tree`)).json as TreeNode).length;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => resolve(client, rootId, added!.id, "theirs")),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const after = flatten((await client.get(`/api/tasks/${rootId}/tree`)).json as TreeNode);
    expect(after.length).toBe(before + 1);
    expect(after.filter((n) => n.description.startsWith("Import from CSV"))).toHaveLength(1);
  });

  it("leaves a task closed as a duplicate undone, says so on it, and offers to remove it", async () => {
    const { client, rootId, leaves, number } = await exportedToGitHub("dupes");
    const a = leaves[0]!;
    const hook = (await client.post("/api/webhooks/github", {})).json as { url: string; secret: string };
    github.addWebhook("ada", "dupes", { url: hook.url, secret: hook.secret });
    await github.setIssueState("ada", "dupes", number(a), "closed", "duplicate");
    const after = await task(client, a.id);
    expect(after.status).toBe("pending");
    expect(after.remote_links[0]!.status).toBe("closed (duplicate)");
    const [closed] = await changesOf(client, rootId);
    expect(closed).toMatchObject({ field: "closed", theirs: "closed (duplicate)", task_id: a.id });
    await resolve(client, rootId, closed!.id, "theirs");
    expect((await client.get(`/api/tasks/${a.id}`)).status).toBe(404);
  });

  it("matches deliveries on the repository's id, so a renamed repository's still apply", async () => {
    const { client, leaves, number } = await exportedToGitHub("before-rename");
    const a = leaves[0]!;
    const repoId = github.repoId("ada", "before-rename");
    const hook = (await client.post("/api/webhooks/github", {})).json as { url: string; secret: string };
    const body = JSON.stringify({
      action: "closed",
      issue: {
        number: number(a),
        state: "closed",
        state_reason: "completed",
        updated_at: new Date().toISOString(),
      },
      repository: { id: repoId, name: "after-rename", full_name: "ada/after-rename" },
      sender: { login: "ada" },
    });
    const res = await deliver(hook.url, body, {
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": hmac256(hook.secret, body),
    });
    expect(res.json).toEqual({ status: "applied", changed: 1 });
    expect((await task(client, a.id)).status).toBe("completed");
  });
});

describe("JIRA deliveries", () => {
  /** A plan exported to a JIRA project, with a webhook endpoint, and a delivery builder for its issues. */
  async function exportedToJira(key: string) {
    const { client, rootId } = await plan(`Review ${key}`);
    expect(
      (
        await client.post("/api/jira/credentials", {
          jira_url: jira.url,
          user_email: "lead@example.com",
          api_token: "atl-token",
          account_id: ACCOUNT,
        })
      ).status,
    ).toBe(200);
    const started = await client.post("/api/jira/start-export", {
      task_id: rootId,
      config: { project_name: `Review ${key}`, project_key: key },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const leaves = await leavesOf(client, rootId);
    // Each task's issue, so a delivery carries the issue's parent as JIRA's do (a field left out would
    // read as a move to the top level).
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    const keyOf = new Map((flatten(tree) as Linked[]).map((n) => [n.id, n.remote_links[0]?.key]));
    const hook = (await client.post("/api/webhooks/jira", {})).json as { url: string; secret: string };
    const send = (
      leaf: Linked,
      opts: {
        summary?: string;
        status?: [string, string];
        changed: string[];
        site?: string;
        at?: number;
        parent?: string;
      },
    ) => {
      const at = opts.at ?? Date.now();
      const issueKey = leaf.remote_links[0]!.key;
      const body = JSON.stringify({
        timestamp: at,
        webhookEvent: "jira:issue_updated",
        issue: {
          id: "10001",
          key: issueKey,
          self: `${opts.site ?? jira.url}/rest/api/3/issue/10001`,
          fields: {
            summary: opts.summary ?? leaf.description.split("\n")[0],
            status: {
              name: opts.status?.[0] ?? "Done",
              statusCategory: { key: opts.status?.[1] ?? "done" },
            },
            updated: new Date(at).toISOString().replace("Z", "+0000"),
            ...((opts.parent ?? keyOf.get(leaf.parent_id ?? ""))
              ? { parent: { key: opts.parent ?? keyOf.get(leaf.parent_id ?? "") } }
              : {}),
          },
        },
        changelog: { id: String(at), items: opts.changed.map((field) => ({ field, fieldtype: "jira" })) },
      });
      return deliver(hook.url, body, {
        "x-hub-signature": hmac256(hook.secret, body),
        "x-atlassian-webhook-identifier": randomUUID(),
      });
    };
    return { client, rootId, leaves, send };
  }

  it("moves a task only for a status change; any other edit, whatever the issue's status, goes to review", async () => {
    const { client, rootId, leaves, send } = await exportedToJira("RVW");
    const a = leaves[0]!;
    // A summary edit on an issue that is Done: the task does not become completed.
    expect((await send(a, { summary: "Renamed there", changed: ["summary"] })).json).toEqual({
      status: "applied",
      changed: 0,
    });
    expect((await task(client, a.id)).status).toBe("pending");
    const [title] = await changesOf(client, rootId);
    expect(title).toMatchObject({ field: "title", theirs: "Renamed there", task_id: a.id });
    // A status change moves it.
    expect((await send(a, { summary: "Renamed there", changed: ["status"] })).json).toEqual({
      status: "applied",
      changed: 1,
    });
    expect((await task(client, a.id)).status).toBe("completed");
  });

  it("brings a move under another issue back as a parent change, and moves the task when taken", async () => {
    const { client, rootId, leaves, send } = await exportedToJira("MOV");
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as Linked;
    const [first, second] = tree.children as [Linked, Linked];
    const leaf = first.children[0] as Linked;
    expect(leaves.map((l) => l.id)).toContain(leaf.id);
    // Someone moved the leaf's issue under the other story.
    const res = await send(leaf, {
      changed: ["IssueParentAssociation"],
      parent: second.remote_links[0]!.key,
      status: ["To Do", "new"],
    });
    expect(res.json).toEqual({ status: "applied", changed: 0 });
    const [moved] = await changesOf(client, rootId);
    expect(moved).toMatchObject({ field: "parent", task_id: leaf.id, conflict: false });
    expect(moved!.theirs).toBe(second.description.split("\n")[0]);
    expect(moved!.ours).toBe(first.description.split("\n")[0]);
    await resolve(client, rootId, moved!.id, "theirs");
    expect((await task(client, leaf.id)).parent_id).toBe(second.id);
  });

  it("syncs every issue still there and names each one that is gone, one by one", async () => {
    const { client, rootId, leaves } = await exportedToJira("GONE");
    const [a, b] = leaves as [Linked, Linked];
    expect((await jira.deleteIssue(a.remote_links[0]!.key)).every((d) => d.status < 500)).toBe(true);
    await jira.setIssueStatus(b.remote_links[0]!.key, "Done");
    const synced = (await client.post(`/api/tasks/${rootId}/sync`, {})).json as {
      checked: number;
      changed: number;
      problems: string[];
    };
    expect(synced.problems).toEqual([
      `JIRA: ${a.remote_links[0]!.key} was not found there (deleted, moved, or not visible to this account).`,
    ]);
    expect(synced.changed).toBe(1);
    expect(synced.checked).toBe(5);
    expect((await task(client, b.id)).status).toBe("completed");
  });

  it("ignores a delivery from another site whose key happens to match", async () => {
    const { client, leaves, send } = await exportedToJira("SITE");
    const a = leaves[0]!;
    const res = await send(a, { changed: ["status"], site: "https://elsewhere.atlassian.net" });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "ignored" });
    expect((await task(client, a.id)).status).toBe("pending");
  });

  it("keeps a status change older than an edit made here for review, as a conflict", async () => {
    const { client, rootId, leaves, send } = await exportedToJira("OLD");
    const a = leaves[0]!;
    const before = Date.now() - 60_000;
    await new Promise((r) => setTimeout(r, 20));
    expect((await client.request("PATCH", `/api/tasks/${a.id}`, { status: "in_progress" })).status).toBe(200);
    expect((await send(a, { changed: ["status"], at: before })).json).toMatchObject({ changed: 0 });
    expect((await task(client, a.id)).status).toBe("in_progress");
    const [status] = await changesOf(client, rootId);
    expect(status).toMatchObject({ field: "status", theirs: "Done", ours: "in progress", conflict: true });
    await resolve(client, rootId, status!.id, "theirs");
    expect((await task(client, a.id)).status).toBe("completed");
  });
});

describe("who sees the review", () => {
  it("shows it to the plan's owner over MCP, and to nobody else", async () => {
    const { client, rootId, leaves, number } = await exportedToGitHub("mcp-view");
    await editIssue("mcp-view", number(leaves[0]!), { title: "Seen by the agent" });
    await client.post(`/api/tasks/${rootId}/sync`, {});
    const made = await client.post("/api/tokens", { name: "agent", scope: "read", expires_in_days: 30 });
    const agent = await connectMcp(server.url, made.json.token);
    try {
      const seen = await callTool<{ changes: Change[] }>(agent, "tracker_changes", { project_id: rootId });
      expect(seen.changes.map((c) => c.theirs)).toEqual(["Seen by the agent"]);
    } finally {
      await agent.close();
    }
    // Another user: not found, over REST and MCP, and nothing resolved.
    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    const [change] = await changesOf(client, rootId);
    expect((await stranger.get(`/api/tasks/${rootId}/tracker-changes`)).status).toBe(404);
    expect((await resolve(stranger, rootId, change!.id, "theirs")).status).toBe(404);
    const token = (await stranger.post("/api/tokens", { name: "s", scope: "read", expires_in_days: 30 })).json
      .token;
    const other = await connectMcp(server.url, token);
    try {
      expect(await toolError(other, "tracker_changes", { project_id: rootId })).toMatch(/not found/i);
    } finally {
      await other.close();
    }
    expect(await changesOf(client, rootId)).toHaveLength(1);
    // Bad input changes nothing.
    expect(
      (await client.post(`/api/tasks/${rootId}/tracker-changes/${change!.id}`, { decision: "maybe" })).status,
    ).toBe(422);
  });
});
