import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { taskClaims } from "../../src/server/db/schema/index";
import { expireClaims } from "../../src/server/services/tasks/expire-claims";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { callTool, connectMcp } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";
import { person, teamWithMembers } from "../support/teams";
import { waitUntil } from "../support/wait";

/**
 * A team's plan as one place where people and agents see who does what (issue 41, item 7): the activity
 * (who did what, when, paged, by person and agent, a claim that ran out included), who has the plan open
 * now, teammates' plans on every member's dashboard channel, a removed member's channels closed, and the
 * team-wide "plans need approval".
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

const DESCRIPTION = "A book club site\n- Members propose books\n- Members vote on the next book";

type Entry = { kind: string; text: string; actor: { name: string } | null; agent: string | null };

async function teamPlan() {
  const team = await teamWithMembers(server);
  const made = await team.owner.client.post("/api/tasks", { description: DESCRIPTION, team_id: team.teamId });
  expect(made.status).toBe(201);
  await waitForStatus(team.owner.client, made.json.id, ["completed"]);
  const tree = (await team.owner.client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode;
  return { ...team, plan: tree, leaves: flatten(tree).filter((n) => n.children.length === 0) };
}

function socket(path: string, token: string) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}${path}?token=${token}`);
  const messages: Record<string, any>[] = [];
  let closed: number | null = null;
  ws.on("message", (d) => messages.push(JSON.parse(d.toString())));
  ws.on("close", (code) => {
    closed = code;
  });
  ws.on("error", () => {});
  return { ws, messages, closedWith: () => closed };
}

describe("a team plan's activity", () => {
  it("says who did what, by person and agent, newest first, a page at a time", async () => {
    const { owner, admin, member, viewer, plan, leaves } = await teamPlan();
    const outsider = await person(server, "Nemo");
    const first = leaves.at(-1);
    const token = await member.client.post("/api/tokens", {
      name: "Claude Code",
      scope: "write",
      expires_in_days: 30,
    });
    expect(token.status, token.text).toBe(201);
    const agent = await connectMcp(server.url, token.json.token as string);
    let taken: string;
    let next: string;
    try {
      // A member edits a task; their coding agent takes the next one, which the member finishes; the
      // member claims the one after it and a viewer comments on it; the admin turns approval on and approves.
      await member.client.request("PATCH", `/api/tasks/${first!.id}`, { story_points: 5 });
      const claimed = await callTool<{ task: { id: string } | null }>(agent, "claim_next_task", {
        project_id: plan.id,
      });
      taken = claimed.task!.id;
      await member.client.request("PATCH", `/api/tasks/${taken}`, { status: "in_progress" });
      await member.client.post(`/api/tasks/${taken}/complete`, {});
      next = (await callTool<{ task: { id: string } }>(agent, "next_task", { project_id: plan.id })).task.id;
    } finally {
      await agent.close();
    }
    expect((await member.client.post(`/api/tasks/${next}/claim`, {})).status).toBe(200);
    expect(
      (await viewer.client.post(`/api/tasks/${next}/comments`, { body: "Looks right to me" })).status,
    ).toBe(201);
    await admin.client.request("PATCH", `/api/tasks/${plan.id}`, { requires_approval: true });
    expect((await admin.client.post(`/api/tasks/${plan.id}/reviews`, { decision: "approve" })).status).toBe(
      201,
    );

    const page = await viewer.client.get(`/api/tasks/${plan.id}/activity`);
    expect(page.status).toBe(200);
    const texts = (page.json.entries as Entry[]).map((e) => e.text);
    const byId = new Map(flatten(plan).map((n) => [n.id, n.description.split("\n")[0]!]));
    const [t0, tTaken, tNext] = [byId.get(first!.id)!, byId.get(taken)!, byId.get(next)!];
    const until = "until \\d\\d:\\d\\d UTC$";
    expect(texts).toEqual([
      "Ada approved the plan",
      "Ada made the plan need an approval before export",
      `Vera commented on “${tNext}”: “Looks right to me”`,
      expect.stringMatching(new RegExp(`^Max claimed “${escapeRegExp(tNext)}” ${until}`)),
      `Max marked “${tTaken}” done`,
      `Max started “${tTaken}”`,
      expect.stringMatching(
        new RegExp(`^Max \\(agent: Claude Code\\) took “${escapeRegExp(tTaken)}” as the next task, ${until}`),
      ),
      `Max edited “${t0}”: story points`,
    ]);
    expect(page.json.entries[6]).toMatchObject({
      kind: "claim",
      agent: "Claude Code",
      actor: { name: "Max" },
      task_id: taken,
    });
    expect(page.json.entries[0]).toMatchObject({ kind: "review", agent: null, task_id: plan.id });

    // Paged: each page's next_before leads to the next, none is repeated, and the last says so.
    const seen: string[] = [];
    let before: number | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await owner.client.get(
        `/api/tasks/${plan.id}/activity?limit=3${before ? `&before=${before}` : ""}`,
      );
      seen.push(...(res.json.entries as Entry[]).map((e) => e.text));
      before = res.json.next_before;
      if (before === null) break;
    }
    expect(seen).toEqual(texts);
    // A task's own: what was done to it and under it.
    const own = await member.client.get(`/api/tasks/${taken}/activity`);
    expect((own.json.entries as Entry[]).map((e) => e.kind)).toEqual(["status", "status", "claim"]);

    // Bad paging is a 4xx with a sentence; someone outside the team does not find it.
    for (const q of ["limit=0", "limit=101", "before=abc", "before=-1", "extra=1"]) {
      const res = await member.client.get(`/api/tasks/${plan.id}/activity?${q}`);
      expect([400, 422], q).toContain(res.status);
    }
    expect((await outsider.client.get(`/api/tasks/${plan.id}/activity`)).status).toBe(404);
  });

  it("says when a claim ran out, once, by nobody, and frees the task", async () => {
    const { member, admin, plan, leaves } = await teamPlan();
    const leaf = leaves[0]!;
    expect((await member.client.post(`/api/tasks/${leaf.id}/claim`, { minutes: 5 })).status).toBe(200);
    await server.deps.db
      .update(taskClaims)
      .set({ until: new Date(Date.now() - 60_000) })
      .where(eq(taskClaims.taskId, leaf.id));
    // Two sweeps at once (two processes): one reports it.
    const swept = await Promise.all([expireClaims(server.deps), expireClaims(server.deps)]);
    expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    const entries = (await admin.client.get(`/api/tasks/${plan.id}/activity?limit=2`)).json
      .entries as Entry[];
    expect(entries[0]).toMatchObject({ kind: "claim", actor: null, agent: null });
    expect(entries[0]!.text).toMatch(/^The claim of Max on “.+” ran out at \d\d:\d\d UTC: it is free again$/);
    expect((await admin.client.get(`/api/tasks/${plan.id}/claims`)).json.claims).toEqual([]);
    expect((await admin.client.post(`/api/tasks/${leaf.id}/claim`, {})).status).toBe(200);
  });
});

describe("the team, live", () => {
  it("shows who has the plan open, and carries teammates' plans to every member's dashboard", async () => {
    const { owner, member, viewer, teamId, plan } = await teamPlan();
    const ownerView = socket(`/ws/tasks/${plan.id}`, owner.accessToken);
    const names = (m: { viewers: { name: string }[] }) => m.viewers.map((v) => v.name).join(",");
    await waitUntil(() =>
      ownerView.messages.some((m) => m.type === "presence" && names(m as never) === "Olive"),
    );
    const viewerView = socket(`/ws/tasks/${plan.id}`, viewer.accessToken);
    await waitUntil(
      () =>
        ownerView.messages.at(-1)?.type === "presence" &&
        names(ownerView.messages.at(-1) as never) === "Olive,Vera",
      {
        message: () => JSON.stringify(ownerView.messages.filter((m) => m.type === "presence")),
      },
    );
    await waitUntil(() =>
      viewerView.messages.some((m) => m.type === "presence" && names(m as never) === "Olive,Vera"),
    );
    viewerView.ws.close();
    await waitUntil(() => {
      const last = ownerView.messages.filter((m) => m.type === "presence").at(-1);
      return names(last as never) === "Olive";
    });

    // A member's dashboard channel hears of a teammate's new plan in the team, not of their own things.
    const dashboard = socket("/ws/global", member.accessToken);
    await waitUntil(() => dashboard.messages.some((m) => m.type === "event_history"));
    const other = await owner.client.post("/api/tasks", { description: "A second plan", team_id: teamId });
    const personal = await owner.client.post("/api/tasks", { description: "Olive's own plan" });
    await waitUntil(() =>
      dashboard.messages.some((m) => m.type === "task.created" && m.task_id === other.json.id),
    );
    expect(dashboard.messages.some((m) => m.task_id === personal.json.id)).toBe(false);
    dashboard.ws.close();
    ownerView.ws.close();
  });

  it("closes a removed member's channels of the team's plans, and keeps the creator's", async () => {
    const { owner, member, teamId, plan } = await teamPlan();
    const ownPlan = await member.client.post("/api/tasks", { description: "Max's plan" });
    const view = socket(`/ws/tasks/${plan.id}`, member.accessToken);
    const own = socket(`/ws/tasks/${ownPlan.json.id}`, member.accessToken);
    const dashboard = socket("/ws/global", member.accessToken);
    await waitUntil(() =>
      [view, own, dashboard].every((s) => s.messages.some((m) => m.type === "event_history")),
    );
    const removed = await owner.client.request("DELETE", `/api/teams/${teamId}/members/${member.id}`);
    expect(removed.status).toBe(204);
    await waitUntil(() => view.closedWith() === 4404);
    await waitUntil(() => dashboard.messages.some((m) => m.type === "team.member_removed"));
    expect(own.closedWith()).toBeNull();
    expect(dashboard.closedWith()).toBeNull();
    // Nothing of the team's plan reaches them any more.
    await owner.client.request("PATCH", `/api/tasks/${plan.id}`, { description: "A reading club site" });
    const count = dashboard.messages.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(dashboard.messages.slice(count).some((m) => m.task_id === plan.id)).toBe(false);
    own.ws.close();
    dashboard.ws.close();
  });

  it("has a team-wide 'plans need approval', set by its owners and admins", async () => {
    const { admin, member, teamId, plan } = await teamPlan();
    expect(
      (await member.client.request("PATCH", `/api/teams/${teamId}`, { requires_approval: true })).status,
    ).toBe(403);
    expect((await admin.client.request("PATCH", `/api/teams/${teamId}`, {})).status).toBe(422);
    const set = await admin.client.request("PATCH", `/api/teams/${teamId}`, { requires_approval: true });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ id: teamId, requires_approval: true, role: "admin" });
    const state = await member.client.get(`/api/tasks/${plan.id}/reviews`);
    expect(state.json).toMatchObject({ state: "waiting", required_by: "team" });
    // An agent reading the plan is told too.
    const token = await member.client.post("/api/tokens", {
      name: "agent",
      scope: "read",
      expires_in_days: 30,
    });
    const agent = await connectMcp(server.url, token.json.token as string);
    try {
      const outline = await callTool<string>(agent, "get_plan", { task_id: plan.id });
      expect(outline).toContain(
        "Approval: It needs an approval before it is exported (its team's rule): not approved yet.",
      );
    } finally {
      await agent.close();
    }
    const held = await member.client.post("/api/trello/start-export", {
      task_id: plan.id,
      config: { board_name: "Plan" },
    });
    expect(held.status).toBe(409);
    // A plan does not opt out of its team's rule.
    const off = await admin.client.request("PATCH", `/api/tasks/${plan.id}`, { requires_approval: false });
    expect(off.status).toBe(409);
    expect(off.json.detail).toMatch(/team's settings/);
    expect(
      (await admin.client.post(`/api/tasks/${plan.id}/reviews`, { decision: "approve" })).json.state,
    ).toBe("approved");
    const teams = (await member.client.get("/api/teams")).json.teams as {
      id: string;
      requires_approval: boolean;
    }[];
    expect(teams.find((t) => t.id === teamId)?.requires_approval).toBe(true);
  });
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
