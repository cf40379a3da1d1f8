import { createServer, type Server } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../src/server/db/schema/index";
import { adfText } from "../../src/server/services/exports/jira/adf-text";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * What JIRA and Confluence do to an export that the first exporter did not allow for (issue 31; the fake
 * cites the sources): every field change is an event, scoped tokens are made for one app, labels people add
 * are theirs, Confluence keeps bodies re-serialised, and each exported issue carries what was sent.
 */

const ADMIN = { email: "admin@example.com", apiToken: "atl-admin", accountId: "5b10ac8d82e05b22cc7d4ef5" };
const JIRA_ONLY = {
  email: "jira-only@example.com",
  apiToken: "ATSTT-jira-only",
  accountId: "5b10a2844c20165700ede2bb",
};
let jira: FakeJira;
let server: TestServer;
let receiver: Server;
const received: Array<Record<string, any>> = [];

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({ ...ADMIN, displayName: "Admin" });
  jira.addUser({ ...JIRA_ONLY, scope: "jira" });
  // Webhook deliveries land here, not in the app: this file checks what JIRA sends, not how it is handled.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  jira.addWebhook({ url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`, secret: "s" });
  server = await startTestServer({
    JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
    ATLASSIAN_API_URL: jira.url,
    EXPORT_HTTP_RETRIES: "1",
    JIRA_SEARCH_SETTLE_MS: "400",
    JOBS_ENABLED: "true",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  await server?.stop();
  await jira?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

type Tree = {
  children: Array<{
    id: string;
    children: Array<{ id: string; remote_links: Array<{ key: string }> }>;
    remote_links: Array<{ key: string }>;
  }>;
};

/** 1 + 2 + 4 + 8 = 15 nodes: 2 epics, 4 stories, 8 sub-tasks; exported with `exportOnce`. */
async function plan(key: string, account: typeof ADMIN = ADMIN) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 2, depth: 3, description: key });
  const exportOnce = async () => {
    const started = await client.post("/api/jira/start-export", {
      config: {
        jira_url: jira.url,
        user_email: account.email,
        api_token: account.apiToken,
        account_id: account.accountId,
        project_name: `Atomize ${key}`,
        project_key: key,
      },
      task_id: rootId,
    });
    expect(started.status).toBe(202);
    return waitForExport(client, started.json.export_id);
  };
  const tree = async () => (await client.get(`/api/tasks/${rootId}/tree`)).json as Tree;
  return { client, rootId, exportOnce, tree };
}

describe("JIRA's rules for an export", () => {
  it("a re-export is itself an edit: JIRA delivers jira:issue_updated listing exactly what changed", async () => {
    const { client, exportOnce, tree } = await plan("EVTS");
    expect((await exportOnce()).status).toBe("completed");
    const story = (await tree()).children[0]!.children[0]!;
    const key = story.remote_links[0]!.key;
    await client.request("PATCH", `/api/tasks/${story.id}`, { description: "Renamed story" });
    await jira.settleWebhooks();
    received.length = 0;

    expect((await exportOnce()).status).toBe("completed");
    await jira.settleWebhooks();
    const updates = received.filter((p) => p.webhookEvent === "jira:issue_updated");
    const renamed = updates.filter((p) => p.issue.key === key);
    expect(renamed).toHaveLength(1);
    const fields = renamed[0]!.changelog.items.map((i: { fieldId: string }) => i.fieldId);
    expect(fields).toContain("summary");
    expect(renamed[0]!.changelog.items.find((i: any) => i.fieldId === "summary")).toMatchObject({
      field: "summary",
      toString: "Renamed story",
    });
    expect(renamed[0]!.issue).toMatchObject({
      self: expect.stringContaining(`${jira.url}/rest/api/2/issue/`),
      fields: { summary: "Renamed story", status: { name: "To Do" } },
    });
    // Nothing else was renamed, and an export never moves an issue: no status item anywhere.
    for (const p of updates.filter((u) => u.issue.key !== key))
      expect(p.changelog.items.map((i: { fieldId: string }) => i.fieldId)).not.toContain("summary");
    for (const p of updates)
      expect(p.changelog.items.map((i: { fieldId: string }) => i.fieldId)).not.toContain("status");
  });

  it("with a token scoped to Jira alone: the issues are made, Confluence's refusal is a warning in its own words", async () => {
    const { client, exportOnce } = await plan("JONLY", JIRA_ONLY);
    const saved = await client.post("/api/jira/credentials", {
      jira_url: jira.url,
      user_email: JIRA_ONLY.email,
      api_token: JIRA_ONLY.apiToken,
      account_id: JIRA_ONLY.accountId,
    });
    expect(saved.status).toBe(200);
    const done = await exportOnce();
    expect(done.status).toBe("completed");
    expect(jira.issues("JONLY")).toHaveLength(14);
    expect(done.result.confluence_pages).toBe(0);
    const warning = done.result.warnings.find((w: string) =>
      w.startsWith("Confluence refused this API token"),
    );
    expect(warning).toMatch(/scoped API token works for one app/);
    expect(done.result.confluence_note).toBe(warning);
    expect(JSON.stringify(done.result)).not.toMatch(/JIRA rejected the email or API token/);
    // Exporting again does not fail the same way: it updates the issues and warns again.
    const again = await exportOnce();
    expect(again.status).toBe("completed");
    expect(again.result).toMatchObject({ issues_created: 0, issues_updated: 14 });
    expect(again.result.warnings).toContain(warning);
  });

  it("a re-export edits labels: adds what is missing, removes only Atomize's own, keeps what people added", async () => {
    const { exportOnce, tree } = await plan("LBL");
    const first = await exportOnce();
    expect(first.status).toBe("completed");
    const story = (await tree()).children[0]!.children[0]!;
    const key = story.remote_links[0]!.key;
    const labelsOf = () => jira.issues("LBL").find((i) => i.key === key)!.labels;
    const before = labelsOf();
    const oldPoints = before.find((l) => l.startsWith("story-points-"))!;
    const oldMarker = before.find((l) => l.startsWith("atomize-export-"))!;
    // A person labels it in JIRA; in Atomize its story points change.
    await jira.editIssue(key, { labels: [...before, "customer-x", "needs-design"] });
    const points = oldPoints === "story-points-21" ? 34 : 21;
    await server.deps.db.update(tasks).set({ storyPoints: points }).where(eq(tasks.id, story.id));

    expect((await exportOnce()).status).toBe("completed");
    const after = labelsOf();
    expect(after).toEqual(
      expect.arrayContaining(["atomize", "customer-x", "needs-design", `story-points-${points}`]),
    );
    expect(after).not.toContain(oldPoints);
    expect(after).not.toContain(oldMarker);
    expect(after.filter((l) => l.startsWith("atomize-export-"))).toHaveLength(1);
    expect(after.filter((l) => l.startsWith("complexity-"))).toHaveLength(1);
    // Everyone else's issues keep the labels people gave them too.
    expect(jira.issues("LBL").find((i) => i.key === key)!.storyPoints).toBe(points);
  });

  it("exporting twice with no change leaves each Confluence page at its version; a real change adds one", async () => {
    const { rootId, exportOnce } = await plan("CONF");
    await server.deps.db
      .update(tasks)
      .set({
        context: {
          tech_stack: { description: 'A "fast" shop & <friendly> checkout', frontend: "React" },
          best_practices: ["Keep 'main' green"],
        },
      })
      .where(eq(tasks.id, rootId));
    expect((await exportOnce()).status).toBe("completed");
    const versions = () => Object.fromEntries(jira.pages("CONF").map((p) => [p.title, p.version]));
    expect(Object.values(versions())).toEqual([1, 1, 1]);
    // Confluence keeps the body re-serialised: not byte for byte what was sent.
    expect(jira.pages("CONF").find((p) => p.title.endsWith("Tech Stack"))!.body).toContain('A "fast" shop');

    expect((await exportOnce()).status).toBe("completed");
    expect(Object.values(versions())).toEqual([1, 1, 1]);

    await server.deps.db
      .update(tasks)
      .set({
        context: {
          tech_stack: { description: 'A "fast" shop & <friendly> checkout', frontend: "React" },
          best_practices: ["Keep 'main' green", "Review every plan"],
        },
      })
      .where(eq(tasks.id, rootId));
    expect((await exportOnce()).status).toBe("completed");
    expect(versions()).toEqual({
      "Atomize CONF: Tech Stack": 1,
      "Atomize CONF: Best Practices": 2,
      "Atomize CONF: Standards": 1,
    });
  });

  it("records what each issue was sent (title, text as JIRA's ADF reads, story points, parent) as its baseline", async () => {
    const { rootId, exportOnce } = await plan("BASE");
    expect((await exportOnce()).status).toBe("completed");
    const rows = await server.deps.database.rows<{ remote_key: string; baseline: any }>(
      sql`select remote_key, baseline from remote_items where root_task_id = ${rootId} and kind = 'jira'`,
    );
    expect(rows).toHaveLength(14);
    const issues = new Map(jira.issues("BASE").map((i) => [i.key, i]));
    for (const row of rows) {
      const issue = issues.get(row.remote_key)!;
      // (The runner adds the task's own description beside what the exporter reports.)
      expect(row.baseline).toMatchObject({
        title: issue.summary,
        text: adfText(issue.description),
        story_points: issue.storyPoints,
        parent: issue.parentKey,
      });
      expect(row.baseline.text).not.toBe("");
      expect(row.baseline.text.split("\n").every((l: string) => l === l.trim() && l !== "")).toBe(true);
    }
    expect(rows.some((r) => r.baseline.story_points !== null)).toBe(true);
    expect(rows.some((r) => r.baseline.parent !== null)).toBe(true);
  });
});

describe("adfText", () => {
  it("reads paragraphs, headings and list items each on their own lines, trimmed, empty ones dropped", () => {
    const p = (...content: unknown[]) => ({ type: "paragraph", content });
    const t = (text: string) => ({ type: "text", text });
    expect(
      adfText({
        type: "doc",
        version: 1,
        content: [
          { type: "heading", attrs: { level: 2 }, content: [t("  Goal ")] },
          p(t("Pay "), { type: "text", text: "by card", marks: [{ type: "strong" }] }),
          p(),
          {
            type: "bulletList",
            content: [
              { type: "listItem", content: [p(t(" one "))] },
              { type: "listItem", content: [p(t("two"), { type: "hardBreak" }, t("  lines"))] },
            ],
          },
          { type: "rule" },
          p(t("Ask "), { type: "mention", attrs: { id: "x", text: "@Ada" } }),
        ],
      }),
    ).toBe("Goal\nPay by card\none\ntwo\nlines\nAsk @Ada");
    expect(adfText(null)).toBe("");
    expect(adfText({ type: "doc", version: 1, content: [] })).toBe("");
  });
});
