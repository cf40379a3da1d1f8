import { createTask, expect, expectAccessibleInBothThemes, test, waitUntilPlanned } from "./fixtures";

const DESCRIPTION = [
  "A book club site",
  "- Members sign up with e-mail",
  "- Members propose books and vote on the next one",
  "- Organisers schedule meetings on a calendar",
].join("\n");

test("re-plan with guidance: review the diff, accept part of it, a hand-edited task stays locked, and the History tab restores the original", async ({
  page,
  origin,
  signedIn: _account,
}) => {
  const task = await createTask(page.request, origin, DESCRIPTION);
  await waitUntilPlanned(page.request, task.id);
  await page.goto(`/tasks/${task.id}?tab=subtasks`);
  const tree = page.getByRole("tree", { name: "Task hierarchy" });
  const item = (name: RegExp) => tree.getByRole("treeitem", { name });

  // A person's edit locks the task against re-plans: marked in the tree and in the side panel.
  await item(/R1: Members sign up/).click();
  await page.getByRole("button", { name: "Edit Subtask" }).click();
  const editor = page.getByRole("form", { name: "Edit subtask" });
  await editor.getByLabel("Story points").selectOption("8");
  await editor.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("lock-notice")).toContainText("Locked: edited by hand");
  await expect(item(/R1: Members sign up/).getByTestId("lock-mark")).toBeVisible();
  await page.getByRole("button", { name: "Close details" }).click();

  // Re-plan the whole plan with less detail: a proposal to review; nothing changes yet.
  await page.getByRole("button", { name: "Re-plan..." }).click();
  const dialog = page.getByRole("dialog", { name: /Re-plan "A book club site"/ });
  await dialog.getByLabel("Guidance (optional)").fill("less detail");
  await dialog.getByRole("button", { name: "Propose a new plan" }).click();
  const diff = dialog.getByTestId("replan-diff");
  await expect(diff).toBeVisible();
  const changes = diff.getByTestId("replan-change");
  const removals = changes.and(page.locator('[data-op="remove"]'));
  await expect(removals.filter({ hasText: "Choose the stack" })).toBeVisible();
  await expect(removals.filter({ hasText: "Set up the repository" })).toBeVisible();
  await expect(removals.filter({ hasText: "R1: Members sign up" })).toHaveCount(0);
  // "Less detail" merges: each step goes into the task above it, which keeps its work.
  await expect(removals.filter({ hasText: "Choose the stack" })).toContainText(/^Merge/);
  await expectAccessibleInBothThemes(page, "a re-plan's proposal");
  await expect(item(/Set up the repository/)).toBeVisible();

  // Accept all but one: the stack decision stays.
  const total = await changes.count();
  await removals.filter({ hasText: "Choose the stack" }).getByRole("checkbox").uncheck();
  await dialog.getByRole("button", { name: `Accept ${total - 1} of ${total} changes` }).click();
  await expect(page.getByText(`Re-plan applied: ${total - 1} changes`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(item(/Set up the repository/)).toHaveCount(0);
  await expect(item(/Choose the stack/)).toBeVisible();
  await expect(item(/R1: Members sign up/)).toBeVisible();

  // History: the re-plan, the edit and the original; restoring the original brings the steps back.
  const tabs = page.getByRole("tablist", { name: "Task sections" });
  await tabs.getByRole("tab", { name: "History" }).click();
  const revisions = page.getByTestId("revision");
  await expect(revisions).toHaveCount(3);
  await expect(revisions.nth(0)).toContainText('("less detail")');
  await expect(revisions.nth(1)).toContainText("Edited");
  await expect(revisions.nth(2)).toContainText("The plan before the first recorded change");
  await revisions.nth(2).getByRole("button", { name: "Restore" }).click();
  const restore = page.getByRole("dialog", { name: "Restore this version?" });
  await expect(restore).toBeVisible();
  await expectAccessibleInBothThemes(page, "the History tab's restore dialog");
  await restore.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText("Plan restored")).toBeVisible();
  await expect(revisions).toHaveCount(4);
  await expect(revisions.nth(0)).toContainText("Restored the plan as it was");
  await tabs.getByRole("tab", { name: /Subtasks/ }).click();
  await expect(item(/Set up the repository/)).toBeVisible();
});
