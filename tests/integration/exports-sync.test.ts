import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { type FakeTrello, startFakeTrello } from "../fakes/trello";
import { flatten, type TreeNode } from "../support/decomposition";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Status flowing back (issue 13's two-way sync): every exported task keeps its issue's key and link;
 * "Sync now" asks JIRA and GitHub; signed webhooks bring changes as they happen; a bad signature changes
 * nothing (401); an item no export made is ignored (202).
 */

const ACCOUNT = "5b10ac8d82e05b22cc7d4ef5";
let jira: FakeJira;
let github: FakeGitHub;
let trello: FakeTrello;
let server: TestServer;

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({ email: "lead@example.com", apiToken: "atl-token", accountId: ACCOUNT });
  github = await startFakeGitHub();
  github.addToken({ token: "ghp_sync", login: "ada", scopes: ["repo"] });
  trello = await startFakeTrello();
  trello.addCredentials({
    key: "trello-key-1234",
    token: "trello-token-secret",
    username: "ada",
    secret: "trello-app-secret-5678",
  });
  server = await startTestServer({
    JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
    ATLASSIAN_API_URL: jira.url,
    GITHUB_API_URL: github.url,
    GITHUB_WRITE_INTERVAL_MS: "5",
    TRELLO_API_URL: trello.url,
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await jira?.close();
  await github?.close();
  await trello?.close();
});

/** A plan of 1 + 2 + 4 nodes exported to JIRA, with the connection stored; its tree afterwards. */
async function exportedToJira(key: string) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, {
    fanout: 2,
    depth: 2,
    description: "Sync",
  });
  // Nothing done yet: the seed marks some tasks completed.
  await server.deps.db.execute(
    sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
  );
  const creds = {
    jira_url: jira.url,
    user_email: "lead@example.com",
    api_token: "atl-token",
    account_id: ACCOUNT,
  };
  expect((await client.post("/api/jira/credentials", creds)).status).toBe(200);
  const started = await client.post("/api/jira/start-export", {
    task_id: rootId,
    config: { project_name: `Sync ${key}`, project_key: key },
  });
  expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
  const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode & {
    remote_links: unknown[];
  };
  return { client, rootId, tree };
}

type Linked = TreeNode & {
  remote_links: Array<{ kind: string; key: string; url: string; status: string | null }>;
};
const node = async (client: TestClient, id: string) => (await client.get(`/api/tasks/${id}`)).json;
/** A Trello card's id, from its link. */
const cardOf = (n: Linked) => n.remote_links[0]!.url.split("/").pop()!;

describe("two-way sync with JIRA", () => {
  it("links every exported task to its issue, and Sync now brings statuses back", async () => {
    const { client, rootId, tree } = await exportedToJira("SYN");
    const subtasks = flatten(tree).filter((n) => n.id !== rootId) as Linked[];
    for (const n of subtasks) {
      expect(n.remote_links).toHaveLength(1);
      expect(n.remote_links[0]).toMatchObject({ kind: "jira", key: expect.stringMatching(/^SYN-\d+$/) });
      expect(n.remote_links[0]!.url).toBe(`${jira.url}/browse/${n.remote_links[0]!.key}`);
    }
    const [a, b] = subtasks.filter((n) => n.children.length === 0);
    await jira.setIssueStatus(a!.remote_links[0]!.key, "Done");
    await jira.setIssueStatus(b!.remote_links[0]!.key, "In Progress");
    const synced = await client.post(`/api/tasks/${rootId}/sync`, {});
    expect(synced.status).toBe(200);
    expect(synced.json).toEqual({ checked: 6, changed: 2, problems: [], to_review: 0 });
    expect((await node(client, a!.id)).status).toBe("completed");
    expect((await node(client, b!.id)).status).toBe("in_progress");
    expect((await node(client, b!.id)).remote_links[0].status).toBe("In Progress");
    // Nothing changed since: a second sync changes nothing.
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json.changed).toBe(0);

    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    expect((await stranger.post(`/api/tasks/${rootId}/sync`, {})).status).toBe(404);
  });

  it("moves a task when JIRA's signed webhook says its issue changed, and refuses a bad signature", async () => {
    const { client, rootId, tree } = await exportedToJira("HOOK");
    const hook = await client.post("/api/webhooks/jira", {});
    expect(hook.status).toBe(201);
    expect(hook.json.url).toMatch(/\/api\/hooks\/jira\/[0-9a-f-]{36}$/);
    const listed = (await client.get("/api/webhooks")).json;
    expect(JSON.stringify(listed)).not.toContain(hook.json.secret);
    jira.addWebhook({ url: hook.json.url, secret: hook.json.secret });
    jira.addWebhook({ url: hook.json.url, secret: "not-the-secret" });
    const leaf = (flatten(tree) as Linked[]).find((n) => n.children.length === 0)!;
    const deliveries = await jira.setIssueStatus(leaf.remote_links[0]!.key, "Done");
    expect(deliveries.map((d) => d.status)).toEqual([200, 401]);
    expect((await node(client, leaf.id)).status).toBe("completed");
    // The delivery is in REST v2 (the description in wiki markup, the status field "Status"): a status
    // move is no change to the description, and nothing goes to review.
    const review = async () =>
      (
        (await client.get(`/api/tasks/${rootId}/tracker-changes`)).json as {
          changes: Array<{ field: string; theirs: string | null; task_id: string }>;
        }
      ).changes;
    expect(await review()).toEqual([]);
    // A person's edit of the description in JIRA, with formatting: its text comes to review as written.
    await jira.editIssue(leaf.remote_links[0]!.key, {
      description: "Take cards - and wallets\n\nApple Pay first",
    });
    expect(await review()).toEqual([
      expect.objectContaining({
        field: "description",
        task_id: leaf.id,
        theirs: "Take cards - and wallets\nApple Pay first",
      }),
    ]);
    const root = await node(client, rootId);
    expect(root.status).toBe("completed"); // the plan's own status is not the work's

    // A signed delivery about an issue no export of this user made: acknowledged (202), ignored.
    const unknown = JSON.stringify({
      webhookEvent: "jira:issue_updated",
      issue: { key: "ELSE-1", fields: { status: { name: "Done", statusCategory: { key: "done" } } } },
    });
    const ignored = await fetch(hook.json.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature": `sha256=${createHmac("sha256", hook.json.secret).update(unknown).digest("hex")}`,
      },
      body: unknown,
    });
    expect(ignored.status).toBe(202);
    expect(await ignored.json()).toEqual({ status: "ignored", changed: 0 });

    // A forged delivery: right endpoint, no or wrong signature.
    const forged = await fetch(hook.json.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature": "sha256=00" },
      body: JSON.stringify({ webhookEvent: "jira:issue_updated" }),
    });
    expect(forged.status).toBe(401);
    expect(
      (
        await fetch(`${server.url}/api/hooks/jira/${"0".repeat(8)}-0000-0000-0000-000000000000`, {
          method: "POST",
          body: "{}",
        })
      ).status,
    ).toBe(404);
  });
});

describe("two-way sync with GitHub", () => {
  it("closes and reopens tasks from GitHub's signed issues events, and Sync now catches up", async () => {
    github.addRepo({ owner: "ada", name: "sync", files: ["README.md"] });
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId } = await seedTree(server.deps.database, user.id, {
      fanout: 2,
      depth: 2,
      description: "GH",
    });
    await server.deps.db.execute(
      sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
    );
    expect((await client.post("/api/github/connect", { access_token: "ghp_sync" })).status).toBe(200);
    const started = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "ada/sync" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    const leaves = (flatten(tree) as Linked[]).filter((n) => n.children.length === 0);
    const number = (n: Linked) => Number(n.remote_links[0]!.key.slice(1));
    expect(leaves[0]!.remote_links[0]!.url).toMatch(/^https:\/\/github\.com\/ada\/sync\/issues\/\d+$/);

    const hook = (await client.post("/api/webhooks/github", {})).json;
    github.addWebhook("ada", "sync", { url: hook.url, secret: hook.secret });
    expect(
      (await github.setIssueState("ada", "sync", number(leaves[0]!), "closed")).map((d) => d.status),
    ).toEqual([200]);
    expect((await node(client, leaves[0]!.id)).status).toBe("completed");
    await github.setIssueState("ada", "sync", number(leaves[0]!), "open");
    expect((await node(client, leaves[0]!.id)).status).toBe("pending");
    // Closed as not planned leaves the task alone.
    await github.setIssueState("ada", "sync", number(leaves[1]!), "closed", "not_planned");
    expect((await node(client, leaves[1]!.id)).status).toBe("pending");

    // A change made while no webhook listened: Sync now picks it up.
    github.addRepo({ owner: "ada", name: "quiet", files: ["README.md"] });
    const other = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "ada/quiet" },
    });
    expect((await waitForExport(client, other.json.export_id)).status).toBe("completed");
    const quiet = github.issues("ada", "quiet");
    await github.setIssueState("ada", "quiet", quiet[quiet.length - 1]!.number, "closed");
    const synced = (await client.post(`/api/tasks/${rootId}/sync`, {})).json;
    expect(synced.problems).toEqual([]);
    expect(synced.changed).toBe(1);
  });
});

describe("two-way sync with Trello", () => {
  it("moves tasks to match the list their card is in", async () => {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId } = await seedTree(server.deps.database, user.id, {
      fanout: 2,
      depth: 1,
      description: "TR",
    });
    await server.deps.db.execute(
      sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
    );
    expect(
      (
        await client.post("/api/trello/credentials", {
          api_key: "trello-key-1234",
          token: "trello-token-secret",
        })
      ).status,
    ).toBe(200);
    const started = await client.post("/api/trello/start-export", {
      task_id: rootId,
      config: { board_name: "Sync board" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    const [a, b] = tree.children as Linked[];
    await trello.moveCard(cardOf(a!), "Done");
    await trello.moveCard(cardOf(b!), "In Progress");
    const synced = (await client.post(`/api/tasks/${rootId}/sync`, {})).json;
    expect(synced).toEqual({ checked: 2, changed: 2, problems: [], to_review: 0 });
    expect((await node(client, a!.id)).status).toBe("completed");
    expect((await node(client, b!.id)).status).toBe("in_progress");

    // A person adds a card to the board: it comes back as an item added there, to review (issue 31).
    const board = trello.boards().find((bd) => bd.cards.some((c) => c.id === cardOf(a!)))!;
    const todo = board.lists.find((l) => l.name === "To Do")!;
    const made = await fetch(`${trello.url}/1/cards`, {
      method: "POST",
      headers: {
        authorization: 'OAuth oauth_consumer_key="trello-key-1234", oauth_token="trello-token-secret"',
        "content-type": "application/json",
      },
      body: JSON.stringify({ idList: todo.id, name: "Print the menu", desc: "Asked for at the stand-up." }),
    });
    expect(made.status).toBe(200);
    expect((await client.post(`/api/tasks/${rootId}/sync`, {})).json).toMatchObject({ to_review: 1 });
    const review = (await client.get(`/api/tasks/${rootId}/tracker-changes`)).json as {
      changes: Array<{ field: string; service: string; theirs: string }>;
    };
    expect(review.changes).toEqual([
      expect.objectContaining({ field: "added", service: "trello", theirs: "Print the menu" }),
    ]);
  });
});

describe("Trello's signed webhook", () => {
  it("is registered on the exported board and moves a task when its card changes list", async () => {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId } = await seedTree(server.deps.database, user.id, {
      fanout: 2,
      depth: 1,
      description: "TW",
    });
    await server.deps.db.execute(
      sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
    );
    await client.post("/api/trello/credentials", {
      api_key: "trello-key-1234",
      token: "trello-token-secret",
    });
    expect((await client.post("/api/webhooks/trello", {})).status).toBe(422); // Trello's secret is needed
    const hook = await client.post("/api/webhooks/trello", { secret: "trello-app-secret-5678" });
    expect(hook.status).toBe(201);
    const started = await client.post("/api/trello/start-export", {
      task_id: rootId,
      // Not ASCII: Trello signs the text as a "binary" string (its documented form), not as UTF-8.
      config: { board_name: "Hooked board — café" },
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result.warnings).toEqual([]);
    const board = trello.boards().find((b) => b.name === "Hooked board — café")!;
    expect(trello.webhooks().filter((w) => w.idModel === board.id)).toEqual([
      expect.objectContaining({ callbackURL: hook.json.url }),
    ]);
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    const first = tree.children[0] as Linked;
    const card = first.remote_links[0]!.url.split("/").pop()!;
    expect((await trello.moveCard(card, "Done")).map((d) => d.status)).toEqual([200]);
    expect((await node(client, first.id)).status).toBe("completed");

    const forged = await fetch(hook.json.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-trello-webhook": "bm90IGEgc2lnbmF0dXJl" },
      body: JSON.stringify({
        action: { type: "updateCard", data: { card: { id: card }, listAfter: { name: "To Do" } } },
      }),
    });
    expect(forged.status).toBe(401);
    expect((await node(client, first.id)).status).toBe("completed");
  });
});

describe("exporting to the same Trello board again", () => {
  it("updates its cards, adds new ones, and comments on those of deleted tasks", async () => {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId } = await seedTree(server.deps.database, user.id, {
      fanout: 2,
      depth: 2,
      description: "TB",
    });
    await client.post("/api/trello/credentials", {
      api_key: "trello-key-1234",
      token: "trello-token-secret",
    });
    const first = await client.post("/api/trello/start-export", {
      task_id: rootId,
      config: { board_name: "Again board" },
    });
    expect((await waitForExport(client, first.json.export_id)).status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Again board")!;
    expect(board.cards).toHaveLength(6);

    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    await client.request("PATCH", `/api/tasks/${tree.children[0]!.id}`, { description: "Renamed card" });
    const gone = tree.children[1]!.children[0]! as Linked;
    const goneCard = gone.remote_links[0]!.url.split("/").pop()!;
    expect((await client.request("DELETE", `/api/tasks/${gone.id}/subtask`)).status).toBe(200);
    expect(
      (
        await client.post(`/api/tasks/${tree.children[0]!.id}/add-task`, {
          description: "A new card",
          position: "child",
          auto_decompose: false,
        })
      ).status,
    ).toBe(201);

    const listed = (await client.get("/api/trello/boards")).json.boards as Array<{
      id: string;
      name: string;
    }>;
    expect(listed).toContainEqual(expect.objectContaining({ id: board.id, name: "Again board" }));
    const preview = await client.get(
      `/api/exports/preview?task_id=${rootId}&kind=trello&board_id=${board.id}`,
    );
    expect(preview.json).toEqual({ exported_before: true, update: 5, create: 1, remove: 1 });
    const again = await client.post("/api/trello/start-export", {
      task_id: rootId,
      config: { board_name: "Again board", board_id: board.id },
    });
    const done = await waitForExport(client, again.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ cards_created: 1, cards_marked_removed: 1 });
    const after = trello.boards().filter((b) => b.name === "Again board");
    expect(after).toHaveLength(1); // no second board
    const cards = after[0]!.cards;
    expect(cards).toHaveLength(7);
    expect(new Set(cards.map((c) => c.desc.split("\n").pop())).size).toBe(7); // one card per task
    expect(cards.filter((c) => c.name === "Renamed card")).toHaveLength(1);
    expect(cards.find((c) => c.id === goneCard)!.comments[0]).toMatch(/task was deleted from the plan/);
    expect(after[0]!.lists.map((l) => l.name)).toEqual(["To Do", "In Progress", "Done"]);
    // Checklists were not doubled on the cards that had them.
    for (const c of cards) expect(new Set(c.checklists.map((l) => l.name)).size).toBe(c.checklists.length);

    // The order: a dependency added shows as a "Blocked by" item; removed, the item goes.
    const fresh = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
    const [w, b] = fresh.children[0]!.children as Linked[];
    const card = () =>
      trello
        .boards()
        .find((x) => x.id === board.id)!
        .cards.find((c) => c.id === cardOf(w!))!;
    const exportToBoard = async () => {
      const started = await client.post("/api/trello/start-export", {
        task_id: rootId,
        config: { board_name: "Again board", board_id: board.id },
      });
      return waitForExport(client, started.json.export_id);
    };
    expect((await client.post(`/api/tasks/${w!.id}/dependencies`, { depends_on: b!.id })).status).toBe(201);
    expect((await exportToBoard()).status).toBe("completed");
    expect(card().checklists.find((l) => l.name === "Blocked by")!.items).toEqual([b!.description]);
    expect((await client.request("DELETE", `/api/tasks/${w!.id}/dependencies/${b!.id}`)).status).toBe(204);
    expect((await exportToBoard()).status).toBe("completed");
    expect(card().checklists.find((l) => l.name === "Blocked by")!.items).toEqual([]);
    expect(trello.boards().find((x) => x.id === board.id)!.cards).toHaveLength(7);
  });
});
