import { expect, expectAccessibleInBothThemes, test } from "./fixtures";

/**
 * Checking what was read before planning (issue 38): the new-project form reads the description and
 * shows "Here is what I read" in place; the user changes an item's role with the keyboard and the kind,
 * plans, and the Overview says the plan was made as the chosen kind.
 */

const PRD = `# Shared shopping list

- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online`;

test("create with review, correct the reading with the keyboard, plan it as the chosen kind", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/tasks/create");
  await expect(
    page.getByRole("checkbox", { name: "Let me check what was read before planning" }),
  ).toBeChecked();
  await page.getByLabel("Task Description").fill(PRD);
  await page.getByRole("button", { name: "Create Task" }).click();

  // In place: the same page, now showing what was read.
  await expect(page).toHaveURL(/\/tasks\/create$/);
  const review = page.getByTestId("reading-review");
  // It takes the focus from the form it replaced.
  await expect(review.getByRole("heading", { name: "Here is what I read" })).toBeFocused();
  const items = review.getByTestId("reading-item");
  await expect(items).toHaveCount(3);
  await expect(review.getByLabel("Kind of work")).toHaveValue("product");
  await expectAccessibleInBothThemes(page, "the reading to check");

  // The third work item is a constraint, not work: its role, changed with the keyboard alone.
  const role = review.getByLabel("Role of item 3 (R3)");
  await role.focus();
  await expect(role).toBeFocused();
  // A closed select takes the typed start of an option's name.
  await page.keyboard.type("Constraint");
  // No longer work, it has no R id: its label says so, and the select keeps the focus.
  const changed = review.getByLabel("Role of item 3", { exact: true });
  await expect(changed).toHaveValue("constraint");
  await expect(changed).toBeFocused();

  // The kind: a feature on an existing product, chosen from the keyboard too.
  const kind = review.getByLabel("Kind of work");
  await kind.focus();
  await page.keyboard.type("feature");
  await expect(kind).toHaveValue("feature");
  await expect(review.getByText("Your choice: the plan takes this kind's shape.")).toBeVisible();

  await review.getByRole("button", { name: "Plan it" }).click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("decomposition-progress").getByText("Complete", { exact: true })).toBeVisible(
    {
      timeout: 60_000,
    },
  );
  const plannedAs = page.getByTestId("planned-as");
  await expect(plannedAs).toContainText("Planned as: feature on an existing product");
  await expect(plannedAs).toContainText("you chose it when you checked the reading");
  const stated = page.getByTestId("stated-requirements");
  await expect(stated.getByRole("listitem")).toHaveCount(2);
  await expect(stated).not.toContainText("Lists work offline");
});

test("a project waiting for its check shows the same review on its page", async ({
  page,
  origin,
  signedIn: _,
}) => {
  const made = await page.request.post("/api/tasks", {
    data: { description: PRD, review_reading: true },
    headers: { origin },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  await page.goto(`/tasks/${id}`);
  const review = page.getByTestId("reading-review");
  await expect(review.getByRole("heading", { name: "Here is what I read" })).toBeVisible();
  await expect(page.getByText("Check the reading").first()).toBeVisible();
  await expectAccessibleInBothThemes(page, "a project waiting for its check");
  // Add a work item with the keyboard; it takes the focus.
  await review.getByRole("button", { name: "Add a work item" }).focus();
  await page.keyboard.press("Enter");
  const added = review.getByLabel("Text of item 4 (R4)");
  await expect(added).toBeFocused();
  await page.keyboard.type("Admins can export every list as CSV");
  await review.getByRole("button", { name: "Plan it" }).click();
  await expect(page.getByTestId("decomposition-progress").getByText("Complete", { exact: true })).toBeVisible(
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId("reading-review")).toHaveCount(0);
  await expect(page.getByTestId("stated-requirements")).toContainText("Admins can export every list as CSV");
});
