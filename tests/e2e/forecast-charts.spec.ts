import type { TaskTreeNode } from "../../src/shared/schemas/tasks";
import { createTask, expect, expectAccessibleInBothThemes, test, waitUntilPlanned } from "./fixtures";

const DESCRIPTION = [
  "Team wiki",
  "- Members write pages in Markdown",
  "- Pages link to each other and show their backlinks",
  "- Full-text search over every page",
  "- Editors review changes before they are published",
  "- Admins manage who can edit which space",
  "- Page history with diffs and restore",
].join("\n");

function leavesOf(node: TaskTreeNode): TaskTreeNode[] {
  return node.children.length === 0 ? [node] : node.children.flatMap(leavesOf);
}

test("forecasts that learn: actuals entered in the side panel, a forecast calibrated on five finished tasks and switched off, the three charts with their tables, and what changed since a date, accessible in both themes", async ({
  page,
  origin,
  signedIn: _account,
}) => {
  const task = await createTask(page.request, origin, DESCRIPTION);
  await waitUntilPlanned(page.request, task.id);
  const tree = (await (await page.request.get(`/api/tasks/${task.id}/tree`)).json()) as TaskTreeNode;
  const leaves = leavesOf(tree).filter((l) => (l.estimated_hours ?? 0) > 0);
  expect(leaves.length).toBeGreaterThan(6);

  // Before any actuals: the forecast says it is not calibrated yet.
  await page.goto(`/tasks/${task.id}?tab=plan`);
  await expect(page.getByTestId("calibration")).toContainText("Not calibrated yet: 0 finished tasks");

  // Four leaves done through the API at twice their estimate, the fifth in the side panel.
  for (const leaf of leaves.slice(0, 4)) {
    const res = await page.request.patch(`/api/tasks/${leaf.id}`, {
      data: { status: "completed", actual_hours: 2 * leaf.estimated_hours! },
      headers: { origin },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const fifth = leaves[4]!;
  await page.goto(`/tasks/${task.id}?tab=subtasks`);
  const hierarchy = page.getByRole("tree", { name: "Task hierarchy" });
  await hierarchy
    .getByRole("treeitem", { name: new RegExp(escapeRegExp(firstLine(fifth.description))) })
    .first()
    .click();
  await expect(page.getByTestId("node-actual")).toContainText("Not done yet");
  await page.getByRole("button", { name: "Edit actual hours" }).click();
  const form = page.getByRole("form", { name: "Edit actual hours" });
  await form.getByLabel("Hours it took").fill("-2");
  await expect(form.getByText("actual_hours must be a number of hours, 0 or more")).toBeVisible();
  await expect(form.getByRole("button", { name: "Save hours" })).toBeDisabled();
  await form.getByLabel("Hours it took").fill(String(2 * fifth.estimated_hours!));
  await form.getByRole("button", { name: "Save hours" }).click();
  await expect(page.getByTestId("node-actual")).toContainText(
    `Took ${2 * fifth.estimated_hours!} h (entered)`,
  );
  const done = await page.request.patch(`/api/tasks/${fifth.id}`, {
    data: { status: "completed" },
    headers: { origin },
  });
  expect(done.status()).toBe(200);

  // The Plan tab: calibrated on the five, then switched off.
  await page.goto(`/tasks/${task.id}?tab=plan`);
  const calibration = page.getByTestId("calibration");
  await expect(calibration).toHaveText(
    "Forecast calibrated on 5 finished tasks: yours take 2× their estimate.",
  );
  const p50 = page.getByTestId("forecast-p50");
  const days = async () => Number((await p50.textContent())?.match(/[\d.]+/)?.[0]);
  const calibrated = await days();
  await page.getByLabel("Calibrate on finished tasks").uncheck();
  await expect(calibration).toContainText("Calibration off: the estimate ranges alone");
  await expect.poll(days).toBeLessThan(calibrated);

  // The pictures, each with its data as a table.
  const burnUp = page.getByTestId("burn-up-chart");
  await expect(burnUp.getByRole("img")).toHaveAccessibleName(/Burn-up, in hours/);
  await expect(page.getByTestId("finish-distribution-chart").getByRole("img")).toBeVisible();
  const accuracy = page.getByTestId("estimate-accuracy-chart");
  await accuracy.getByText("Show the data as a table").click();
  await expect(accuracy.getByRole("table")).toBeVisible();
  await expect(accuracy.getByRole("table").getByRole("row")).toHaveCount(6); // a header and five tasks
  await burnUp.getByText("Show the data as a table").click();
  await page.getByRole("group", { name: "Burn-up unit" }).getByText("Tasks").click();
  await expect(page.getByRole("radio", { name: "Tasks" })).toBeChecked();
  await expect(burnUp.getByRole("img")).toHaveAccessibleName(/Burn-up, in tasks/);

  // Issue 40: a task marked done here moves the burn-up at once, with no reload.
  const doneNow = async () =>
    Number((await burnUp.locator("desc").textContent())?.match(/done (\d+) tasks?/)?.[1]);
  const before = await doneNow();
  expect(before).toBeGreaterThanOrEqual(5);
  await page
    .getByTestId("next-up")
    .getByRole("button", { name: /^Mark done:/ })
    .first()
    .click();
  await expect.poll(doneNow).toBe(before + 1);

  // What changed since a week ago: nothing planned was added or removed.
  await expect(page.getByTestId("scope-summary")).toBeVisible();

  await expectAccessibleInBothThemes(page, "the Plan tab with its charts");
});

function firstLine(text: string): string {
  return text.split("\n")[0]!.slice(0, 30);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
