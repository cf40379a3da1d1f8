import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { startTestServer, type TestServer } from "../support/server";
import { person, teamWithMembers } from "../support/teams";

/**
 * Approval before export (issue 41): a plan with requires_approval goes to no tracker until an owner or
 * admin of its team approves it (its author not alone), checked before anything else about the export;
 * an edit after the approval makes it stale and asks again, saying what changed.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

/** A Trello export with no credentials: past the approval it is refused for the missing credentials. */
const trello = (id: string) => ({ task_id: id, config: { board_name: "Plan" } });

describe("approval before export", () => {
  it("holds a team plan's exports until an admin approves it, and again after a change", async () => {
    const { owner, teamId, admin, member, viewer } = await teamWithMembers(server);
    const made = await member.client.post("/api/tasks", { description: "A book club site", team_id: teamId });
    const id = made.json.id as string;
    await waitForStatus(member.client, id, ["completed"]);
    expect((await member.client.get(`/api/tasks/${id}/reviews`)).json.state).toBe("not_required");
    // Without approval needed, an export goes on to its own checks (here: no Trello credentials).
    expect((await member.client.post("/api/trello/start-export", trello(id))).status).toBe(422);

    // Only the creator or the team's owners and admins turn it on.
    expect(
      (await viewer.client.request("PATCH", `/api/tasks/${id}`, { requires_approval: true })).status,
    ).toBe(403);
    const on = await member.client.request("PATCH", `/api/tasks/${id}`, { requires_approval: true });
    expect(on.status).toBe(200);
    expect(on.json.options.requires_approval).toBe(true);
    expect((await member.client.get(`/api/tasks/${id}/reviews`)).json.state).toBe("waiting");

    // Refused before anything else, with why.
    const held = await member.client.post("/api/trello/start-export", trello(id));
    expect(held.status).toBe(409);
    expect(held.json.detail).toMatch(
      /^This plan needs an approval before it goes to Trello: it has not been approved yet\./,
    );
    expect(
      (await member.client.post("/api/github/start-export", { task_id: id, config: { repository: "a/b" } }))
        .status,
    ).toBe(409);

    // Members and viewers do not review; an admin asks for changes, then approves.
    for (const who of [member, viewer]) {
      const r = await who.client.post(`/api/tasks/${id}/reviews`, { decision: "approve" });
      expect(r.status).toBe(403);
    }
    const changes = await admin.client.post(`/api/tasks/${id}/reviews`, {
      decision: "request_changes",
      comment: "Split R2",
    });
    expect(changes.status).toBe(201);
    expect(changes.json.state).toBe("changes_requested");
    expect((await member.client.post("/api/trello/start-export", trello(id))).json.detail).toMatch(
      /its last review asked for changes/,
    );
    const approved = await admin.client.post(`/api/tasks/${id}/reviews`, { decision: "approve" });
    expect(approved.json).toMatchObject({
      state: "approved",
      reviews: [
        { decision: "approve", reviewer_name: "Ada" },
        { decision: "request_changes", comment: "Split R2" },
      ],
    });
    expect((await member.client.post("/api/trello/start-export", trello(id))).status).toBe(422);

    // An edit after the approval: stale, with what changed, and exports held again.
    const leaf = flatten((await member.client.get(`/api/tasks/${id}/tree`)).json as TreeNode).find(
      (n) => n.children.length === 0,
    )!;
    expect(
      (await member.client.request("PATCH", `/api/tasks/${leaf.id}`, { description: "Reworded" })).status,
    ).toBe(200);
    const stale = (await viewer.client.get(`/api/tasks/${id}/reviews`)).json;
    expect(stale.state).toBe("stale");
    expect(stale.changed_since[0]).toMatch(/^Edited/);
    expect((await member.client.post("/api/trello/start-export", trello(id))).json.detail).toMatch(
      /it changed after it was approved/,
    );
    // Progress is not a change of the plan: completing a task leaves an approval standing.
    await admin.client.post(`/api/tasks/${id}/reviews`, { decision: "approve" });
    expect(
      (await member.client.request("PATCH", `/api/tasks/${leaf.id}`, { status: "completed" })).status,
    ).toBe(200);
    expect((await member.client.get(`/api/tasks/${id}/reviews`)).json.state).toBe("approved");

    // The owner who wrote a plan does not approve it alone when someone else can.
    const own = await owner.client.post("/api/tasks", { description: "Owner's plan", team_id: teamId });
    await owner.client.request("PATCH", `/api/tasks/${own.json.id}`, { requires_approval: true });
    const self = await owner.client.post(`/api/tasks/${own.json.id}/reviews`, { decision: "approve" });
    expect(self.status).toBe(403);
    expect(self.json.detail).toBe("You wrote this plan: another owner or admin of the team approves it.");
    expect((await outsiderOf().then((o) => o.client.get(`/api/tasks/${id}/reviews`))).status).toBe(404);
  });

  it("lets a personal plan's creator approve it, and refuses bad reviews", async () => {
    const me = await person(server, "Solo");
    const made = await me.client.post("/api/tasks", { description: "A book club site" });
    await me.client.request("PATCH", `/api/tasks/${made.json.id}`, { requires_approval: true });
    for (const body of [{ decision: "maybe" }, { decision: "approve", comment: "x".repeat(2001) }, {}]) {
      expect((await me.client.post(`/api/tasks/${made.json.id}/reviews`, body)).status).toBe(422);
    }
    expect(
      (await me.client.post(`/api/tasks/${made.json.id}/reviews`, { decision: "approve" })).json.state,
    ).toBe("approved");
  });
});

const outsiderOf = () => person(server, "Nemo");
