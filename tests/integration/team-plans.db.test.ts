import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { TestClient } from "../support/http-client";
import { callTool, connectMcp, toolError } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";
import { person, teamWithMembers } from "../support/teams";
import { trpcHttp } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

/**
 * Plans in a team (issue 41): the members see and change them, the viewers read them and are refused
 * every change with a sentence, and anyone else gets 404, exactly as for another user's plan, over REST,
 * tRPC, a raw WebSocket channel, MCP and API tokens (which act with their user's role). A plan moves into
 * a team by its creator, an owner or admin there; what members add to it is the team's too.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

const DESCRIPTION = "A book club site\n- Members propose books\n- Members vote on the next book";

async function tokenOf(client: TestClient, scope: "read" | "write" = "write") {
  const made = await client.post("/api/tokens", { name: "agent", scope, expires_in_days: 30 });
  const bot = new TestClient(server.url);
  bot.bearer = made.json.token as string;
  return { bot, token: made.json.token as string };
}

describe("plans in a team", () => {
  it("members see and change a team's plan, viewers only read it, and others do not find it", async () => {
    const { owner, teamId, member, viewer } = await teamWithMembers(server);
    const outsider = await person(server, "Nemo");
    const made = await owner.client.post("/api/tasks", { description: DESCRIPTION, team_id: teamId });
    expect(made.status).toBe(201);
    expect(made.json.team_id).toBe(teamId);
    await waitForStatus(owner.client, made.json.id, ["completed"]);
    const plan = (await owner.client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode;
    const leaf = flatten(plan).find((n) => n.children.length === 0)!;

    // On every member's dashboard, the viewer's included; not on the outsider's.
    for (const who of [member, viewer]) {
      const list = await who.client.get("/api/tasks?page=1&page_size=20");
      expect(list.json.tasks.map((t: { id: string }) => t.id)).toContain(plan.id);
      expect((await who.client.get(`/api/tasks/${plan.id}/tree`)).status).toBe(200);
    }
    expect((await outsider.client.get("/api/tasks?page=1&page_size=20")).json.tasks).toEqual([]);
    // Filtered: the team's plans, or only one's own outside any team.
    const mine = await member.client.post("/api/tasks", { description: "My own side project" });
    const ids = async (q: string) =>
      (await member.client.get(`/api/tasks?${q}`)).json.tasks.map((t: { id: string }) => t.id);
    expect(await ids(`team=${teamId}`)).toEqual([plan.id]);
    expect(await ids("team=personal")).toEqual([mine.json.id]);
    expect(await ids("team=not-a-team")).toEqual([]);

    // A member edits, adds and claims; what they add belongs to the team.
    expect((await member.client.request("PATCH", `/api/tasks/${leaf.id}`, { story_points: 5 })).status).toBe(
      200,
    );
    const added = await member.client.post(`/api/tasks/${leaf.id}/add-task`, {
      position: "after",
      description: "Write the release notes",
    });
    expect(added.status, added.text).toBe(201);
    expect((await owner.client.get(`/api/tasks/${added.json.id}`)).json.team_id).toBe(teamId);
    expect((await member.client.post(`/api/tasks/${leaf.id}/claim`, {})).status).toBe(200);
    expect((await owner.client.get(`/api/tasks/${plan.id}/claims`)).json.claims[0]).toMatchObject({
      task_id: leaf.id,
      claimed_by: "Max",
    });

    // A viewer: 403 with a sentence on every change, its token too; reads work.
    const refusal =
      /^You are a viewer in this plan's team: viewers read and comment, they do not change plans\./;
    for (const [method, path, body] of [
      ["PATCH", `/api/tasks/${leaf.id}`, { story_points: 8 }],
      ["POST", `/api/tasks/${leaf.id}/claim`, {}],
      ["POST", `/api/tasks/${leaf.id}/complete`, {}],
      ["DELETE", `/api/tasks/${added.json.id}`, undefined],
      ["POST", `/api/tasks/${plan.id}/replan`, { guidance: "less detail" }],
    ] as const) {
      const res = await viewer.client.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.detail).toMatch(refusal);
    }
    const viewerBot = await tokenOf(viewer.client);
    expect((await viewerBot.bot.request("PATCH", `/api/tasks/${leaf.id}`, { story_points: 8 })).status).toBe(
      403,
    );
    expect((await viewerBot.bot.get(`/api/tasks/${plan.id}/outline`)).status).toBe(200);
    const makeIn = await viewer.client.post("/api/tasks", { description: DESCRIPTION, team_id: teamId });
    expect(makeIn.status).toBe(403);

    // Anyone else: 404, over REST, tRPC and MCP.
    for (const [method, path, body] of [
      ["GET", `/api/tasks/${plan.id}`, undefined],
      ["GET", `/api/tasks/${plan.id}/tree`, undefined],
      ["PATCH", `/api/tasks/${leaf.id}`, { story_points: 8 }],
      ["POST", `/api/tasks/${leaf.id}/claim`, {}],
      ["GET", `/api/tasks/${plan.id}/claims`, undefined],
    ] as const) {
      expect((await outsider.client.request(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const outsiderMade = await outsider.client.post("/api/tasks", {
      description: DESCRIPTION,
      team_id: teamId,
    });
    expect(outsiderMade.status).toBe(404);
    await expect(trpcHttp(outsider.client).tasks.get.query({ id: plan.id })).rejects.toThrow(/not found/i);
    expect((await trpcHttp(member.client).tasks.get.query({ id: plan.id })).id).toBe(plan.id);
    const outsiderBot = await connectMcp(server.url, (await tokenOf(outsider.client)).token);
    const memberBot = await connectMcp(server.url, (await tokenOf(member.client)).token);
    try {
      expect(await toolError(outsiderBot, "get_plan", { task_id: plan.id })).toMatch(/not found/i);
      const next = await callTool<{ task: { id: string } | null }>(memberBot, "claim_next_task", {
        project_id: plan.id,
      });
      expect(next.task?.id).toBeDefined();
      expect(next.task?.id).not.toBe(leaf.id);
    } finally {
      await Promise.all([outsiderBot.close(), memberBot.close()]);
    }
  });

  it("sends a team plan's changes to every member's open channel, and closes it to others", async () => {
    const { owner, teamId, viewer } = await teamWithMembers(server);
    const outsider = await person(server, "Nemo");
    const made = await owner.client.post("/api/tasks", { description: DESCRIPTION, team_id: teamId });
    await waitForStatus(owner.client, made.json.id, ["completed"]);
    const base = server.url.replace("http", "ws");
    const messages: Record<string, any>[] = [];
    const ws = new WebSocket(`${base}/ws/tasks/${made.json.id}?token=${viewer.accessToken}`);
    ws.on("message", (d) => messages.push(JSON.parse(d.toString())));
    await waitUntil(() => messages.some((m) => m.type === "event_history"), { timeoutMs: 10_000 });
    expect(
      (
        await owner.client.request("PATCH", `/api/tasks/${made.json.id}`, {
          description: "A reading club site",
        })
      ).status,
    ).toBe(200);
    await waitUntil(() => messages.some((m) => m.type === "task.updated"), {
      timeoutMs: 10_000,
      message: () => JSON.stringify(messages.map((m) => m.type)),
    });
    ws.close();
    const closed = await new Promise<number>((resolve) => {
      const foreign = new WebSocket(`${base}/ws/tasks/${made.json.id}?token=${outsider.accessToken}`);
      foreign.on("close", (code) => resolve(code));
      foreign.on("error", () => {});
    });
    expect(closed).toBe(4404);
  });

  it("moves a plan into a team by its creator, an owner or admin there, and out again", async () => {
    const { owner, teamId, member, admin } = await teamWithMembers(server);
    const personal = await owner.client.post("/api/tasks", { description: DESCRIPTION });
    expect(personal.json.team_id).toBeNull();
    expect((await member.client.get(`/api/tasks/${personal.json.id}`)).status).toBe(404);
    // Only its creator moves it in: not an admin of the team who does not own it (who cannot see it).
    expect(
      (await admin.client.request("PATCH", `/api/tasks/${personal.json.id}`, { team_id: teamId })).status,
    ).toBe(404);
    const moved = await owner.client.request("PATCH", `/api/tasks/${personal.json.id}`, { team_id: teamId });
    expect(moved.status).toBe(200);
    expect(moved.json.team_id).toBe(teamId);
    expect((await member.client.get(`/api/tasks/${personal.json.id}`)).status).toBe(200);

    // A member's own plan cannot go in: members are not the team's admins.
    const mine = await member.client.post("/api/tasks", { description: DESCRIPTION });
    const refused = await member.client.request("PATCH", `/api/tasks/${mine.json.id}`, { team_id: teamId });
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toBe(
      "A project moves into a team by its creator, who must be an owner or admin of that team.",
    );
    // A subtask does not move alone; a team one is not in is not found.
    await waitForStatus(owner.client, personal.json.id, ["completed"]);
    const sub = ((await owner.client.get(`/api/tasks/${personal.json.id}/tree`)).json as TreeNode)
      .children[0]!;
    expect((await owner.client.request("PATCH", `/api/tasks/${sub.id}`, { team_id: null })).status).toBe(422);
    const { teamId: otherTeam } = await teamWithMembers(server);
    expect(
      (await owner.client.request("PATCH", `/api/tasks/${personal.json.id}`, { team_id: otherTeam })).status,
    ).toBe(404);

    // An admin of the team takes it out: the member no longer sees it, nor any of its tasks.
    const out = await admin.client.request("PATCH", `/api/tasks/${personal.json.id}`, { team_id: null });
    expect(out.status).toBe(200);
    expect((await member.client.get(`/api/tasks/${personal.json.id}`)).status).toBe(404);
    expect((await member.client.get(`/api/tasks/${sub.id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/tasks/${sub.id}`)).json.team_id).toBeNull();
  });
});
