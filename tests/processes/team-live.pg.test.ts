import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForStatus } from "../support/decomposition";
import type { AppProcess } from "../support/process";
import { twoProcesses } from "../support/second-process";
import type { TestServer } from "../support/server";
import { teamWithMembers } from "../support/teams";
import { type Msg, openChannel } from "../support/token-sockets";
import { waitUntil } from "../support/wait";

// A team on two processes sharing one PostgreSQL (issue 41): who has a plan open, a teammate's new plan,
// and a removal reach the members connected to the other process (LISTEN/NOTIFY). PGlite has a single
// process: only the PostgreSQL pass runs *.pg.test.ts files.
describe("a team across server processes", () => {
  const processes = twoProcesses("team-live", { REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
  let server: TestServer;
  let other: AppProcess;
  beforeAll(async () => {
    ({ server, other } = await processes.start());
  });
  afterAll(() => processes.stop());

  it("shows each member to the others, carries new plans and closes a removed member's plan", async () => {
    const { owner, member, teamId } = await teamWithMembers(server);
    const made = await owner.client.post("/api/tasks", { description: "A book club site", team_id: teamId });
    await waitForStatus(owner.client, made.json.id, ["completed"]);
    const viewers = (messages: Msg[]) =>
      messages
        .filter((m) => m.type === "presence")
        .at(-1)
        ?.viewers.map((v: { name: string }) => v.name)
        .join(",");

    // The owner on this process, the member on the other: each sees both.
    const here = await openChannel(server.url, `/ws/tasks/${made.json.id}?token=${owner.accessToken}`);
    const there = await openChannel(other.url, `/ws/tasks/${made.json.id}?token=${member.accessToken}`);
    const dashboard = await openChannel(other.url, `/ws/global?token=${member.accessToken}`);
    await waitUntil(() => viewers(here.messages) === "Max,Olive", {
      message: () => String(viewers(here.messages)),
    });
    await waitUntil(() => viewers(there.messages) === "Max,Olive", {
      message: () => String(viewers(there.messages)),
    });

    // A plan a teammate makes on this process reaches the member's dashboard on the other.
    const second = await owner.client.post("/api/tasks", { description: "A second plan", team_id: teamId });
    await waitUntil(() =>
      dashboard.messages.some((m) => m.type === "task.created" && m.task_id === second.json.id),
    );

    // Removed here, their channel of the team's plan there closes; the owner sees them go.
    expect((await owner.client.request("DELETE", `/api/teams/${teamId}/members/${member.id}`)).status).toBe(
      204,
    );
    expect((await there.closed).code).toBe(4404);
    await waitUntil(() => viewers(here.messages) === "Olive", {
      message: () => String(viewers(here.messages)),
    });
    await waitUntil(() => dashboard.messages.some((m) => m.type === "team.member_removed"));
    here.ws.close();
    dashboard.ws.close();
  });
});
