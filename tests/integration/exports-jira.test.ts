import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

const ACCOUNT = "5b10ac8d82e05b22cc7d4ef5";
let jira: FakeJira;
let server: TestServer;

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({ email: "lead@example.com", apiToken: "atl-token", accountId: ACCOUNT, displayName: "Lead" });
  server = await startTestServer({
    JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
    EXPORT_HTTP_RETRIES: "1",
    JOBS_ENABLED: "true",
    ATLASSIAN_API_URL: jira.url,
    JIRA_SEARCH_SETTLE_MS: "400",
  });
});
// A test that fails half-way leaves no failure mode armed for the next one.
afterEach(() => jira.setMode("ok"));
afterAll(async () => {
  await server?.stop();
  await jira?.close();
});

async function ownerWithTree() {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  // 1 + 5 + 25 + 125 = 156 nodes: 5 epics, 25 stories, 125 sub-tasks.
  const { rootId } = await seedTree(server.deps.database, user.id, {
    fanout: 5,
    depth: 3,
    description: "Marketplace\nwith payments",
  });
  return { client, rootId };
}

const config = (key: string) => ({
  jira_url: jira.url,
  user_email: "lead@example.com",
  api_token: "atl-token",
  account_id: ACCOUNT,
  project_name: `Atomize ${key}`,
  project_key: key,
  users: [],
});

describe("JIRA export", () => {
  it("exports a 156-node tree: epics, stories, sub-tasks with parents, labels, story points, ADF, Confluence pages", async () => {
    const { client, rootId } = await ownerWithTree();
    const before = jira.requests.length;
    const started = await client.post("/api/jira/start-export", {
      config: config("MKT"),
      task_tree: { task_id: rootId },
    });
    expect(started.status).toBe(202);
    const done = await waitForExport(client, started.json.export_id);
    expect(done).toMatchObject({ status: "completed", progress: 100 });
    expect(done.result).toMatchObject({
      issues_created: 155,
      project_key: "MKT",
      project_url: `${jira.url}/browse/MKT`,
      confluence_pages: 3,
    });
    const issues = jira.issues("MKT");
    expect(issues).toHaveLength(155);
    expect(issues.filter((i) => i.type === "epic")).toHaveLength(5);
    expect(issues.filter((i) => i.type === "story")).toHaveLength(25);
    expect(issues.filter((i) => i.type === "subtask")).toHaveLength(125);
    const keys = new Set(issues.map((i) => i.key));
    for (const i of issues) {
      if (i.type === "epic") expect(i.parentKey).toBeNull();
      else expect(keys.has(i.parentKey!)).toBe(true);
      expect(i.labels).toContain("atomize");
      expect(i.labels.some((l) => l.startsWith("complexity-"))).toBe(true);
      expect((i.description as { type: string }).type).toBe("doc");
    }
    for (const s of issues.filter((i) => i.type === "story"))
      expect(s.storyPoints).toEqual(expect.any(Number));
    for (const e of issues.filter((i) => i.type === "epic"))
      expect(e.labels.some((l) => l.startsWith("epic-complexity-"))).toBe(true);
    expect(
      jira
        .pages("MKT")
        .map((p) => p.title)
        .sort(),
    ).toEqual(["Atomize MKT: Best Practices", "Atomize MKT: Standards", "Atomize MKT: Tech Stack"]);
    // Batched, not one request per issue: /myself, the permission check, the project, createmeta (types,
    // then each of the 3 used types' screens), 5 bulk calls, the label check, the space (look, create,
    // look again) and 3 pages.
    const requests = jira.requests.length - before;
    expect(requests).toBeLessThanOrEqual(20);
    expect(jira.requests.filter((r) => r.path.startsWith("/rest/api/3/issue/bulk")).length).toBe(1 + 1 + 3);
  });

  /** A small tree (2 epics, 4 stories, 8 sub-tasks) where the first epic waits for the second. */
  async function orderedTree() {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId } = await seedTree(server.deps.database, user.id, {
      fanout: 2,
      depth: 3,
      description: "Ordered",
    });
    const epics = await server.deps.database.rows<{ id: string }>(
      sql`select id from tasks where parent_id = ${rootId} order by position`,
    );
    expect(
      (await client.post(`/api/tasks/${epics[0]!.id}/dependencies`, { depends_on: epics[1]!.id })).status,
    ).toBe(201);
    return { client, rootId, epics };
  }

  it("carries the order as 'Blocks' links: the blocker is the inward issue, so the waiting one reads 'is blocked by'", async () => {
    const { client, rootId, epics } = await orderedTree();
    const started = await client.post("/api/jira/start-export", { config: config("ORD"), task_id: rootId });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ dependencies: 1, dependencies_linked: 1 });
    const issues = jira.issues("ORD");
    const epicIssues = issues.filter((i) => i.type === "epic");
    const [first, second] = [epicIssues[0]!, epicIssues[1]!];
    expect(first.blockedBy).toEqual([second.key]);
    expect(second.blockedBy).toEqual([]);
    const link = jira.server.log.find((e) => e.method === "POST" && e.path === "/rest/api/3/issueLink");
    expect(link).toBeDefined();
    expect(epics).toHaveLength(2);
  });

  it("keeps the export when the site has no 'Blocks' link type, and says why nothing was linked", async () => {
    jira.setLinkTypes(["Relates", "Duplicate"]);
    try {
      const { client, rootId } = await orderedTree();
      const started = await client.post("/api/jira/start-export", {
        config: config("NOBL"),
        task_id: rootId,
      });
      const done = await waitForExport(client, started.json.export_id);
      expect(done.status).toBe("completed");
      expect(done.result).toMatchObject({
        dependencies: 1,
        dependencies_linked: 0,
        dependencies_note: 'This JIRA site has no "Blocks" issue link type, so the order was not linked.',
      });
      expect(jira.issues("NOBL").every((i) => i.blockedBy.length === 0)).toBe(true);
    } finally {
      jira.setLinkTypes(["Blocks", "Cloners", "Duplicate", "Relates"]);
    }
  });

  it("slows down for rate limits (429 + Retry-After) and still finishes", async () => {
    const { client, rootId } = await ownerWithTree();
    jira.setMode("rate_limit", { times: 2, path: "/rest/api/3/issue/bulk", retryAfter: 1 });
    const started = await client.post("/api/jira/start-export", { config: config("SLOW"), task_id: rootId });
    const t0 = Date.now();
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(jira.issues("SLOW")).toHaveLength(155);
  });

  it("fails half-way with a clear message, and a retry finishes without duplicates", async () => {
    const { client, rootId } = await ownerWithTree();
    // Break the bulk endpoint once the epics and stories are in (one bulk call each): the sub-task level
    // then fails. Armed in the stand-in, not on a progress event, which could arrive after more calls.
    jira.setMode("server_error", { path: "/rest/api/3/issue/bulk", after: 2 });
    const started = await client.post("/api/jira/start-export", { config: config("HALF"), task_id: rootId });
    const failed = await waitForExport(client, started.json.export_id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^JIRA answered 500/);
    expect(jira.issues("HALF")).toHaveLength(30);
    jira.setMode("ok");
    const retried = await client.post(`/api/exports/${started.json.export_id}/retry`);
    expect(retried.status).toBe(200);
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    const issues = jira.issues("HALF");
    expect(issues).toHaveLength(155);
    expect(new Set(issues.map((i) => `${i.parentKey}|${i.summary}|${i.type}`)).size).toBe(155);
  });

  it.each([
    [
      { project_key: "x" },
      "Project key must be 2-10 uppercase alphanumeric characters (e.g., PROJ, TEST123)",
    ],
    [{ project_name: "  " }, "Project name is required"],
    [
      { jira_url: "https://evil.example.com" },
      "The JIRA URL must be your Atlassian site, like https://your-team.atlassian.net",
    ],
    [{ jira_url: "not a url" }, "Invalid JIRA URL format"],
  ])("refuses %j before calling JIRA", async (override, message) => {
    const { client, rootId } = await ownerWithTree();
    const before = jira.requests.length;
    const res = await client.post("/api/jira/start-export", {
      config: { ...config("BAD"), ...override },
      task_id: rootId,
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe(message);
    expect(jira.requests.length).toBe(before);
  });

  it("keeps exports private: another user can neither start one of your task nor read or watch yours", async () => {
    const { client, rootId } = await ownerWithTree();
    const started = await client.post("/api/jira/start-export", { config: config("PRIV"), task_id: rootId });
    await waitForExport(client, started.json.export_id);
    const other = new TestClient(server.url);
    const intruder = await registerUser(other);
    const steal = await other.post("/api/jira/start-export", { config: config("STEAL"), task_id: rootId });
    expect(steal.status).toBe(404);
    expect(steal.json.detail).toBe("Task not found");
    expect((await other.get(`/api/exports/${started.json.export_id}`)).status).toBe(404);
    expect((await other.post(`/api/exports/${started.json.export_id}/retry`)).status).toBe(404);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(
        `${server.url.replace("http", "ws")}/ws/jira-export/${started.json.export_id}?token=${intruder.access_token}`,
      );
      ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
      ws.on("error", () => {});
    });
    expect(closed).toEqual({ code: 4404, reason: "Export not found" });
  });

  it("streams the export's progress messages on /ws/jira-export/{id}, and a late watcher sees the result", async () => {
    const { client, rootId } = await ownerWithTree();
    const me = (await client.post("/api/auth/login", {})).json; // no-op to keep the cookie jar fresh
    void me;
    const token = client.cookies.get("atomize_session")!;
    const started = await client.post("/api/jira/start-export", { config: config("WS"), task_id: rootId });
    const messages: Array<Record<string, any>> = [];
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(
        `${server.url.replace("http", "ws")}/ws/jira-export/${started.json.export_id}?token=${token}`,
      );
      ws.on("message", (d) => {
        const m = JSON.parse(d.toString());
        messages.push(m);
        if (m.type === "jira.export.success" || m.type === "jira.export.error") {
          ws.close();
          resolve();
        }
      });
    });
    expect(messages[0]).toEqual({ type: "connection_established", export_id: started.json.export_id });
    const progress = messages.filter((m) => m.type === "jira.export.progress");
    expect(progress.map((m) => m.progress)).toEqual(
      [...progress.map((m) => m.progress)].sort((a, b) => a - b),
    );
    const steps = new Set(progress.map((m) => m.step));
    for (const s of ["issue_creation", "completion"]) expect(steps).toContain(s);
    expect(progress.some((m) => m.message.startsWith("Created "))).toBe(true);
    expect(messages.at(-1)).toMatchObject({
      type: "jira.export.success",
      issues_created: 155,
      project_key: "WS",
    });
    const late: Array<Record<string, any>> = [];
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(
        `${server.url.replace("http", "ws")}/ws/jira-export/${started.json.export_id}?token=${token}`,
      );
      ws.on("message", (d) => {
        late.push(JSON.parse(d.toString()));
        if (late.at(-1)!.type === "jira.export.success") {
          ws.close();
          resolve();
        }
      });
    });
    expect(late.map((m) => m.type)).toEqual([
      "connection_established",
      "jira.export.progress",
      "jira.export.success",
    ]);
  });
});
