import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForStatus } from "../support/decomposition";
import { startTestServer, type TestServer } from "../support/server";
import { person, teamWithMembers } from "../support/teams";

/**
 * Comments on a team's plan (issue 41; a task's notes are its comments): Markdown sanitised as the blog's
 * is, written by members and viewers alike, changed by their author only, deleted by their author or the
 * team's owner or admin; an @name mention tells a member once, in the app and by e-mail, with a link.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

async function mentionMails(email: string) {
  return server.deps.database.rows<{ subject: string; text: string }>(
    sql`select subject, text from mail_outbox where lower("to") = ${email.toLowerCase()}
        and subject like '% mentioned you on %' order by created_at`,
  );
}

describe("comments", () => {
  it("are Markdown, sanitised, by members and viewers; changed by their author; deleted by author or admin", async () => {
    const { owner, teamId, admin, member, viewer } = await teamWithMembers(server);
    const outsider = await person(server, "Nemo");
    const plan = await owner.client.post("/api/tasks", { description: "A book club site", team_id: teamId });
    await waitForStatus(owner.client, plan.json.id, ["completed"]);
    const path = `/api/tasks/${plan.json.id}/comments`;

    const made = await member.client.post(path, {
      body: "**Done** <script>alert(1)</script> [x](javascript:alert(1))",
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ author_id: member.id, author_name: "Max", edited_at: null });
    expect(made.json.html).toContain("<strong>Done</strong>");
    expect(made.json.html).not.toMatch(/<script|javascript:/i);
    const byViewer = await viewer.client.post(path, { body: "Looks right to me." });
    expect(byViewer.status).toBe(201);

    // Every member reads them, through /comments and /notes alike; outsiders find nothing.
    const listed = (await viewer.client.get(path)).json.notes;
    expect(listed.map((n: { author_name: string }) => n.author_name)).toEqual(["Max", "Vera"]);
    expect((await owner.client.get(`/api/tasks/${plan.json.id}/notes`)).json.notes).toHaveLength(2);
    expect((await outsider.client.get(path)).status).toBe(404);
    expect((await outsider.client.post(path, { body: "hi" })).status).toBe(404);

    // The author changes theirs; nobody else does.
    const edit = `${path}/${made.json.id}`;
    expect((await viewer.client.request("PATCH", edit, { body: "Changed" })).status).toBe(403);
    const changed = await member.client.request("PATCH", edit, { body: "Done, with tests" });
    expect(changed.status).toBe(200);
    expect(changed.json.edited_at).not.toBeNull();
    expect((await member.client.request("PATCH", edit, { body: "  " })).status).toBe(422);

    // Deleting: not a viewer's of another's; the author's own; an admin's of anyone's.
    expect((await viewer.client.request("DELETE", edit)).status).toBe(403);
    expect((await viewer.client.request("DELETE", `${path}/${byViewer.json.id}`)).status).toBe(200);
    const gone = await admin.client.request("DELETE", edit);
    expect(gone.status).toBe(200);
    expect(gone.json.notes).toEqual([]);
    expect((await admin.client.request("DELETE", edit)).status).toBe(404);
  });

  it("tells a mentioned member once, in the app and by e-mail with a link", async () => {
    const { owner, teamId, member, viewer } = await teamWithMembers(server);
    const plan = await owner.client.post("/api/tasks", { description: "A book club site", team_id: teamId });
    await waitForStatus(owner.client, plan.json.id, ["completed"]);
    const path = `/api/tasks/${plan.json.id}/comments`;
    // Names, first names and addresses' local parts are handles; an address is not a mention.
    const made = await member.client.post(path, {
      body: "@vera please check; ask max@example.com, not @nobody",
    });
    expect(made.status).toBe(201);
    const mails = await mentionMails(viewer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Max mentioned you on “A book club site”");
    expect(mails[0]!.text).toContain(`${server.url}/tasks/${plan.json.id}?tab=subtasks`);
    const events = await server.deps.events.history({ userId: viewer.id, limit: 50 });
    expect(events.filter((e) => e.type === "comment.mentioned")).toEqual([
      expect.objectContaining({ message: "Max mentioned you on “A book club site”" }),
    ]);
    // The author is not told of themself; an edit keeping the mention tells no one again; a new one tells.
    expect(await mentionMails(member.email)).toEqual([]);
    await member.client.request("PATCH", `${path}/${made.json.id}`, {
      body: "@Vera and @Olive: please check",
    });
    expect(await mentionMails(viewer.email)).toHaveLength(1);
    expect(await mentionMails(owner.email)).toHaveLength(1);
  });
});
