import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../src/server/db/schema/index";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { type FakeTrello, startFakeTrello } from "../fakes/trello";
import { flatten, type TreeNode } from "../support/decomposition";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Webhook replays and order (issue 27): a delivery the service sends again (GitHub's redelivery keeps
 * X-GitHub-Delivery, JIRA's retry keeps X-Atlassian-Webhook-Identifier, Trello's action keeps its id) is
 * answered 202 "duplicate" and applies nothing, even when two copies arrive at once; an unsigned request
 * neither uses up an id nor gets past a used one; and a change older, by the service's clock, than the last
 * one applied to its item is answered 202 "stale" and applies nothing.
 *
 * The deliveries are written here, in the shape and with the signatures the fakes (and the services) use,
 * so that their ids and times can be chosen.
 */

const ACCOUNT = "5b10ac8d82e05b22cc7d4ef5";
const TRELLO_SECRET = "trello-app-secret-5678";
let jira: FakeJira;
let github: FakeGitHub;
let trello: FakeTrello;
let server: TestServer;

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({ email: "lead@example.com", apiToken: "atl-token", accountId: ACCOUNT });
  github = await startFakeGitHub();
  github.addToken({ token: "ghp_replay", login: "ada", scopes: ["repo"] });
  trello = await startFakeTrello();
  trello.addCredentials({
    key: "trello-key-1234",
    token: "trello-token-secret",
    username: "ada",
    secret: TRELLO_SECRET,
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

type Linked = TreeNode & {
  remote_links: Array<{ kind: string; key: string; url: string; status: string | null }>;
};

/** A user with a plan of `fanout` x `depth` subtasks, all pending (the seed marks some completed). */
async function planToExport(fanout: number, depth: number) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout, depth, description: "Replay" });
  await server.deps.db.execute(
    sql`update tasks set status = 'pending', completed_at = null where root_task_id = ${rootId}`,
  );
  return { client, rootId };
}

async function leavesOf(client: TestClient, rootId: string) {
  const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as unknown as TreeNode;
  return (flatten(tree) as Linked[]).filter((n) => n.children.length === 0);
}

const task = async (client: TestClient, id: string) => (await client.get(`/api/tasks/${id}`)).json;
const setStatus = async (client: TestClient, id: string, status: string) =>
  expect((await client.request("PATCH", `/api/tasks/${id}`, { status })).status).toBe(200);

/** POSTs a delivery to an endpoint as the service would; the answer's status and JSON. */
async function deliver(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const hmac256 = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

const applied = { status: "applied", changed: 1 };
const duplicate = { status: "duplicate", changed: 0 };
const stale = { status: "stale", changed: 0 };

describe("GitHub deliveries", () => {
  let client: TestClient;
  let leaves: Linked[];
  let hook: { url: string; secret: string };

  beforeAll(async () => {
    github.addRepo({ owner: "ada", name: "replay", files: ["README.md"] });
    const plan = await planToExport(3, 2);
    client = plan.client;
    expect((await client.post("/api/github/connect", { access_token: "ghp_replay" })).status).toBe(200);
    const started = await client.post("/api/github/start-export", {
      task_id: plan.rootId,
      config: { repository: "ada/replay" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    leaves = await leavesOf(client, plan.rootId);
    expect(leaves).toHaveLength(9);
    hook = (await client.post("/api/webhooks/github", {})).json as typeof hook;
  });

  /** An `issues` event for a leaf's issue, as GitHub sends it (only the fields Atomize reads, and more). */
  function issueEvent(leaf: Linked, action: "closed" | "reopened", updatedAt: string) {
    return JSON.stringify({
      action,
      issue: {
        number: Number(leaf.remote_links[0]!.key.slice(1)),
        state: action === "closed" ? "closed" : "open",
        state_reason: action === "closed" ? "completed" : "reopened",
        updated_at: updatedAt,
      },
      repository: { name: "replay", full_name: "ada/replay" },
      sender: { login: "ada" },
    });
  }
  const signed = (body: string, delivery: string) => ({
    "x-github-event": "issues",
    "x-github-delivery": delivery,
    "x-hub-signature-256": hmac256(hook.secret, body),
  });

  it("applies a delivery once: a replay with the same X-GitHub-Delivery is 202 duplicate", async () => {
    const leaf = leaves[0]!;
    const body = issueEvent(leaf, "closed", "2026-03-01T10:00:00Z");
    const id = randomUUID();
    expect(await deliver(hook.url, body, signed(body, id))).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf.id)).status).toBe("completed");
    // Someone reopens the task in Atomize; the same delivery again must not complete it a second time.
    await setStatus(client, leaf.id, "pending");
    expect(await deliver(hook.url, body, signed(body, id))).toEqual({ status: 202, json: duplicate });
    expect((await task(client, leaf.id)).status).toBe("pending");
  });

  it("applies one of several copies sent at the same time", async () => {
    const leaf = leaves[1]!;
    const body = issueEvent(leaf, "closed", "2026-03-01T10:00:00Z");
    const headers = signed(body, randomUUID());
    const answers = await Promise.all([1, 2, 3, 4].map(() => deliver(hook.url, body, headers)));
    expect(answers.filter((a) => a.status === 200)).toEqual([{ status: 200, json: applied }]);
    expect(answers.filter((a) => a.status === 202)).toEqual(Array(3).fill({ status: 202, json: duplicate }));
    expect((await task(client, leaf.id)).status).toBe("completed");
  });

  it("keeps an id only for a signed delivery: unsigned copies are 401 before and after it", async () => {
    const leaf = leaves[2]!;
    const body = issueEvent(leaf, "closed", "2026-03-01T10:00:00Z");
    const id = randomUUID();
    const forged = { "x-github-event": "issues", "x-github-delivery": id };
    expect((await deliver(hook.url, body, forged)).status).toBe(401);
    const wrong = { ...forged, "x-hub-signature-256": hmac256("not-the-secret", body) };
    expect((await deliver(hook.url, body, wrong)).status).toBe(401);
    expect((await task(client, leaf.id)).status).toBe("pending");
    // The id was not used up by the forged copies.
    expect(await deliver(hook.url, body, signed(body, id))).toEqual({ status: 200, json: applied });
    // A used id does not get an unsigned copy a 2xx either.
    expect((await deliver(hook.url, body, forged)).status).toBe(401);
    expect(await deliver(hook.url, body, signed(body, id))).toEqual({ status: 202, json: duplicate });
    const [kept] = await server.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, id));
    expect(kept).toMatchObject({ webhookId: hook.url.split("/").pop() });
  });

  it("does not close again for a late `closed` older than the `reopened` applied since", async () => {
    const leaf = leaves[3]!;
    const send = (action: "closed" | "reopened", at: string) => {
      const body = issueEvent(leaf, action, at);
      return deliver(hook.url, body, signed(body, randomUUID()));
    };
    expect(await send("closed", "2026-03-01T10:00:00Z")).toEqual({ status: 200, json: applied });
    expect(await send("reopened", "2026-03-01T10:00:05Z")).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf.id)).status).toBe("pending");
    // The close made between the two, delivered last.
    expect(await send("closed", "2026-03-01T10:00:03Z")).toEqual({ status: 202, json: stale });
    const after = await task(client, leaf.id);
    expect(after.status).toBe("pending");
    expect(after.remote_links[0].status).toBe("open");
    // Later changes still apply; one in the same second as the last applied does too (GitHub's times are
    // to the second).
    expect(await send("closed", "2026-03-01T10:00:09Z")).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf.id)).status).toBe("completed");
    expect(await send("reopened", "2026-03-01T10:00:09Z")).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf.id)).status).toBe("pending");
  });

  it("forgets ids after seven days, deleting a few expired ones with each new delivery", async () => {
    const leaf = leaves[4]!;
    const webhookId = hook.url.split("/").pop()!;
    const day = 24 * 60 * 60 * 1000;
    const [old, older, recent] = [randomUUID(), randomUUID(), randomUUID()];
    await server.deps.db.insert(webhookDeliveries).values([
      { webhookId, deliveryId: old, receivedAt: new Date(Date.now() - 8 * day) },
      { webhookId, deliveryId: older, receivedAt: new Date(Date.now() - 9 * day) },
      { webhookId, deliveryId: recent, receivedAt: new Date(Date.now() - 6 * day) },
    ]);
    const body = issueEvent(leaf, "closed", "2026-03-02T10:00:00Z");
    // An id seen eight days ago is free again.
    expect(await deliver(hook.url, body, signed(body, old))).toEqual({ status: 200, json: applied });
    const left = await server.deps.db
      .select({ id: webhookDeliveries.deliveryId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    const ids = left.map((r) => r.id);
    expect(ids).toContain(old);
    expect(ids).toContain(recent);
    expect(ids).not.toContain(older);
    // One seen six days ago is still a duplicate.
    await setStatus(client, leaf.id, "pending");
    expect(await deliver(hook.url, body, signed(body, recent))).toEqual({ status: 202, json: duplicate });
    expect((await task(client, leaf.id)).status).toBe("pending");
  });
});

describe("JIRA deliveries", () => {
  it("applies a retried delivery once, and an older event does not undo a newer one", async () => {
    const { client, rootId } = await planToExport(2, 1);
    const creds = {
      jira_url: jira.url,
      user_email: "lead@example.com",
      api_token: "atl-token",
      account_id: ACCOUNT,
    };
    expect((await client.post("/api/jira/credentials", creds)).status).toBe(200);
    const started = await client.post("/api/jira/start-export", {
      task_id: rootId,
      config: { project_name: "Replay RPL", project_key: "RPL" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const [leaf] = await leavesOf(client, rootId);
    const key = leaf!.remote_links[0]!.key;
    const hook = (await client.post("/api/webhooks/jira", {})).json as { url: string; secret: string };

    const base = Date.now() - 60_000;
    /** `jira:issue_updated` as JIRA sends it: the event's time (epoch ms) at the top. */
    const updated = (status: string, category: string, timestamp: number) =>
      JSON.stringify({
        timestamp,
        webhookEvent: "jira:issue_updated",
        issue_event_type_name: "issue_generic",
        issue: {
          id: "10001",
          key,
          self: `${jira.url}/rest/api/3/issue/10001`,
          fields: {
            status: { name: status, statusCategory: { key: category } },
            updated: new Date(timestamp).toISOString().replace("Z", "+0000"),
          },
        },
        // A status change names itself in the changelog (only then does the task move).
        changelog: {
          id: String(timestamp),
          items: [{ field: "status", fieldtype: "jira", fieldId: "status", toString: status }],
        },
      });
    const headers = (body: string, identifier: string, retry?: number) => ({
      "x-hub-signature": hmac256(hook.secret, body),
      "x-atlassian-webhook-identifier": identifier,
      ...(retry ? { "x-atlassian-webhook-retry": String(retry) } : {}),
    });

    const done = updated("Done", "done", base + 2000);
    expect(await deliver(hook.url, done, headers(done, "7001"))).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf!.id)).status).toBe("completed");
    await setStatus(client, leaf!.id, "pending");
    // JIRA retries (its answer was lost): the same identifier, counted in X-Atlassian-Webhook-Retry.
    expect(await deliver(hook.url, done, headers(done, "7001", 1))).toEqual({ status: 202, json: duplicate });
    expect((await task(client, leaf!.id)).status).toBe("pending");
    await setStatus(client, leaf!.id, "completed");
    // A move to In Progress made a second before, delivered after.
    const earlier = updated("In Progress", "indeterminate", base + 1000);
    expect(await deliver(hook.url, earlier, headers(earlier, "7002"))).toEqual({ status: 202, json: stale });
    expect((await task(client, leaf!.id)).status).toBe("completed");
    // A change made now, through the fake, applies.
    jira.addWebhook(hook);
    expect((await jira.setIssueStatus(key, "In Progress")).map((d) => d.status)).toEqual([200]);
    expect((await task(client, leaf!.id)).status).toBe("in_progress");
  });
});

describe("Trello deliveries", () => {
  it("applies an action once, and an older action does not move the task back", async () => {
    const { client, rootId } = await planToExport(2, 1);
    await client.post("/api/trello/credentials", {
      api_key: "trello-key-1234",
      token: "trello-token-secret",
    });
    const hook = (await client.post("/api/webhooks/trello", { secret: TRELLO_SECRET })).json as {
      url: string;
    };
    const started = await client.post("/api/trello/start-export", {
      task_id: rootId,
      config: { board_name: "Replay board" },
    });
    expect((await waitForExport(client, started.json.export_id)).status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Replay board")!;
    const [leaf] = await leavesOf(client, rootId);
    const card = leaf!.remote_links[0]!.url.split("/").pop()!;

    const base = Date.now() - 60_000;
    /** `updateCard` moving the card to a list, as Trello sends it; each action has its own id. */
    const moved = (list: string, at: number, actionId = randomBytes(12).toString("hex")) =>
      JSON.stringify({
        model: { id: board.id, name: board.name },
        action: {
          id: actionId,
          type: "updateCard",
          date: new Date(at).toISOString(),
          data: { card: { id: card }, board: { id: board.id }, listAfter: { name: list } },
        },
      });
    // X-Trello-Webhook: base64 HMAC-SHA1 of the body and the callback URL, with the application's secret.
    const signed = (body: string) => ({
      "x-trello-webhook": createHmac("sha1", TRELLO_SECRET)
        .update(body + hook.url)
        .digest("base64"),
    });

    const done = moved("Done", base + 2000);
    expect(await deliver(hook.url, done, signed(done))).toEqual({ status: 200, json: applied });
    expect((await task(client, leaf!.id)).status).toBe("completed");
    await setStatus(client, leaf!.id, "pending");
    // Trello has no delivery header: the same action (its id in the signed body) again is the duplicate.
    expect(await deliver(hook.url, done, signed(done))).toEqual({ status: 202, json: duplicate });
    expect((await task(client, leaf!.id)).status).toBe("pending");
    await setStatus(client, leaf!.id, "completed");
    // A move made a second before, delivered after.
    const earlier = moved("In Progress", base + 1000);
    expect(await deliver(hook.url, earlier, signed(earlier))).toEqual({ status: 202, json: stale });
    expect((await task(client, leaf!.id)).status).toBe("completed");
    // A move made now, through the fake (which delivers to the webhook the export registered), applies.
    expect((await trello.moveCard(card, "In Progress")).map((d) => d.status)).toEqual([200]);
    expect((await task(client, leaf!.id)).status).toBe("in_progress");
    const rows = await server.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.url.split("/").pop()!));
    expect(rows).toHaveLength(3);
  });
});

describe("deliveries with a bad signature (issue 39)", () => {
  it("are 401, then 429 past the per-address limit, with one log line per window", async () => {
    const limited = await startTestServer({ WEBHOOK_BAD_SIGNATURES_PER_MINUTE: "3" });
    try {
      const client = new TestClient(limited.url);
      await registerUser(client);
      const hook = (await client.post("/api/webhooks/github", {})).json as { url: string; secret: string };
      const warned: string[] = [];
      const warn = limited.deps.log.warn.bind(limited.deps.log);
      limited.deps.log.warn = (message: string, fields?: Record<string, unknown>) => {
        warned.push(message);
        warn(message, fields);
      };
      const body = JSON.stringify({ action: "closed", issue: { number: 1 } });
      const forged = (n: number) => ({
        "x-github-event": "issues",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": hmac256(`wrong-${n}`, body),
      });
      const statuses: number[] = [];
      for (let n = 0; n < 6; n++) statuses.push((await deliver(hook.url, body, forged(n))).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      expect(warned.filter((m) => m === "webhook signature refused")).toHaveLength(1);
      // A signed delivery from the same address is not refused for the forged ones.
      const signed = {
        "x-github-event": "issues",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": hmac256(hook.secret, body),
      };
      expect((await deliver(hook.url, body, signed)).status).toBeLessThan(300);
    } finally {
      await limited.stop();
    }
  });
});
