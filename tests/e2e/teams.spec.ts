import type { Browser, Page } from "@playwright/test";
import {
  expect,
  expectAccessibleInBothThemes,
  newEmail,
  openTrelloExport,
  PASSWORD,
  pageFetch,
  test,
  verifyAddress,
} from "./fixtures";

/**
 * A team working one plan (issue 41), three people in three browsers: the owner makes a team in Settings
 * and invites a member and a viewer by e-mail; each accepts the link; the owner plans for the team; the
 * member finds it on their dashboard and claims a task, which the owner's open page marks live; the viewer
 * reads it and is offered no change.
 */

async function personIn(browser: Browser, origin: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = newEmail(name.toLowerCase());
  const res = await page.request.post("/api/auth/register", {
    data: { email, password: PASSWORD, full_name: name },
    headers: { origin },
  });
  expect(res.status()).toBe(201);
  await verifyAddress(page.request, origin);
  return { page, email, close: () => context.close() };
}

/** Invites `email` as `role` in the open Teams tab, and gives back the link the e-mail carries. */
async function invite(page: Page, email: string, role: string): Promise<string> {
  const form = page.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Role").selectOption(role);
  const answer = page.waitForResponse((r) => r.url().includes("teams.invite"));
  await form.getByRole("button", { name: "Send invitation" }).click();
  const link = (await (await answer).text()).match(/https?:\/\/[^"\\]+\/invitations\/inv_[\w-]+/)?.[0];
  expect(link).toBeDefined();
  await expect(form.getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  return link!;
}

test("a team plans together: invitations, a team plan, a claim seen live, who is here, a viewer who only reads, comments, the activity, approval, then the export", async ({
  page,
  browser,
  origin,
  signedIn: _owner,
}) => {
  await verifyAddress(page.request, origin);
  const member = await personIn(browser, origin, "Max");
  const viewer = await personIn(browser, origin, "Vera");
  try {
    // The owner makes the team and invites both.
    await page.goto("/settings?tab=teams");
    await page.getByLabel("Team name").fill("Platform");
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page.getByRole("heading", { name: "Platform" })).toBeVisible();
    const memberLink = await invite(page, member.email, "member");
    const viewerLink = await invite(page, viewer.email, "viewer");
    await expect(page.getByTestId("team-invitation")).toHaveCount(2);
    await expectAccessibleInBothThemes(page, "Settings → Teams");

    // Each accepts their link.
    for (const [who, link, role] of [
      [member, memberLink, "member"],
      [viewer, viewerLink, "viewer"],
    ] as const) {
      await who.page.goto(new URL(link).pathname);
      await who.page.getByRole("button", { name: "Accept the invitation" }).click();
      await expect(who.page.getByRole("status")).toHaveText(
        `You joined “Platform” as a ${role}. Its plans are on your dashboard.`,
      );
    }
    await page.reload();
    await expect(page.getByTestId("team-member")).toHaveCount(3);

    // The owner plans for the team.
    await page.goto("/tasks/create");
    await page
      .getByLabel("Task Description")
      .fill("A book club site\n- Members propose books\n- Members vote");
    await page.getByLabel("Plan for").selectOption({ label: "Team: Platform" });
    await page.getByRole("checkbox", { name: "Let me check what was read before planning" }).uncheck();
    await page.getByRole("button", { name: "Create Task" }).click();
    await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1)!;
    await expect
      .poll(async () => (await pageFetch(page, "GET", `/api/tasks/${id}`)).json.status, { timeout: 60_000 })
      .toBe("completed");
    await page.goto(`/tasks/${id}?tab=subtasks`);

    // The member finds it on their dashboard and claims a task from its details.
    await member.page.goto("/dashboard");
    await member.page
      .getByRole("link", { name: /A book club site/ })
      .first()
      .click();
    await member.page
      .getByRole("tablist", { name: "Task sections" })
      .getByRole("tab", { name: /Subtasks/ })
      .click();
    // The task next_task names is ready (its order allows it).
    const next = (await pageFetch(member.page, "GET", `/api/tasks/${id}/next`)).json.task.id as string;
    await member.page.locator(`[id="tree-${next}"]`).click();
    await member.page.getByTestId("claim").getByRole("button", { name: "Claim" }).click();
    await expect(member.page.getByTestId("claim")).toContainText(/^You hold it until/);

    // The owner's open page marks it, live, and shows who else has the plan open.
    await expect(page.getByTestId("claim-mark")).toContainText(/Held by Max until/);
    await expect(page.getByTestId("presence")).toHaveAttribute("title", "Also here: Max");

    // Approval before export: the owner requires one; a member cannot give it; the owner (the team's only
    // owner or admin) does, and the member's page follows.
    const overview = (p: Page) =>
      p.getByRole("tablist", { name: "Task sections" }).getByRole("tab", { name: "Overview" }).click();
    await overview(page);
    await page.getByRole("button", { name: "Require approval first" }).click();
    await expect(page.getByTestId("review-state")).toHaveAttribute("data-state", "waiting");
    await overview(member.page);
    await expect(member.page.getByTestId("review-state")).toHaveAttribute("data-state", "waiting");
    await member.page.getByRole("button", { name: "Approve" }).click();
    await expect(member.page.getByTestId("review-card").getByRole("alert")).toHaveText(
      "Only the team's owners and admins review plans; you are a member.",
    );
    await page.getByLabel("Review comment (optional)").fill("Good to go");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("review-state")).toHaveAttribute("data-state", "approved");
    await expect(member.page.getByTestId("review-state")).toHaveAttribute("data-state", "approved");
    await expectAccessibleInBothThemes(page, "a team plan's approval on its Overview");
    await member.page
      .getByRole("tablist", { name: "Task sections" })
      .getByRole("tab", { name: /Subtasks/ })
      .click();

    // The viewer reads it, and is offered no change.
    await viewer.page.goto(`/tasks/${id}?tab=subtasks`);
    await expect(viewer.page.getByTestId("read-only-notice")).toBeVisible();
    await expect(viewer.page.getByRole("button", { name: "Add Task to Tree" })).toHaveCount(0);
    await viewer.page.getByRole("tree", { name: "Task hierarchy" }).getByRole("treeitem").last().click();
    await expect(viewer.page.getByRole("button", { name: "Edit Subtask" })).toBeHidden();
    await expect(viewer.page.getByRole("group", { name: "Work on this task" })).toHaveCount(0);
    await expectAccessibleInBothThemes(viewer.page, "a team plan as its viewer sees it");

    // The member comments on the task, mentioning the viewer: the viewer's open page tells them, and the
    // viewer, who cannot change the plan, answers.
    const notes = member.page.getByTestId("notes");
    await notes.getByRole("textbox").fill("Started on it. @vera can you **check** the wording?");
    await notes.getByRole("button", { name: "Add note" }).click();
    await expect(notes.getByTestId("note")).toContainText("Started on it.");
    await expect(viewer.page.getByText("Max mentioned you on")).toBeVisible();
    await viewer.page.locator(`[id="tree-${next}"]`).click();
    const viewerNotes = viewer.page.getByTestId("notes");
    await expect(viewerNotes.getByTestId("note").locator("strong")).toHaveText("check");
    await viewerNotes.getByRole("textbox").fill("Reads well.");
    await viewerNotes.getByRole("button", { name: "Add note" }).click();
    await expect(viewerNotes.getByTestId("note")).toHaveCount(2);
    await expect(viewerNotes.getByTestId("note").last()).toContainText("Vera");
    await expect(page.getByTestId("presence")).toHaveAttribute("title", "Also here: Max, Vera");

    // The plan's activity says who did what, newest first, and grows live.
    await page.getByRole("tablist", { name: "Task sections" }).getByRole("tab", { name: "Activity" }).click();
    const activity = page.getByTestId("activity");
    await expect(activity.getByTestId("activity-entry").first().locator("p").first()).toHaveText(
      /^Vera commented on “.+”: “Reads well\.”$/,
    );
    await expect(activity).toContainText("Erin Example approved the plan: “Good to go”");
    await expect(activity).toContainText(/Max claimed “.+” until \d\d:\d\d UTC/);
    await expectAccessibleInBothThemes(page, "a plan's activity");

    // Approved, the plan goes out: the owner exports it to Trello (the stand-in).
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Integrations" }).click();
    await page.getByRole("switch", { name: "Enable Trello integration" }).click();
    await page.getByLabel("API Key").fill("e2e-trello-key");
    await page.getByLabel("Token", { exact: true }).fill("e2e-trello-token");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByTestId("trello-card-state")).toHaveText("Connected");
    const dialog = await openTrelloExport(page, id);
    await dialog.getByLabel("Board name").fill("Platform plan");
    await dialog.getByRole("button", { name: "Export to Trello" }).click();
    await expect(page.getByText(/^Successfully created Trello board with \d+ cards$/)).toBeVisible({
      timeout: 60_000,
    });
  } finally {
    await Promise.all([member.close(), viewer.close()]);
  }
});
