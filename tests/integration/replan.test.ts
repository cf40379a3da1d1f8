import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../src/server/db/schema/index";
import {
  flatten,
  startModelBackedServer,
  type TreeNode,
  waitForStatus,
  withoutDataMarkers,
} from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";

/**
 * Re-planning as a reviewable diff and the plan's history, over /api and tRPC, on plans the offline
 * outline makes (the default planner): a proposal never touches the tree or a locked node, accepting some
 * changes applies exactly those (and what they need), a changed subtree makes a proposal stale, and a
 * revision can be restored.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

const DESCRIPTION = `Build a recipe sharing web app.
- Users sign up and log in with email and password.
- Users can post recipes with photos and ingredients.
- Users can search recipes by ingredient.
- Users can rate and comment on recipes.
- Admins can moderate comments.`;

type Change = {
  change_id: string;
  op: "add" | "update" | "remove" | "move";
  task_id?: string;
  parent_id?: string | null;
  parent_change_id?: string | null;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  requires: string[];
};
type Proposal = {
  proposal_id: string;
  task_id: string;
  changes: Change[];
  kept_locked: { task_id: string; locked: string[] }[];
};

async function planned(client: TestClient): Promise<TreeNode> {
  const created = await client.post("/api/tasks", { description: DESCRIPTION, max_depth: 3 });
  expect(created.status).toBe(201);
  await waitForStatus(client, created.json.id, ["completed"]);
  return (await client.get(`/api/tasks/${created.json.id}/tree`)).json as unknown as TreeNode;
}

async function signedIn() {
  const client = new TestClient(server.url);
  await registerUser(client);
  return client;
}

/** The tree as titles under their parents' titles: what a person sees, without ids or timestamps. */
function shape(tree: TreeNode): string[] {
  const byId = new Map(flatten(tree).map((n) => [n.id, n]));
  return flatten(tree)
    .map((n) => `${n.parent_id ? byId.get(n.parent_id)!.description : "-"} > ${n.description}`)
    .sort();
}

const tree = async (client: TestClient, id: string): Promise<TreeNode> =>
  (await client.get(`/api/tasks/${id}/tree`)).json as unknown as TreeNode;

describe("re-planning", () => {
  it("proposes without touching the tree; an unchanged outline proposes nothing", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    expect(flatten(plan).length).toBeGreaterThan(8);
    const res = await client.post(`/api/tasks/${plan.id}/replan`, {});
    expect(res.status).toBe(200);
    const proposal = res.json as Proposal;
    expect(proposal.task_id).toBe(plan.id);
    expect(proposal.changes).toEqual([]);
    expect((proposal as Proposal & { why_nothing: string }).why_nothing).toMatch(
      /^The offline planner plans this part as it is now\./,
    );
    const accept = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(accept.status).toBe(422);
    expect(accept.json.detail).toMatch(/no changes/);
  });

  it('"less detail" proposes merging the second level into the first; accepting some applies exactly those', async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const before = shape(plan);
    const res = await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" });
    expect(res.status).toBe(200);
    const proposal = res.json as Proposal;
    const removes = proposal.changes.filter((c) => c.op === "remove");
    const grandchildren = plan.children.flatMap((c) => c.children);
    expect(grandchildren.length).toBeGreaterThan(2);
    expect(removes.map((r) => r.task_id).sort()).toEqual(grandchildren.map((g) => g.id).sort());
    // Proposing changed nothing.
    expect(shape(await tree(client, plan.id))).toEqual(before);

    const chosen = removes.slice(0, 2);
    const accepted = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {
      change_ids: chosen.map((c) => c.change_id),
    });
    expect(accepted.status).toBe(200);
    // Each removal comes with the change that merges it into its parent (what it needs).
    const needed = [...new Set(chosen.flatMap((c) => [c.change_id, ...c.requires]))];
    expect(needed.length).toBeGreaterThan(chosen.length);
    expect(accepted.json.applied.sort()).toEqual(needed.sort());
    const after = flatten(await tree(client, plan.id));
    const ids = new Set(after.map((n) => n.id));
    for (const r of removes) expect(ids.has(r.task_id!)).toBe(!chosen.includes(r));
    expect(after.length).toBe(flatten(plan).length - 2);
    // A parent left without subtasks is a leaf again.
    for (const n of after) if (n.children.length === 0 && n.parent_id) expect(n.is_atomic).toBe(true);

    // Accepted once: a second accept is a conflict, and the tree changed, so the rest is stale anyway.
    const again = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(again.status).toBe(409);
  });

  it("says which stated requirements a proposal leaves with no task, and accepts that only when told to (issue 40)", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const parent = plan.children.find((c) => c.children.length >= 2)!;
    const dropped = parent.children[0]!;
    const word = dropped.description
      .toLowerCase()
      .split(/[^a-z]+/)
      .find(
        (w) =>
          w.length >= 6 && !parent.children.slice(1).some((c) => c.description.toLowerCase().includes(w)),
      );
    expect(word).toBeDefined();
    // R2's only work is the task the guidance leaves out.
    await server.deps.db.update(tasks).set({ requirementIds: [] }).where(eq(tasks.rootTaskId, plan.id));
    await server.deps.db
      .update(tasks)
      .set({ requirementIds: ["R2"] })
      .where(eq(tasks.id, dropped.id));
    const proposal = (
      await client.post(`/api/tasks/${parent.id}/replan`, { guidance: `We already have ${word}` })
    ).json as Proposal & { uncovered: string[] };
    expect(proposal.changes.map((c) => [c.op, c.task_id])).toContainEqual(["remove", dropped.id]);
    expect(proposal.uncovered).toEqual(["R2"]);
    // The same list when the proposal is read again.
    const read = await client.get(`/api/tasks/${parent.id}/replan/${proposal.proposal_id}`);
    expect(read.json.uncovered).toEqual(["R2"]);

    const before = shape(await tree(client, plan.id));
    const refused = await client.post(`/api/tasks/${parent.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toMatch(/^Accepting this leaves R2 with no task/);
    expect(shape(await tree(client, plan.id))).toEqual(before);
    const accepted = await client.post(`/api/tasks/${parent.id}/replan/${proposal.proposal_id}/accept`, {
      accept_uncovered: true,
    });
    expect(accepted.status).toBe(200);
  });

  it('"less detail" merges tasks, keeping their requirements, hours, start and order; it says why when it cannot (issue 40)', async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const groups = plan.children.filter((c) => c.children.length > 0);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    const [g1, g2] = groups as [TreeNode, TreeNode];
    const worked = g1.children[0]!;
    expect((await client.request("PATCH", `/api/tasks/${worked.id}`, { status: "in_progress" })).status).toBe(
      200,
    );
    expect((await client.request("PATCH", `/api/tasks/${worked.id}`, { actual_hours: 3.5 })).status).toBe(
      200,
    );
    // An order across branches: the second group's first task waits for the first group's.
    const dep = await client.post(`/api/tasks/${g2.children[0]!.id}/dependencies`, { depends_on: worked.id });
    expect(dep.status).toBe(201);
    const covered = (t: TreeNode) =>
      new Set(
        flatten(t)
          .slice(1)
          .flatMap((n) => n.requirement_ids ?? []),
      );
    const coveredBefore = covered(plan);
    expect(coveredBefore.size).toBeGreaterThan(0);

    const proposal = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" }))
      .json as Proposal & { uncovered: string[]; why_nothing: string | null };
    expect(proposal.uncovered).toEqual([]);
    expect(proposal.why_nothing).toBeNull();
    for (const r of proposal.changes.filter((c) => c.op === "remove")) {
      const parentOf = flatten(plan).find((n) => n.id === r.task_id)!.parent_id;
      expect((r as { merged_into?: string }).merged_into).toBe(parentOf);
    }
    // Accepted without accept_uncovered: nothing stated is left without a task.
    const accepted = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(accepted.status).toBe(200);
    const after = await tree(client, plan.id);
    expect(covered(after)).toEqual(coveredBefore);
    const merged = after.children.find((c) => c.id === g1.id)!;
    expect(merged).toMatchObject({ children: [], is_atomic: true, status: "in_progress", actual_hours: 3.5 });
    const sum = g1.children.reduce((n, c) => n + (c.estimate_hours?.likely ?? 0), 0);
    expect(merged.estimate_hours?.likely).toBeCloseTo(sum, 1);
    expect(after.children.find((c) => c.id === g2.id)!.depends_on).toContain(g1.id);

    // Now all leaves: neighbours merge in pairs, the hours going along.
    const second = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "fewer tasks" }))
      .json as Proposal;
    const removes = second.changes.filter((c) => c.op === "remove");
    expect(removes.length).toBe(Math.floor(after.children.length / 2));
    expect((await client.post(`/api/tasks/${plan.id}/replan/${second.proposal_id}/accept`, {})).status).toBe(
      200,
    );
    const paired = await tree(client, plan.id);
    expect(paired.children.length).toBe(Math.ceil(after.children.length / 2));
    expect(covered(paired)).toEqual(coveredBefore);
    expect(flatten(paired).reduce((n, t) => n + (t.actual_hours ?? 0), 0)).toBeCloseTo(3.5, 5);

    // A task with no subtasks: nothing to merge, and the proposal says so.
    const leaf = paired.children[0]!;
    const none = (await client.post(`/api/tasks/${leaf.id}/replan`, { guidance: "less detail" })).json;
    expect(none.changes).toEqual([]);
    expect(none.why_nothing).toMatch(/has no subtasks: there is nothing to merge/);
    // Done work is never merged, and the proposal names it.
    const other = await planned(client);
    for (const g of other.children.filter((c) => c.children.length > 0)) {
      expect((await client.post(`/api/tasks/${g.children[0]!.id}/complete`, {})).status).toBe(200);
    }
    const locked = (await client.post(`/api/tasks/${other.id}/replan`, { guidance: "less detail" })).json;
    expect(locked.changes).toEqual([]);
    expect(locked.why_nothing).toMatch(/^Nothing can be merged: “.+”( \(R\d[^)]*\))? is done and locked/);
  });

  it("never changes locked nodes: edited by hand, completed, exported; unlock lets it", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const [first, second, third] = plan.children.filter((c) => c.children.length > 0);
    expect(third).toBeDefined();
    const edited = first!.children[0]!;
    const done = second!.children[0]!;
    expect(
      (await client.request("PATCH", `/api/tasks/${edited.id}`, { description: "Our own wording" })).status,
    ).toBe(200);
    expect((await client.post(`/api/tasks/${done.id}/complete`, {})).status).toBe(200);
    const exported = third!.children[0]!;
    await server.deps.db.update(tasks).set({ exportedAt: new Date() }).where(eq(tasks.id, exported.id));

    const now = await tree(client, plan.id);
    const lockOf = (id: string) => flatten(now).find((n) => n.id === id)!.locked;
    expect(lockOf(edited.id)).toEqual(["edited"]);
    expect(lockOf(done.id)).toEqual(["completed"]);
    expect(lockOf(exported.id)).toEqual(["exported"]);
    expect(lockOf(plan.children[0]!.id)).toEqual([]);

    const proposal = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" }))
      .json as Proposal;
    const locked = [edited.id, done.id, exported.id];
    const touched = proposal.changes.flatMap((c) => (c.task_id ? [c.task_id] : []));
    for (const id of locked) expect(touched).not.toContain(id);
    // Their parents stay too (removing one would take a locked node with it).
    for (const p of [first!, second!, third!]) expect(touched).not.toContain(p.id);
    expect(proposal.kept_locked.map((k) => k.task_id).sort()).toEqual([...locked].sort());
    // A group holding a locked task is not merged; the others are.
    const free = plan.children.filter((c) => c.children.length > 0).slice(3);
    expect(
      proposal.changes
        .filter((c) => c.op === "remove")
        .map((c) => c.task_id)
        .sort(),
    ).toEqual(free.flatMap((g) => g.children.map((c) => c.id)).sort());
    if (free.length === 0) {
      expect((proposal as Proposal & { why_nothing: string }).why_nothing).toMatch(/^Nothing can be merged/);
      return;
    }
    const applied = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(applied.status).toBe(200);
    const ids = new Set(flatten(await tree(client, plan.id)).map((n) => n.id));
    for (const id of locked) expect(ids.has(id)).toBe(true);

    // Unlocked, the edited node is the planner's again: the next "less detail" re-plan may remove it.
    const unlocked = await client.post(`/api/tasks/${edited.id}/unlock`, {});
    expect(unlocked.status).toBe(200);
    expect(unlocked.json.locked).toEqual([]);
    const next = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" }))
      .json as Proposal;
    expect(next.changes.some((c) => c.op === "remove" && c.task_id === edited.id)).toBe(true);
  });

  it("re-plans a subtask with guidance that leaves work out, and refuses a stale proposal (409)", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const parent = plan.children.find((c) => c.children.length >= 2)!;
    const dropped = parent.children[0]!;
    const word = dropped.description
      .toLowerCase()
      .split(/[^a-z]+/)
      .find(
        (w) =>
          w.length >= 6 && !parent.children.slice(1).some((c) => c.description.toLowerCase().includes(w)),
      );
    expect(word).toBeDefined();
    const res = await client.post(`/api/tasks/${parent.id}/replan`, { guidance: `We already have ${word}` });
    expect(res.status).toBe(200);
    const proposal = res.json as Proposal;
    expect(proposal.changes.map((c) => [c.op, c.task_id])).toContainEqual(["remove", dropped.id]);
    // Nothing outside the re-planned node is part of the proposal.
    const inside = new Set(flatten(parent).map((n) => n.id));
    for (const c of proposal.changes) if (c.task_id) expect(inside.has(c.task_id)).toBe(true);

    // The subtree changes (a person edits a node in it): the proposal no longer fits.
    await client.request("PATCH", `/api/tasks/${parent.children[1]!.id}`, { story_points: 5 });
    const stale = await client.post(`/api/tasks/${parent.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toMatch(/Re-plan again/);
    expect(flatten(await tree(client, plan.id)).some((n) => n.id === dropped.id)).toBe(true);
  });

  it("works over tRPC too, and refuses bad input and other people's plans", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const proposal = (await trpcHttp(client).tasks.replan.mutate({
      id: plan.id,
      guidance: "less detail",
    })) as Proposal;
    expect(proposal.changes.length).toBeGreaterThan(0);
    const fetched = await client.get(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}`);
    expect(fetched.json.changes).toEqual(proposal.changes);

    expect((await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "x".repeat(501) })).status).toBe(
      422,
    );
    expect((await client.post(`/api/tasks/${plan.id}/replan`, { guidance: 5 })).status).toBe(422);
    expect((await client.post(`/api/tasks/${plan.id}/replan`, { other: 1 })).status).toBe(422);
    const unknown = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {
      change_ids: ["c9999"],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.detail).toMatch(/Unknown change: c9999/);
    expect(
      (await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, { change_ids: [] }))
        .status,
    ).toBe(422);
    expect((await client.post(`/api/tasks/${plan.id}/replan/not-a-uuid/accept`, {})).status).toBe(404);

    const stranger = await signedIn();
    const paths = [
      ["post", `/api/tasks/${plan.id}/replan`],
      ["get", `/api/tasks/${plan.id}/replan/${proposal.proposal_id}`],
      ["post", `/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`],
      ["post", `/api/tasks/${plan.id}/unlock`],
      ["get", `/api/tasks/${plan.id}/revisions`],
    ] as const;
    for (const [method, path] of paths) {
      const r = method === "get" ? await stranger.get(path) : await stranger.post(path, {});
      expect(r.status, path).toBe(404);
    }
    // The owner's proposal is still there and still applies.
    const accepted = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    expect(accepted.status).toBe(200);
  });
});

describe("history", () => {
  it("brings back the hours entered on a task a re-plan removed, when the plan is restored (issue 40)", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const group = plan.children.find((c) => c.children.length > 0)!;
    const leaf = group.children[0]!;
    // An edit elsewhere first: the plan then has a kept state, which the hours must reach.
    const other = plan.children.find((c) => c.id !== group.id)!;
    const renamed = await client.request("PATCH", `/api/tasks/${other.id}`, { description: "Renamed first" });
    expect(renamed.status).toBe(200);
    // Hours entered on a task not done (so a re-plan may still remove it): only its recorded work changes.
    const hours = await client.request("PATCH", `/api/tasks/${leaf.id}`, { actual_hours: 3.5 });
    expect(hours.status).toBe(200);
    const proposal = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" }))
      .json as Proposal;
    expect(proposal.changes.some((c) => c.op === "remove" && c.task_id === leaf.id)).toBe(true);
    const accepted = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {
      accept_uncovered: true,
    });
    expect(accepted.status).toBe(200);
    expect(flatten(await tree(client, plan.id)).some((n) => n.id === leaf.id)).toBe(false);

    const revisions = (await client.get(`/api/tasks/${plan.id}/revisions`)).json.revisions;
    expect(revisions.map((r: { kind: string }) => r.kind)).toEqual(["replan", "edit", "baseline"]);
    const restored = await client.post(
      `/api/tasks/${plan.id}/revisions/${revisions[1].revision_id}/restore`,
      {},
    );
    expect(restored.status).toBe(200);
    const back = (await client.get(`/api/tasks/${leaf.id}`)).json;
    expect(back).toMatchObject({ status: "pending", actual_hours: 3.5, actual_source: "person" });
  });

  it("records edits, moves and re-plans as revisions and restores one as a new revision", async () => {
    const client = await signedIn();
    const plan = await planned(client);
    const original = shape(plan);
    expect((await client.get(`/api/tasks/${plan.id}/revisions`)).json.revisions).toEqual([]);

    const group = plan.children.find((c) => c.children.length >= 3)!;
    const leaf = group.children[0]!;
    expect(
      (await client.request("PATCH", `/api/tasks/${leaf.id}`, { description: "Renamed by a person" })).status,
    ).toBe(200);
    // Progress is not a revision.
    await client.post(`/api/tasks/${plan.children[0]!.id}/complete`, {});
    const moved = await client.post(`/api/tasks/${leaf.id}/move`, { parent_id: group.id, position: 2 });
    expect(moved.status).toBe(200);
    const proposal = (await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "less detail" }))
      .json as Proposal;
    await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
    const changed = shape(await tree(client, plan.id));
    expect(changed).not.toEqual(original);

    const list = (await client.get(`/api/tasks/${leaf.id}/revisions`)).json;
    expect(list.revisions.map((r: { kind: string }) => r.kind)).toEqual([
      "replan",
      "move",
      "edit",
      "baseline",
    ]);
    expect(list.revisions[2].summary).toMatch(/Edited “Renamed by a person”: description/);
    const baseline = list.revisions[3];
    expect(baseline.tasks).toBe(flatten(plan).length);

    const restored = await client.post(`/api/tasks/${plan.id}/revisions/${baseline.revision_id}/restore`, {});
    expect(restored.status).toBe(200);
    expect(restored.json.kind).toBe("restore");
    const back = await tree(client, plan.id);
    expect(shape(back)).toEqual(original);
    // Same ids as before, and work done since is kept.
    expect(
      flatten(back)
        .map((n) => n.id)
        .sort(),
    ).toEqual(
      flatten(plan)
        .map((n) => n.id)
        .sort(),
    );
    expect(flatten(back).find((n) => n.id === plan.children[0]!.id)!.status).toBe("completed");
    const kinds = (await client.get(`/api/tasks/${plan.id}/revisions`)).json.revisions.map(
      (r: { kind: string }) => r.kind,
    );
    expect(kinds).toEqual(["restore", "replan", "move", "edit", "baseline"]);

    // Restoring the re-plan's revision brings its version back.
    const replanRev = (await client.get(`/api/tasks/${plan.id}/revisions`)).json.revisions[1];
    await client.post(`/api/tasks/${plan.id}/revisions/${replanRev.revision_id}/restore`, {});
    expect(shape(await tree(client, plan.id))).toEqual(changed);

    const stranger = await signedIn();
    expect(
      (await stranger.post(`/api/tasks/${plan.id}/revisions/${baseline.revision_id}/restore`, {})).status,
    ).toBe(404);
    const other = await planned(stranger);
    // A revision of another plan is not found from this one.
    expect(
      (await stranger.post(`/api/tasks/${other.id}/revisions/${baseline.revision_id}/restore`, {})).status,
    ).toBe(404);
  });
});

describe("re-planning with a model", () => {
  it("sends the guidance and the current subtasks, keeps what the model kept, and counts one use", async () => {
    const backed = await startModelBackedServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
    backed.llm.setPlanShape({
      subtasks: (depth) => (depth === 0 ? 3 : 2),
      complexity: (depth) => (depth === 0 ? 9 : 3),
    });
    try {
      const client = new TestClient(backed.server.url);
      await registerUser(client);
      const created = await client.post("/api/tasks", { description: DESCRIPTION, max_depth: 2 });
      await waitForStatus(client, created.json.id, ["completed"]);
      const plan = (await client.get(`/api/tasks/${created.json.id}/tree`)).json as unknown as TreeNode;
      const [kept, reworded, dropped] = plan.children;
      expect(dropped).toBeDefined();
      const used = (await client.get("/api/tasks/usage")).json.used;
      const subtask = (description: string, n: number) => ({
        description,
        complexity_score: 3,
        story_points: 2,
        implementation_details: `Step ${n}`,
        acceptance_criteria: ["It is done", "It is tested"],
        requirement_ids: [],
        estimated_hours: 6,
        estimate_low_hours: 4,
        estimate_high_hours: 9,
        depends_on: n === 3 ? [1] : [],
        depends_on_elsewhere: [],
      });
      backed.llm.setResponder((req) => {
        const prompt = req.messages.at(-1)?.content ?? "";
        if (!prompt.includes("This is a re-plan")) return undefined;
        return {
          subtasks: [
            { ...subtask(kept!.description, 1), implementation_details: kept!.implementation_details },
            subtask(`${reworded!.description} for every user role`, 2),
            subtask("Role-based access rules", 3),
          ],
        };
      });
      backed.llm.requests.length = 0;
      const res = await client.post(`/api/tasks/${plan.id}/replan`, { guidance: "split by user role" });
      expect(res.status).toBe(200);
      const prompt = backed.llm.requests[0]!.messages.at(-1)!.content;
      // The person's guidance is their text: a data block, under our words on how to use it.
      expect(withoutDataMarkers(prompt)).toContain(
        "Their guidance for the new plan (follow it where it is about the plan):\nsplit by user role",
      );
      for (const c of plan.children) expect(prompt).toContain(`- ${c.description}`);
      // Complexity 3 and 6 hours: atomic, so one call makes the whole proposal.
      expect(backed.llm.requests).toHaveLength(1);
      const proposal = res.json as Proposal;
      const ops = proposal.changes.map((c) => [c.op, c.task_id ?? c.after?.description]);
      expect(ops).toContainEqual(["update", reworded!.id]);
      expect(ops).toContainEqual(["add", "Role-based access rules"]);
      expect(ops).toContainEqual(["remove", dropped!.id]);
      expect(proposal.changes.filter((c) => c.op === "add")).toHaveLength(1);
      // The kept task's own subtasks go: the model planned it as a leaf.
      expect(kept!.children.length).toBeGreaterThan(0);
      for (const g of kept!.children) expect(ops).toContainEqual(["remove", g.id]);
      expect((await client.get("/api/tasks/usage")).json.used).toBe(used + 1);

      const accepted = await client.post(`/api/tasks/${plan.id}/replan/${proposal.proposal_id}/accept`, {});
      expect(accepted.status).toBe(200);
      const after = (await client.get(`/api/tasks/${plan.id}/tree`)).json as unknown as TreeNode;
      expect(after.children.map((c) => c.description)).toEqual([
        kept!.description,
        `${reworded!.description} for every user role`,
        "Role-based access rules",
      ]);
      expect(after.children[0]!.id).toBe(kept!.id);
      // The new task waits for the first one, as the model said.
      expect(after.children[2]!.depends_on).toContain(kept!.id);
      expect(after.children[2]!.estimate_hours).toEqual({ low: 4, likely: 6, high: 9 });
    } finally {
      await backed.stop();
    }
  });
});
