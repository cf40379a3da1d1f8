import { createTask, expect, test, waitUntilPlanned } from "./fixtures";

const DESCRIPTION = [
  "Book club",
  "- A book club site",
  "- Members sign up with e-mail",
  "- Members propose books and vote on the next one",
  "- Organisers schedule meetings on a calendar",
].join("\n");

test("the Plan tab: forecast by team size, a dependency changes the critical path, a cycle is refused inline, and completing the next task readies what waited for it", async ({
  page,
  origin,
  signedIn: _account,
}) => {
  const task = await createTask(page.request, origin, DESCRIPTION);
  await waitUntilPlanned(page.request, task.id);
  await page.goto(`/tasks/${task.id}?tab=plan`);

  const forecast = page.getByTestId("forecast");
  await expect(forecast).toBeVisible();
  const p50 = page.getByTestId("forecast-p50");
  const days = async () => Number((await p50.textContent())?.match(/[\d.]+/)?.[0]);
  await expect(p50).toContainText("working days");
  const oneDays = await days();
  // Only the setup's first step can start: no stack is named, so it is chosen before the repository is set up.
  const nextUp = page.getByTestId("next-up");
  await expect(nextUp.getByRole("listitem")).toHaveCount(1);
  await expect(nextUp).toContainText("Choose the stack and record the decision");
  await expect(nextUp.getByText("critical")).toBeVisible();

  const team = page.getByLabel("Team size");
  await team.fill("3");
  await expect.poll(days).toBeLessThan(oneDays);
  await team.fill("0");
  await expect(
    page.getByRole("alert").filter({ hasText: "Enter a whole number from 1 to 50." }),
  ).toBeVisible();
  await team.fill("1");
  await expect.poll(days).toBe(oneDays);
  const criticalHours = async () =>
    Number((await page.getByTestId("critical-hours").textContent())?.match(/([\d.]+) h/)?.[1]);
  const before = await criticalHours();

  // In the Subtasks tab's side panel: R2 waits for R3, which lengthens the critical path.
  const tabs = page.getByRole("tablist", { name: "Task sections" });
  await tabs.getByRole("tab", { name: /Subtasks/ }).click();
  const tree = page.getByRole("tree", { name: "Task hierarchy" });
  await tree.getByRole("treeitem", { name: /R2: Members sign up/ }).click();
  const deps = page.getByTestId("dependencies");
  await expect(deps.getByText("Nothing waits for it.")).toBeHidden();
  await deps.getByLabel("Add a task it waits for").fill("propose books");
  await deps
    .getByTestId("dependency-candidates")
    .getByRole("button", { name: /R3: Members propose books/ })
    .click();
  await expect(deps.getByTestId("blocked-by")).toContainText("R3: Members propose books");

  // The setup cannot wait for R2: R2 already waits for it. The server names the cycle, shown inline.
  await tree.getByRole("treeitem", { name: /^Project setup/ }).click();
  await expect(deps.getByTestId("blocks")).toContainText("R2: Members sign up");
  await deps.getByLabel("Add a task it waits for").fill("sign up");
  await deps
    .getByTestId("dependency-candidates")
    .getByRole("button", { name: /R2: Members sign up/ })
    .click();
  await expect(deps.getByTestId("dependency-error")).toContainText(
    "This would create a cycle: Project setup -> R2: Members sign up with e-mail -> Project setup",
  );
  // Another node starts with a fresh search and no message; R2 still waits for the setup and R3.
  await tree.getByRole("treeitem", { name: /R2: Members sign up/ }).click();
  await expect(deps.getByTestId("dependency-error")).toBeHidden();
  await expect(deps.getByLabel("Add a task it waits for")).toHaveValue("");
  await expect(deps.getByTestId("blocked-by").getByRole("listitem")).toHaveCount(2);

  // A person's estimate range, checked as it is typed.
  await tree.getByRole("treeitem", { name: /R4: Organisers schedule/ }).click();
  await page.getByRole("button", { name: "Edit estimate" }).click();
  const estimate = page.getByRole("form", { name: "Edit estimate" });
  await estimate.getByLabel("Low (h)").fill("10");
  await estimate.getByLabel("Likely (h)").fill("5");
  await expect(estimate.getByText("low must not be above likely")).toBeVisible();
  await expect(estimate.getByRole("button", { name: "Save estimate" })).toBeDisabled();
  await estimate.getByLabel("Low (h)").fill("4");
  await estimate.getByLabel("Likely (h)").fill("8");
  await estimate.getByLabel("High (h)").fill("16");
  await estimate.getByRole("button", { name: "Save estimate" }).click();
  await expect(page.getByTestId("node-estimate")).toContainText("4-16 h (likely 8 h)");
  await expect(estimate).toBeHidden();

  // Editing a subtask in place: only what changed is sent, and the tree shows it.
  await tree.getByRole("treeitem", { name: /R1: A book club site/ }).click();
  await page.getByRole("button", { name: "Edit Subtask" }).click();
  const editor = page.getByRole("form", { name: "Edit subtask" });
  await expect(editor.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await editor.getByLabel("Description").fill("R1: A book club website\nWith a public landing page");
  await editor.getByLabel("Story points").selectOption("5");
  await editor
    .getByLabel("Acceptance criteria")
    .fill("Shown working as R1 states\nThe landing page loads without signing in");
  await editor.getByLabel("Complexity (1-10)").fill("11");
  await expect(editor.getByText("complexity_score must be between 1 and 10")).toBeVisible();
  await editor.getByLabel("Complexity (1-10)").fill("4");
  await editor.getByRole("button", { name: "Save changes" }).click();
  await expect(tree.getByRole("treeitem", { name: /R1: A book club website/ })).toBeVisible();
  await expect(editor).toBeHidden();
  await expect(page.getByRole("heading", { name: "R1: A book club website" })).toBeVisible();
  await expect(page.getByTestId("node-criteria")).toContainText("The landing page loads without signing in");

  // Moving with the keyboard: R4 up one place; R2 cannot go under the setup it waits for.
  await tree.getByRole("treeitem", { name: /R4: Organisers schedule/ }).click();
  const move = page.getByTestId("move");
  await move.getByRole("button", { name: "Move up" }).click();
  await expect(page.getByText("Task moved")).toBeVisible();
  const firstLevel = tree.getByRole("treeitem").filter({ hasText: /^R\d/ });
  await expect
    .poll(async () => (await firstLevel.allTextContents()).map((t) => t.match(/^R\d/)?.[0]))
    .toEqual(["R1", "R2", "R4", "R3"]);
  await tree.getByRole("treeitem", { name: /R2: Members sign up/ }).click();
  await move.getByLabel("Move under").selectOption({ label: "\u00a0\u00a0Project setup" });
  await move.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByTestId("move-error")).toContainText("which depend on each other, in one branch");
  // Drag and drop: R1 dropped onto R4 goes under it.
  await tree
    .getByRole("treeitem", { name: /R1: A book club website/ })
    .dragTo(tree.getByRole("treeitem", { name: /R4: Organisers schedule/ }));
  await expect(tree.getByRole("treeitem", { name: /R1: A book club website/ })).toHaveAttribute(
    "aria-level",
    "3",
  );
  // Dropped on the top edge of R2, R3 goes before it.
  await tree
    .getByRole("treeitem", { name: /R3: Members propose books/ })
    .dragTo(tree.getByRole("treeitem", { name: /R2: Members sign up/ }), { targetPosition: { x: 60, y: 3 } });
  await expect
    .poll(async () =>
      (await tree.locator('[aria-level="2"]').filter({ hasText: /^R\d/ }).allTextContents()).map(
        (t) => t.match(/^R\d/)?.[0],
      ),
    )
    .toEqual(["R3", "R2", "R4"]);

  await tabs.getByRole("tab", { name: "Plan" }).click();
  await expect.poll(criticalHours).toBeGreaterThan(before);
  const r3 = page
    .getByTestId("waves")
    .locator("[data-critical]")
    .filter({ hasText: "R3: Members propose books" });
  await expect(r3).toBeVisible();

  // Completing the setup's steps readies what waited only for it, live; R2 still waits for R3.
  await nextUp.getByRole("button", { name: /Mark done: Choose the stack/ }).click();
  await expect(page.getByText("1 task is ready to start")).toBeVisible();
  await expect(nextUp).toContainText("Set up the repository");
  await nextUp.getByRole("button", { name: /Mark done: Set up the repository/ }).click();
  // R3 and R1 (now under R4, which is a parent and no longer a leaf of its own).
  await expect(page.getByText("2 tasks are ready to start")).toBeVisible();
  await expect(nextUp.getByRole("listitem")).toHaveCount(2);
  await expect(nextUp).toContainText("R3: Members propose books");
  await expect(nextUp).toContainText("R1: A book club website");
  await expect(nextUp).not.toContainText("R2: Members sign up");
  // The critical one comes first.
  await expect(nextUp.getByRole("listitem").first()).toContainText("R3: Members propose books");
});
