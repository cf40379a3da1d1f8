import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { person as personIn, teamWithMembers as teamOf } from "../support/teams";
import { verifyEmailThroughOutbox } from "../support/verify-email";

/**
 * Teams (issue 41): a team and its owner, members and roles, invitations e-mailed and accepted by the
 * invited verified address only, once, and every refusal in a sentence: a non-member gets 404, a member
 * whose role does not allow the change 403, the last owner cannot leave or be demoted, and role changes
 * need a session (a token cannot change who is in a team).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

const person = (name: string, verified = true) => personIn(server, name, verified);
const teamWithMembers = () => teamOf(server);

async function invitationMail(email: string) {
  const rows = await server.deps.database.rows<{ subject: string; text: string; html: string }>(
    sql`select subject, text, html from mail_outbox where lower("to") = ${email.toLowerCase()}
        and subject like 'You are invited%' order by created_at desc limit 1`,
  );
  return rows[0];
}

describe("teams", () => {
  it("creates a team whose creator is its owner, lists it with the role, and checks the name", async () => {
    const owner = await person("Olive");
    const made = await owner.client.post("/api/teams", { name: "  Platform  " });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: "Platform", role: "owner", members: 1 });
    const list = await owner.client.get("/api/teams");
    expect(list.json.teams).toEqual([expect.objectContaining({ id: made.json.id, role: "owner" })]);
    const members = await owner.client.get(`/api/teams/${made.json.id}/members`);
    expect(members.json.members).toEqual([
      expect.objectContaining({ user_id: owner.id, name: "Olive", role: "owner" }),
    ]);
    for (const name of ["", "   ", "x".repeat(81), 5, null]) {
      const bad = await owner.client.post("/api/teams", { name });
      expect(bad.status, String(name)).toBe(422);
    }
    expect((await owner.client.post("/api/teams", { name: "A", extra: 1 })).status).toBe(422);
  });

  it("invites by e-mail; only the invited verified address accepts, once; withdrawn and expired links are refused", async () => {
    const owner = await person("Olive");
    const teamId = (await owner.client.post("/api/teams", { name: "Platform <team>" })).json.id as string;
    const invitee = await person("Ivy");
    const inv = await owner.client.post(`/api/teams/${teamId}/invitations`, {
      email: invitee.email.toUpperCase(),
    });
    expect(inv.status).toBe(201);
    expect(inv.json).toMatchObject({ email: invitee.email, role: "member", emailed: true });
    expect(inv.json.url).toBe(`${server.url}/invitations/${inv.json.token}`);
    expect(Date.parse(inv.json.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const mail = await invitationMail(invitee.email);
    expect(mail?.subject).toBe("You are invited to the team “Platform <team>” on Atomize");
    expect(mail?.text).toContain(inv.json.url);
    expect(mail?.html).toContain("Platform &lt;team&gt;");
    expect(mail?.html).not.toContain("<team>");
    // The open invitations, without their tokens.
    const open = await owner.client.get(`/api/teams/${teamId}/invitations`);
    expect(open.json.invitations).toEqual([
      expect.objectContaining({ id: inv.json.id, email: invitee.email }),
    ]);
    expect(JSON.stringify(open.json)).not.toContain(inv.json.token);

    // Someone else holding the link: refused; an unverified invitee: told to verify first.
    const other = await person("Oscar");
    const wrong = await other.client.post(`/api/invitations/${inv.json.token}/accept`, {});
    expect(wrong.status).toBe(403);
    expect(wrong.json.detail).toBe(
      "This invitation was sent to another address: sign in with the account of that address to accept it.",
    );
    expect((await other.client.get(`/api/teams/${teamId}/members`)).status).toBe(404);
    const accepted = await invitee.client.post(`/api/invitations/${inv.json.token}/accept`, {});
    expect(accepted.status).toBe(200);
    expect(accepted.json).toEqual({ team_id: teamId, team_name: "Platform <team>", role: "member" });
    const again = await invitee.client.post(`/api/invitations/${inv.json.token}/accept`, {});
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe("This invitation was used already.");
    expect((await invitee.client.get("/api/teams")).json.teams[0]).toMatchObject({
      id: teamId,
      role: "member",
    });
    expect((await owner.client.get(`/api/teams/${teamId}/invitations`)).json.invitations).toEqual([]);

    const unverified = await person("Uma", false);
    const inv2 = await owner.client.post(`/api/teams/${teamId}/invitations`, {
      email: unverified.email,
      role: "viewer",
    });
    const early = await unverified.client.post(`/api/invitations/${inv2.json.token}/accept`, {});
    expect(early.status).toBe(403);
    expect(early.json.detail).toMatch(/^Verify your e-mail address first/);

    // Withdrawn, then expired.
    const revoked = await owner.client.request("DELETE", `/api/teams/${teamId}/invitations/${inv2.json.id}`);
    expect(revoked.status).toBe(200);
    await verifyEmailThroughOutbox(server, unverified.email);
    const withdrawn = await unverified.client.post(`/api/invitations/${inv2.json.token}/accept`, {});
    expect(withdrawn.status).toBe(409);
    expect(withdrawn.json.detail).toBe("This invitation was withdrawn: ask for a new one.");
    const inv3 = await owner.client.post(`/api/teams/${teamId}/invitations`, {
      email: unverified.email,
      role: "viewer",
    });
    await server.deps.database.rows(
      sql`update team_invitations set expires_at = now() - interval '1 second' where id = ${inv3.json.id}`,
    );
    const expired = await unverified.client.post(`/api/invitations/${inv3.json.token}/accept`, {});
    expect(expired.status).toBe(409);
    expect(expired.json.detail).toBe("This invitation has expired: ask for a new one.");
    const unknown = await unverified.client.post(`/api/invitations/inv_${"x".repeat(43)}/accept`, {});
    expect(unknown.status).toBe(404);

    // A member already in the team is not invited again; bad input is refused.
    const dup = await owner.client.post(`/api/teams/${teamId}/invitations`, { email: invitee.email });
    expect(dup.status).toBe(409);
    for (const body of [
      { email: "nope" },
      { email: invitee.email, role: "owner" },
      { email: "a@b.co", x: 1 },
    ]) {
      expect((await owner.client.post(`/api/teams/${teamId}/invitations`, body)).status).toBe(422);
    }
  });

  it("lets each role do what it may, and no more", async () => {
    const { owner, teamId, admin, member, viewer } = await teamWithMembers();
    const outsider = await person("Nemo");
    const members = await member.client.get(`/api/teams/${teamId}/members`);
    expect(members.json.members.map((m: { role: string }) => m.role)).toEqual([
      "owner",
      "admin",
      "member",
      "viewer",
    ]);

    // Outside the team: 404 everywhere, as for another user's plan.
    for (const [method, path, body] of [
      ["GET", `/api/teams/${teamId}/members`, undefined],
      ["GET", `/api/teams/${teamId}/invitations`, undefined],
      ["POST", `/api/teams/${teamId}/invitations`, { email: "x@example.com" }],
      ["PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "viewer" }],
      ["DELETE", `/api/teams/${teamId}/members/${member.id}`, undefined],
    ] as const) {
      expect((await outsider.client.request(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    // Members and viewers read, and cannot manage.
    for (const who of [member, viewer]) {
      const inv = await who.client.post(`/api/teams/${teamId}/invitations`, { email: "x@example.com" });
      expect(inv.status).toBe(403);
      expect(inv.json.detail).toMatch(
        /^Only the team's owners and admins can invite people; you are a (member|viewer)\.$/,
      );
      expect(
        (await who.client.request("PATCH", `/api/teams/${teamId}/members/${outsider.id}`, { role: "admin" }))
          .status,
      ).toBe(404);
      expect(
        (await who.client.request("PATCH", `/api/teams/${teamId}/members/${owner.id}`, { role: "viewer" }))
          .status,
      ).toBe(403);
    }
    // An admin manages members, not owners.
    expect(
      (await admin.client.request("PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "viewer" }))
        .status,
    ).toBe(200);
    const notOwner = await admin.client.request("PATCH", `/api/teams/${teamId}/members/${viewer.id}`, {
      role: "owner",
    });
    expect(notOwner.status).toBe(403);
    expect(notOwner.json.detail).toBe("Only an owner can make someone an owner or change an owner's role.");
    expect((await admin.client.request("DELETE", `/api/teams/${teamId}/members/${owner.id}`)).status).toBe(
      403,
    );

    // The last owner stays: not demoted, not removed, cannot leave; with a second owner, can.
    const demote = await owner.client.request("PATCH", `/api/teams/${teamId}/members/${owner.id}`, {
      role: "admin",
    });
    expect(demote.status).toBe(409);
    expect(demote.json.detail).toBe("A team needs an owner: make another member an owner first.");
    const leave = await owner.client.request("DELETE", `/api/teams/${teamId}/members/${owner.id}`);
    expect(leave.json.detail).toBe(
      "You are the team's last owner: make another member an owner before you leave.",
    );
    expect(
      (await owner.client.request("PATCH", `/api/teams/${teamId}/members/${admin.id}`, { role: "owner" }))
        .status,
    ).toBe(200);
    expect((await owner.client.request("DELETE", `/api/teams/${teamId}/members/${owner.id}`)).status).toBe(
      204,
    );
    expect((await owner.client.get(`/api/teams/${teamId}/members`)).status).toBe(404);
    // Anyone may leave; bad roles are refused.
    expect((await viewer.client.request("DELETE", `/api/teams/${teamId}/members/${viewer.id}`)).status).toBe(
      204,
    );
    expect(
      (await admin.client.request("PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "boss" }))
        .status,
    ).toBe(422);
  });

  it("two owners demoting each other at once leave one owner", async () => {
    const { owner, teamId, admin } = await teamWithMembers();
    expect(
      (await owner.client.request("PATCH", `/api/teams/${teamId}/members/${admin.id}`, { role: "owner" }))
        .status,
    ).toBe(200);
    const [a, b] = await Promise.all([
      owner.client.request("PATCH", `/api/teams/${teamId}/members/${admin.id}`, { role: "member" }),
      admin.client.request("PATCH", `/api/teams/${teamId}/members/${owner.id}`, { role: "member" }),
    ]);
    // One goes through; the other finds either the last owner (409) or that it is no longer an owner (403).
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([a.status, b.status].filter((s) => s === 403 || s === 409)).toHaveLength(1);
    const roles = (await owner.client.get(`/api/teams/${teamId}/members`)).json.members.map(
      (m: { role: string }) => m.role,
    );
    expect(roles.filter((r: string) => r === "owner")).toHaveLength(1);
  });

  it("keeps who is in a team to signed-in sessions: an API token reads but cannot change it", async () => {
    const { owner, teamId, member } = await teamWithMembers();
    const made = await owner.client.post("/api/tokens", {
      name: "script",
      scope: "write",
      expires_in_days: 30,
    });
    const script = new TestClient(server.url);
    script.bearer = made.json.token;
    expect((await script.get(`/api/teams/${teamId}/members`)).status).toBe(200);
    const refused = await script.request("PATCH", `/api/teams/${teamId}/members/${member.id}`, {
      role: "owner",
    });
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toBe("This needs a signed-in session, not an API token.");
    expect((await script.post(`/api/teams/${teamId}/invitations`, { email: "y@example.com" })).status).toBe(
      403,
    );
  });
});
