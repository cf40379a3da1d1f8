import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../src/server/db/schema/index";
import type { TaskTreeNode } from "../../src/shared/schemas/tasks";
import { type CompactTree, expandTree } from "../../src/shared/tree-compact";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The compact tree answer the web app reads (issue 32): expanded, it is exactly the tree answer, for a
 * planned plan with progress, actuals, edits and dependencies, and for a subtree; and it carries at most
 * 300 bytes a node besides the node's own text on a 2,801-node plan.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, userId: reg.user.id as string };
}

function ownText(node: TaskTreeNode): number {
  const texts = [node.description, node.implementation_details, ...(node.acceptance_criteria ?? [])];
  return texts.reduce<number>(
    (n, t) => n + (typeof t === "string" ? Buffer.byteLength(JSON.stringify(t)) - 2 : 0),
    0,
  );
}

function count(node: TaskTreeNode): { nodes: number; text: number } {
  let nodes = 0;
  let text = 0;
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    nodes++;
    text += ownText(n);
    stack.push(...n.children);
  }
  return { nodes, text };
}

describe("the compact tree answer", () => {
  it("expands to exactly the tree answer on a planned plan with progress, actuals, edits and dependencies", async () => {
    const { client } = await signedIn();
    const created = await client.post("/api/tasks", {
      description:
        "A recipe sharing site\n- Members post recipes with photos\n- Search by ingredient\n- Favourites",
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    await expect
      .poll(async () => (await client.get(`/api/tasks/${id}`)).json.status, { timeout: 20_000 })
      .toBe("completed");
    const full = (await client.get(`/api/tasks/${id}/tree`)).json as TaskTreeNode;
    const leaves: TaskTreeNode[] = [];
    const walk = (n: TaskTreeNode) => (n.children.length ? n.children.forEach(walk) : leaves.push(n));
    walk(full);
    // Progress, actuals, an edit and a status in progress, so every kind of field is there.
    await client.request("PATCH", `/api/tasks/${leaves[0]!.id}`, { status: "completed", actual_hours: 3 });
    await client.request("PATCH", `/api/tasks/${leaves[1]!.id}`, { status: "in_progress" });
    await client.request("PATCH", `/api/tasks/${leaves[2]!.id}`, {
      description: "Edited by hand\nwith a second line",
      estimate_hours: { low: 1, likely: 2.5, high: 7 },
    });
    const tree = (await client.get(`/api/tasks/${id}/tree`)).json as TaskTreeNode;
    const compact = await client.get(`/api/tasks/${id}/tree/compact`);
    expect(compact.status).toBe(200);
    expect(expandTree(compact.json as CompactTree)).toStrictEqual(tree);
    // A subtree's answer, which starts below the root.
    const branch = tree.children.find((c) => c.children.length > 0)!;
    const sub = (await client.get(`/api/tasks/${branch.id}/tree`)).json;
    const subCompact = (await client.get(`/api/tasks/${branch.id}/tree/compact`)).json as CompactTree;
    expect(expandTree(subCompact)).toStrictEqual(sub);
    // Only the owner reads it.
    const other = await signedIn();
    expect((await other.client.get(`/api/tasks/${id}/tree/compact`)).status).toBe(404);
  });

  it("carries at most 300 bytes a node besides its text on a 2,801-node plan, and expands to the tree answer", async () => {
    const { client, userId } = await signedIn();
    const { rootId } = await seedTree(server.deps.database, userId, { plan: true });
    const [leaf] = await server.deps.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true)))
      .limit(1);
    await client.request("PATCH", `/api/tasks/${leaf!.id}`, { status: "completed", actual_hours: 1.5 });
    const fullText = (await client.get(`/api/tasks/${rootId}/tree`)).text;
    const compactText = (await client.get(`/api/tasks/${rootId}/tree/compact`)).text;
    const tree = JSON.parse(fullText) as TaskTreeNode;
    expect(expandTree(JSON.parse(compactText) as CompactTree)).toStrictEqual(tree);
    const { nodes, text } = count(tree);
    expect(nodes).toBe(2801);
    const perNode = (Buffer.byteLength(compactText) - text) / nodes;
    expect(perNode).toBeLessThanOrEqual(300);
    // The tree answer itself keeps its shape (scripts and exports read it), at about twice the bytes.
    expect((Buffer.byteLength(fullText) - text) / nodes).toBeGreaterThan(2 * perNode);
  });
});
