import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteItems } from "../../src/server/db/schema/index";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeTrello, startFakeTrello } from "../fakes/trello";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The GitHub and Trello exports against rules of the trackers the fakes now follow (tests/fakes/github.ts
 * and trello.ts cite them): an update's label set replaces the item's, so a re-export adds and removes
 * labels one at a time and leaves people's labels alone; Trello's long, multi-byte descriptions go in a
 * body, not a URL; GitHub's own text for a sub-issue linked twice; the repository's id, which outlives a
 * rename; and what each export sent, kept as the baseline a later edit there is compared with.
 */

const KEY = "0123456789abcdef0123456789abcdef";
const TOKEN = "ATTArules000000000000000000000000000000000000000000000000000000000000";
const GH_TOKEN = "ghp_rules";

let github: FakeGitHub;
let trello: FakeTrello;
let server: TestServer;

beforeAll(async () => {
  github = await startFakeGitHub();
  for (const name of ["labels", "baseline", "relink", "renamed-later"])
    github.addRepo({ owner: "ada", name, files: ["README.md"] });
  github.addToken({ token: GH_TOKEN, login: "ada", scopes: ["repo"] });
  // These exports together pass GitHub's 80 content-creating requests a minute (exports-github-site tests that).
  github.setContentLimits({ perMinute: 10_000, perHour: 10_000 });
  trello = await startFakeTrello();
  trello.addCredentials({ key: KEY, token: TOKEN, username: "ada" });
  server = await startTestServer({
    GITHUB_API_URL: github.url,
    TRELLO_API_URL: trello.url,
    GITHUB_WRITE_INTERVAL_MS: "5",
    EXPORT_HTTP_RETRIES: "2",
    TRELLO_REQUESTS_PER_10S: "5000",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
  trello.setRateLimits({ perToken: 5000, perKey: 5000, windowMs: 10_000 });
});
afterAll(async () => {
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await github?.close();
  await trello?.close();
});

/** A user with a seeded plan (1 + 2 + 4 tasks: 6 exported) and GitHub or Trello connected. */
async function owner(kind: "github" | "trello") {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, {
    fanout: 2,
    depth: 2,
    description: "Rules",
  });
  if (kind === "github")
    expect((await client.post("/api/github/connect", { access_token: GH_TOKEN })).status).toBe(200);
  else
    expect((await client.post("/api/trello/credentials", { api_key: KEY, token: TOKEN })).status).toBe(200);
  return { client, rootId };
}

async function exportGithub(client: TestClient, rootId: string, repository: string) {
  const started = await client.post("/api/github/start-export", { task_id: rootId, config: { repository } });
  expect(started.status).toBe(202);
  return waitForExport(client, started.json.export_id);
}

async function exportTrello(client: TestClient, rootId: string, config: Record<string, string>) {
  const started = await client.post("/api/trello/start-export", { task_id: rootId, config });
  expect(started.status).toBe(202);
  return waitForExport(client, started.json.export_id);
}

const itemsOf = (rootId: string, kind: "github" | "trello") =>
  server.deps.db
    .select()
    .from(remoteItems)
    .where(sql`${remoteItems.rootTaskId} = ${rootId} and ${remoteItems.kind} = ${kind}`);

/** As a person would, with their own token: through GitHub's API. */
const githubAsPerson = (path: string, method: string, body?: unknown) =>
  fetch(`${github.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${GH_TOKEN}`,
      "user-agent": "a-person",
      accept: "application/vnd.github+json",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });

/** As a person would, through Trello's API. */
const trelloAsPerson = (path: string, method: string, query: Record<string, string> = {}) =>
  fetch(`${trello.url}${path}?${new URLSearchParams({ ...query, key: KEY, token: TOKEN })}`, { method });

describe("GitHub: labels, sub-issues, the repository's id and the baseline", () => {
  it("re-exports by adding and removing single labels: people's labels stay, only Atomize's stale ones go", async () => {
    const { client, rootId } = await owner("github");
    expect((await exportGithub(client, rootId, "ada/labels")).status).toBe("completed");
    const items = await itemsOf(rootId, "github");
    const first = items[0]!;
    const number = Number(first.remoteId);
    // A person labels two issues on GitHub.
    for (const n of [number, Number(items[1]!.remoteId)])
      expect(
        (await githubAsPerson(`/repos/ada/labels/issues/${n}/labels`, "POST", { labels: ["bug"] })).status,
      ).toBe(200);
    // The first task's complexity and story points change in Atomize.
    const before = github.issues("ada", "labels").find((i) => i.number === number)!.labels;
    const high = before.includes("complexity: high");
    await server.deps.db.execute(
      sql`update tasks set complexity_score = ${high ? 2 : 9}, story_points = 13 where id = ${first.taskId}`,
    );
    const from = github.requests.length;
    const again = await exportGithub(client, rootId, "ada/labels");
    expect(again.status).toBe("completed");
    const after = github.issues("ada", "labels").find((i) => i.number === number)!.labels;
    expect(after).toContain("bug");
    expect(after).toContain(high ? "complexity: low" : "complexity: high");
    expect(after).not.toContain(high ? "complexity: high" : "complexity: low");
    expect(after).toContain("sp: 13");
    expect(after.filter((l) => l.startsWith("sp: "))).toEqual(["sp: 13"]);
    expect(after).toContain("atomize");
    // The other labelled issue's task did not change: its label stays and nothing replaced its set.
    expect(
      github.issues("ada", "labels").find((i) => i.number === Number(items[1]!.remoteId))!.labels,
    ).toContain("bug");
    const sent = github.requests.slice(from);
    expect(
      sent.some((r) => r.method === "POST" && r.path === `/repos/ada/labels/issues/${number}/labels`),
    ).toBe(true);
    expect(
      sent.some(
        (r) =>
          r.method === "DELETE" && r.path.startsWith(`/repos/ada/labels/issues/${number}/labels/complexity`),
      ),
    ).toBe(true);
    const patches = github.server.log
      .slice(from)
      .filter((r) => r.method === "PATCH" && /\/issues\/\d+$/.test(r.path));
    for (const p of patches) expect(p.body).not.toHaveProperty("labels");
  });

  it("reports the repository's id and, for every issue, what it sent: title, body, story points, parent", async () => {
    const { client, rootId } = await owner("github");
    expect((await exportGithub(client, rootId, "ada/baseline")).status).toBe("completed");
    const issues = github.issues("ada", "baseline");
    const items = await itemsOf(rootId, "github");
    expect(items).toHaveLength(6);
    for (const item of items) {
      expect(item.containerId).toBe(String(github.repoId("ada", "baseline")));
      const issue = issues.find((i) => String(i.number) === item.remoteId)!;
      const sp = issue.labels.find((l) => l.startsWith("sp: "));
      const parent = issues.find((i) => i.subIssues.includes(issue.number));
      expect(item.baseline).toMatchObject({
        title: issue.title,
        text: issue.body.trim(),
        story_points: sp ? Number(sp.slice(4)) : null,
        parent: parent ? String(parent.number) : null,
      });
    }
    expect(items.filter((i) => i.baseline?.parent)).toHaveLength(4);
  });

  it("keeps the repository's id when the repository is renamed between exports", async () => {
    const { client, rootId } = await owner("github");
    expect((await exportGithub(client, rootId, "ada/renamed-later")).status).toBe("completed");
    const id = String(github.repoId("ada", "renamed-later"));
    github.renameRepo("ada", "renamed-later", "renamed-now");
    const again = await exportGithub(client, rootId, "ada/renamed-later");
    expect(again.status).toBe("completed");
    expect(again.result).toMatchObject({ issues_created: 0 });
    for (const item of await itemsOf(rootId, "github")) expect(item.containerId).toBe(id);
  });

  it("takes GitHub's 'may not contain duplicate sub-issues' as linked when a link is sent twice", async () => {
    // The answer to the first link is lost; the client sends it again and GitHub refuses the duplicate.
    github.server.faults.loseAnswer({
      method: "POST",
      path: "/repos/ada/relink/issues/*/sub_issues",
      times: 1,
    });
    const { client, rootId } = await owner("github");
    const done = await exportGithub(client, rootId, "ada/relink");
    github.server.faults.clear();
    expect(done.status).toBe("completed");
    const refusals = github.server.log.filter(
      (r) =>
        r.method === "POST" &&
        r.path.endsWith("/sub_issues") &&
        r.path.startsWith("/repos/ada/relink") &&
        r.status === 422,
    );
    expect(refusals.length).toBeGreaterThan(0);
    expect(done.result).toMatchObject({ sub_issues_refused: 0, warnings: [] });
    const linked = github.issues("ada", "relink").flatMap((i) => i.subIssues);
    expect(new Set(linked).size).toBe(4);
  });
});

describe("Trello: labels, long descriptions and the baseline", () => {
  it("re-exports by adding and removing single labels: a person's label stays, the stale complexity label goes", async () => {
    const { client, rootId } = await owner("trello");
    expect((await exportTrello(client, rootId, { board_name: "Rules labels" })).status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Rules labels")!;
    const items = await itemsOf(rootId, "trello");
    const item = items[0]!;
    // A person makes a label of their own and puts it on the card.
    const label = (await (
      await trelloAsPerson("/1/labels", "POST", { name: "Customer", color: "blue", idBoard: board.id })
    ).json()) as { id: string };
    expect(
      (await trelloAsPerson(`/1/cards/${item.remoteId}/idLabels`, "POST", { value: label.id })).status,
    ).toBe(200);
    const card = () =>
      trello
        .boards()
        .find((b) => b.id === board.id)!
        .cards.find((c) => c.id === item.remoteId)!;
    const name = (id: string) =>
      trello
        .boards()
        .find((b) => b.id === board.id)!
        .labels.find((l) => l.id === id)?.name;
    const high = card().idLabels.some((id) => name(id) === "Complexity: High");
    await server.deps.db.execute(
      sql`update tasks set complexity_score = ${high ? 2 : 9} where id = ${item.taskId}`,
    );
    const again = await exportTrello(client, rootId, { board_name: "Rules labels", board_id: board.id });
    expect(again.status).toBe("completed");
    expect(card().idLabels.map(name).sort()).toEqual([
      high ? "Complexity: Low" : "Complexity: High",
      "Customer",
    ]);
  });

  it("updates a card with a long multi-byte description in the body, and keeps what it sent as the baseline", async () => {
    const { client, rootId } = await owner("trello");
    expect((await exportTrello(client, rootId, { board_name: "Rules long" })).status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Rules long")!;
    // A card of a task with subtasks (the rows come back in no set order: an update moves a row).
    const [parent] = await server.deps.database.rows<{ id: string }>(
      sql`select id from tasks where root_task_id = ${rootId} and depth = 1 order by position limit 1`,
    );
    const item = (await itemsOf(rootId, "trello")).find((i) => i.taskId === parent!.id);
    // 15,000 characters of two-byte letters: 90,000 characters percent-encoded, far past any URL limit.
    const long = `Überprüfung ${"é".repeat(15_000)}`;
    await server.deps.db.execute(sql`update tasks set description = ${long} where id = ${item!.taskId}`);
    const again = await exportTrello(client, rootId, { board_name: "Rules long", board_id: board.id });
    expect(again.status).toBe("completed");
    // That card, and its subtasks' cards (their "Part of" line names it).
    expect(again.result).toMatchObject({ cards_updated: 3 });
    const card = trello
      .boards()
      .find((b) => b.id === board.id)!
      .cards.find((c) => c.id === item!.remoteId)!;
    expect(card.desc.startsWith(`Überprüfung ${"é".repeat(100)}`)).toBe(true);
    expect(card.desc.length).toBeLessThanOrEqual(16_384);
    const puts = trello.server.log.filter(
      (r) => r.method === "PUT" && r.path === `/1/cards/${item!.remoteId}`,
    );
    expect(puts).toHaveLength(1);
    expect(new URLSearchParams(puts[0]!.search).has("desc")).toBe(false);

    const cards = trello.boards().find((b) => b.id === board.id)!.cards;
    const after = await itemsOf(rootId, "trello");
    expect(after).toHaveLength(6);
    for (const it of after) {
      const c = cards.find((x) => x.id === it.remoteId)!;
      expect(it.baseline).toMatchObject({ title: c.name, text: c.desc, story_points: null });
      expect(it.baseline).not.toHaveProperty("parent");
    }
    const [row] = await server.deps.db.select().from(remoteItems).where(eq(remoteItems.id, item!.id));
    expect(row!.baseline!.text).toBe(card.desc);
  });
});
