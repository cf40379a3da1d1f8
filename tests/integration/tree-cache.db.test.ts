/**
 * Issue 39, item 2: a whole plan's tree is built once per plan version and served as built, with an entity
 * tag: If-None-Match gets 304, concurrent reads share one build, and every write to a row the tree shows
 * (tasks, dependencies, remote items, epics, stories, the event model: migration 0022's triggers) makes
 * the next read see it, whichever path wrote it. Direct inserts below stand for paths that have no route.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { epics, eventModels, remoteItems, userStories } from "../../src/server/db/schema/index";
import { foldChanges } from "../../src/server/services/tasks/tree-reads";
import { flatten, type TreeNode } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "100" });
});
afterAll(() => server?.stop());

async function planFor() {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 3, depth: 2, plan: true });
  return { client, userId: user.id as string, rootId };
}

const read = (client: TestClient, rootId: string, etag?: string, shape = "tree") =>
  client.get(
    `/api/tasks/${rootId}/${shape === "tree" ? "tree" : "tree/compact"}`,
    etag ? { "if-none-match": etag } : {},
  );

describe("a plan's tree read", () => {
  it("answers with an entity tag, 304 to a client that has it, and the same body until the plan changes", async () => {
    const { client, rootId } = await planFor();
    for (const shape of ["tree", "compact"]) {
      const first = await read(client, rootId, undefined, shape);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag, String(etag)).toMatch(/^(W\/)?"\d+-[\w-]+"$/);
      expect(first.headers.get("cache-control")).toBe("private, no-cache");
      expect(first.headers.get("content-type")).toMatch(/^application\/json/);
      const again = await read(client, rootId, undefined, shape);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.text).toBe(first.text);
      const notModified = await read(client, rootId, etag!, shape);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe("");
      // A list of tags, or a weak form a proxy made, still matches.
      const strong = etag!.replace(/^W\//, "");
      expect((await read(client, rootId, strong, shape)).status).toBe(304);
      expect((await read(client, rootId, `"other", W/${strong}`, shape)).status).toBe(304);
      expect((await read(client, rootId, '"other"', shape)).status).toBe(200);
    }
    const [tree, compact] = await Promise.all([
      read(client, rootId),
      read(client, rootId, undefined, "compact"),
    ]);
    expect(tree.headers.get("etag")).not.toBe(compact.headers.get("etag"));
  });

  it("shows every kind of write at the next read, with a new tag, whatever wrote it", async () => {
    const { client, userId, rootId } = await planFor();
    const db = server.deps.db;
    const nodes = flatten((await read(client, rootId)).json as TreeNode);
    // Two leaves of different parents (the seed orders siblings and parents: the last may wait for the first).
    const leaves = nodes.filter((n) => n.depth === 2);
    const [a, b] = [leaves[0], leaves.at(-1)];
    const tags = new Set<string>();
    const tagNow = async () => {
      const answer = await read(client, rootId);
      expect(answer.status).toBe(200);
      const tag = answer.headers.get("etag")!;
      expect(tags.has(tag)).toBe(false);
      tags.add(tag);
      return answer.json as TreeNode & Record<string, any>;
    };
    await tagNow();

    expect(
      (await client.request("PATCH", `/api/tasks/${a!.id}`, { description: "Renamed leaf" })).status,
    ).toBe(200);
    expect(flatten(await tagNow()).find((n) => n.id === a!.id)?.description).toBe("Renamed leaf");

    const dep = await client.post(`/api/tasks/${b!.id}/dependencies`, { depends_on: a!.id });
    expect(dep.status, dep.text).toBe(201);
    expect(flatten(await tagNow()).find((n) => n.id === b!.id)?.depends_on).toContain(a!.id);

    await db.insert(remoteItems).values({
      userId,
      taskId: a!.id,
      rootTaskId: rootId,
      kind: "github",
      target: "octo/repo",
      remoteId: "7",
      remoteKey: "#7",
      url: "https://github.com/octo/repo/issues/7",
    });
    const linked = flatten(await tagNow()).find((n) => n.id === a!.id) as Record<string, any>;
    expect(linked.remote_links?.[0]?.key).toBe("#7");

    await db.insert(epics).values({ rootTaskId: rootId, key: "E1", title: "Checkout" });
    expect((await tagNow()).context.epics.map((e: { title: string }) => e.title)).toEqual(["Checkout"]);
    await db.update(epics).set({ title: "Checkout and refunds" }).where(eq(epics.rootTaskId, rootId));
    expect((await tagNow()).context.epics[0].title).toBe("Checkout and refunds");

    await db
      .insert(userStories)
      .values({ rootTaskId: rootId, key: "S1", actor: "shopper", action: "pay by card" });
    expect((await tagNow()).context.user_stories.map((s: { id: string }) => s.id)).toEqual(["S1"]);

    await db.insert(eventModels).values({ rootTaskId: rootId, markdown: "# Events" });
    expect((await tagNow()).metadata).not.toBeNull();
    await db.delete(eventModels).where(eq(eventModels.rootTaskId, rootId));
    expect((await tagNow()).metadata).toBeNull();

    const removed = await client.request("DELETE", `/api/tasks/${b!.id}/subtask`);
    expect(removed.status).toBe(200);
    expect(flatten(await tagNow()).some((n) => n.id === b!.id)).toBe(false);
    // A subtask's own tree follows the plan's version too.
    const sub = await client.get(`/api/tasks/${a!.id}/tree`);
    expect(sub.json.description).toBe("Renamed leaf");
  });

  it("builds once for reads that arrive together, and never for a read that changes nothing", async () => {
    const { client, rootId } = await planFor();
    const cache = server.deps.treeCache;
    const before = cache.builds;
    const answers = await Promise.all(Array.from({ length: 8 }, () => read(client, rootId)));
    expect(answers.every((r) => r.status === 200 && r.text === answers[0]!.text)).toBe(true);
    expect(cache.builds - before).toBe(1);
    await read(client, rootId);
    await read(client, rootId, undefined, "compact");
    expect(cache.builds - before).toBe(2);
  });

  it("still answers 404 to another user, though the tree is built", async () => {
    const { client, rootId } = await planFor();
    expect((await read(client, rootId)).status).toBe(200);
    const stranger = new TestClient(server.url);
    await registerUser(stranger);
    expect((await read(stranger, rootId)).status).toBe(404);
    expect((await read(stranger, rootId, undefined, "compact")).status).toBe(404);
  });

  it("keeps a version that only grows when change rows are folded, and forgets a deleted plan's", async () => {
    const { client, rootId } = await planFor();
    const nodes = flatten((await read(client, rootId)).json as TreeNode);
    const leaf = nodes.find((n) => n.depth === 2)!;
    const versionOf = (tag: string | null) => Number(/^(?:W\/)?"(\d+)-/.exec(tag ?? "")?.[1]);
    let last = versionOf((await read(client, rootId)).headers.get("etag"));
    for (let i = 0; i < 4; i++) {
      await client.request("PATCH", `/api/tasks/${leaf.id}`, { description: `Leaf, take ${i}` });
      if (i === 1) await foldChanges(server.deps, rootId);
      const answer = await read(client, rootId);
      const version = versionOf(answer.headers.get("etag"));
      expect(version).toBeGreaterThan(last);
      expect(flatten(answer.json as TreeNode).find((n) => n.id === leaf.id)?.description).toBe(
        `Leaf, take ${i}`,
      );
      last = version;
    }
    const [kept] = await server.deps.database.rows<{ rows: number }>(
      sql`select (select count(*)::int from plan_changes where root_task_id = ${rootId})
        + (select count(*)::int from plan_versions where root_task_id = ${rootId}) as rows`,
    );
    expect(kept!.rows).toBeGreaterThan(0);
    expect((await client.request("DELETE", `/api/tasks/${rootId}`)).status).toBe(200);
    const [after] = await server.deps.database.rows<{ left: number }>(
      sql`select (select count(*)::int from plan_changes where root_task_id = ${rootId})
        + (select count(*)::int from plan_versions where root_task_id = ${rootId}) as left`,
    );
    expect(after!.left).toBe(0);
  });

  it("paces one client's whole-plan reads, not another's (HEAVY_REQUESTS_PER_SECOND)", async () => {
    const paced = await startTestServer({
      REGISTRATIONS_PER_IP_PER_HOUR: "100",
      HEAVY_REQUESTS_PER_SECOND: "5",
    });
    try {
      const client = new TestClient(paced.url);
      const { user } = await registerUser(client);
      const { rootId } = await seedTree(paced.deps.database, user.id, { fanout: 2, depth: 1 });
      // Four starts at 5 a second are three gaps of 200 ms: they cannot all be done sooner (one clock).
      const t0 = Date.now();
      const answers = await Promise.all(Array.from({ length: 4 }, () => read(client, rootId)));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(580);
      // An ordinary read is never paced.
      for (let i = 0; i < 3; i++) expect((await client.get(`/api/tasks/${rootId}`)).status).toBe(200);
    } finally {
      await paced.stop();
    }
  });
});
