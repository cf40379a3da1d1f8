import type { TaskTreeNode } from "../../src/shared/schemas/tasks";
import { callTool, connectMcp } from "../support/mcp-client";
import { expect, expectAccessibleInBothThemes, pageFetch, test } from "./fixtures";

/**
 * Issue 40's walk, in one page load from a new account (no reload, no typed address after the first):
 * a project from a paragraph, five tasks worked in the side panel (started, hours entered, done), every
 * tab, a re-plan with less detail, and the dashboard. Every view shows the latest state when it is
 * looked at: a view that needed a reload would fail here.
 */

const DESCRIPTION = [
  "A recipe sharing site",
  "- Cooks post recipes with ingredients and steps",
  "- Visitors search recipes by ingredient",
  "- Cooks rate and comment on recipes",
  "- Admins remove comments that break the rules",
].join("\n");

function leavesOf(node: TaskTreeNode): TaskTreeNode[] {
  return node.children.length === 0 ? [node] : node.children.flatMap(leavesOf);
}

test("from a new account to a plan with five actuals and a re-plan, every view follows without a reload (issue 40)", async ({
  page,
  origin,
  signedIn: _account,
}) => {
  await page.goto("/dashboard");
  // Everything after this is in the page: links, buttons and keys.
  let loads = 0;
  page.on("load", () => loads++);

  await page
    .getByRole("link", { name: /Create Task/ })
    .first()
    .click();
  await page.getByLabel("Task Description").fill(DESCRIPTION);
  await page.getByRole("checkbox", { name: "Let me check what was read before planning" }).uncheck();
  await page.getByRole("button", { name: "Create Task" }).click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  const progress = page.getByTestId("decomposition-progress");
  await expect(progress.getByText("Complete", { exact: true })).toBeVisible({ timeout: 60_000 });
  const tree = (await (await page.request.get(`/api/tasks/${id}/tree`)).json()) as TaskTreeNode;
  const leaves = leavesOf(tree);
  expect(leaves.length).toBeGreaterThan(6);

  // Five tasks worked where they are: Start, the hours it took, Done.
  const tabs = page.getByRole("tablist", { name: "Task sections" });
  await tabs.getByRole("tab", { name: /Subtasks/ }).click();
  const hierarchy = page.getByRole("tree", { name: "Task hierarchy" });
  const details = page.locator("section[aria-labelledby=subtask-detail-heading]");
  for (const [i, leaf] of leaves.slice(0, 5).entries()) {
    await page.locator(`[id="tree-${leaf.id}"]`).click();
    const work = details.getByRole("group", { name: "Work on this task" });
    await work.getByRole("button", { name: "Start" }).click();
    await expect(work.getByRole("button", { name: "Start" })).toHaveCount(0);
    await details.getByRole("button", { name: "Edit actual hours" }).click();
    const form = details.getByRole("form", { name: "Edit actual hours" });
    await form.getByLabel("Hours it took").fill(String(i + 2));
    await form.getByRole("button", { name: "Save hours" }).click();
    await expect(details.getByTestId("node-actual")).toContainText(`${i + 2} h (entered)`);
    await work.getByRole("button", { name: "Done" }).click();
    await expect(page.locator(`[id="tree-${leaf.id}"] [data-status]`).first()).toHaveAttribute(
      "data-status",
      "completed",
    );
  }
  await expect(hierarchy.getByRole("treeitem").first().locator("[data-status]").first()).toHaveAttribute(
    "data-status",
    "in_progress",
  );

  // The Plan tab: calibrated on the five, the accuracy chart and the burn-up show them.
  await tabs.getByRole("tab", { name: "Plan" }).click();
  await expect(page.getByTestId("calibration")).toContainText("Forecast calibrated on 5 finished tasks");
  const accuracy = page.getByTestId("estimate-accuracy-chart");
  await accuracy.getByText("Show the data as a table").click();
  await expect(accuracy.getByRole("table").getByRole("row")).toHaveCount(6);
  const burnUp = page.getByTestId("burn-up-chart");
  const doneHours = leaves.slice(0, 5).reduce((n, l) => n + (l.estimate_hours?.likely ?? 6), 0);
  await expect(burnUp.locator("desc")).toContainText(`done ${Math.round(doneHours * 10) / 10} h`);

  // The Overview and the header count the same work.
  await tabs.getByRole("tab", { name: "Overview" }).click();
  await expect(page.getByTestId("overview-work")).toHaveText(`5 of ${leaves.length} tasks done`);

  // A re-plan with less detail: merged, nothing stated left without a task, the hours kept.
  await tabs.getByRole("tab", { name: /Subtasks/ }).click();
  await page.getByRole("button", { name: "Close details" }).click();
  await page.getByRole("button", { name: "Re-plan..." }).click();
  const dialog = page.getByRole("dialog", { name: /^Re-plan / });
  await dialog.getByLabel("Guidance (optional)").fill("less detail");
  await dialog.getByRole("button", { name: "Propose a new plan" }).click();
  await expect(dialog.getByTestId("replan-diff")).toBeVisible();
  await expect(dialog.getByTestId("replan-uncovered")).toHaveCount(0);
  await dialog.getByRole("button", { name: /^Accept all/ }).click();
  await expect(dialog).toBeHidden();
  const after = (await pageFetch(page, "GET", `/api/tasks/${id}/tree`)).json as TaskTreeNode;
  expect(leavesOf(after).length).toBeLessThan(leaves.length);
  await expect(hierarchy.getByRole("treeitem")).toHaveCount(
    [after, ...after.children.flatMap((c) => [c, ...c.children])].length,
  );

  // Every tab shows the merged plan as it is now.
  await tabs.getByRole("tab", { name: "Requirements" }).click();
  await expect(page.getByTestId("requirement-uncovered")).toHaveCount(0);
  await tabs.getByRole("tab", { name: "History" }).click();
  await expect(page.getByTestId("revision").first()).toContainText('("less detail")');
  await tabs.getByRole("tab", { name: "Plan" }).click();
  await expect(page.getByTestId("calibration")).toContainText("Forecast calibrated on 5 finished tasks");
  await tabs.getByRole("tab", { name: "Overview" }).click();
  const afterLeaves = leavesOf(after);
  const afterDone = afterLeaves.filter((l) => l.status === "completed").length;
  await expect(page.getByTestId("overview-work")).toHaveText(
    `${afterDone} of ${afterLeaves.length} tasks done`,
  );
  await expectAccessibleInBothThemes(page, "a worked, re-planned project's Overview");

  // The dashboard counts it as work in progress.
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  const card = page.getByTestId("task-card").filter({ hasText: "A recipe sharing site" });
  await expect(card.getByTestId("work-progress")).toContainText(
    `${afterDone} of ${afterLeaves.length} tasks done`,
  );

  // An agent's plan started elsewhere shows up on the open dashboard, and its page follows the agent.
  const made = await pageFetch(page, "POST", "/api/tokens", {
    name: "Claude Code",
    scope: "write",
    expires_in_days: 30,
  });
  expect(made.status).toBe(201);
  const agent = await connectMcp(origin, made.json.token);
  try {
    await callTool(agent, "create_project", {
      description: "A book club site\n- Members vote on the next book",
      planner: "agent",
      max_depth: 2,
    });
    const agentCard = page.getByTestId("task-card").filter({ hasText: "A book club site" });
    await expect(agentCard).toBeVisible({ timeout: 60_000 });
    await agentCard.getByRole("link").first().click();
    await expect(page.getByTestId("agent-step")).toContainText("Waiting on step 1");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  } finally {
    await agent.close();
  }
  expect(loads).toBe(0);
});
