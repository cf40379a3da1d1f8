import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The main journey with the keyboard alone (no clicks): create a task, open its tree, edit a node and
 * export the plan. At each step the element that should have focus has it, and shows it: it matches
 * :focus-visible and draws an outline or a box-shadow.
 */

async function expectVisibleFocus(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const focus = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      focusVisible: el.matches(":focus-visible"),
      outline: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0,
      shadow: style.boxShadow !== "none",
    };
  });
  expect(focus.focusVisible, "the focused element matches :focus-visible").toBe(true);
  expect(focus.outline || focus.shadow, "an outline or a box-shadow shows the focus").toBe(true);
}

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, then checks the focus shows. */
async function tabTo(page: Page, target: Locator, { back = false, max = 50 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max && !(await hasFocus(target)); presses++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expectVisibleFocus(target);
}

test("create a task, open its tree, edit a node and export the plan with the keyboard alone", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/dashboard");
  const main = page.getByRole("main");

  // Create a task.
  await tabTo(page, main.getByRole("button", { name: "Create New Task" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tasks\/create$/);
  const description = page.getByLabel("Task Description");
  await expectVisibleFocus(description);
  await page.keyboard.type("A book club site\nMembers propose books.\nMembers vote on the next book.");
  await tabTo(page, main.getByRole("button", { name: "Plan without checking" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("decomposition-progress").getByText("Complete", { exact: true })).toBeVisible(
    {
      timeout: 60_000,
    },
  );

  // Open its tree: Tab to the selected tab, the arrow key to Subtasks, Tab into the tree.
  const tabs = page.getByRole("tablist", { name: "Task sections" });
  await tabTo(page, tabs.getByRole("tab", { selected: true }));
  await page.keyboard.press("ArrowRight");
  const subtasksTab = tabs.getByRole("tab", { name: /Subtasks/ });
  await expect(subtasksTab).toHaveAttribute("aria-selected", "true");
  await expectVisibleFocus(subtasksTab);
  const tree = page.getByRole("tree", { name: "Task hierarchy" });
  await tabTo(page, tree);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const node = tree.getByRole("treeitem", { selected: true });
  await expect(node).toHaveAttribute("aria-level", "2");
  const title = (await node.locator("span[title]").first().textContent()) ?? "";
  expect(title).not.toBe("");

  // Change the node: Edit Subtask opens the editor on its description; saving returns to the button.
  const edit = page.getByRole("button", { name: "Edit Subtask" });
  await tabTo(page, edit);
  await page.keyboard.press("Enter");
  const editor = page.getByRole("form", { name: "Edit subtask" });
  const field = editor.getByLabel("Description");
  await expectVisibleFocus(field);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("Members vote on the next book, by keyboard");
  await tabTo(page, editor.getByRole("button", { name: "Save changes" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Subtask updated")).toBeVisible();
  await expectVisibleFocus(edit);
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText(
    "Members vote on the next book, by keyboard",
  );

  // Export: back to the Export button, open its menu, move to Markdown and take it.
  const exportButton = page.getByRole("button", { name: "Export" });
  await tabTo(page, exportButton, { back: true });
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "Export" });
  await expectVisibleFocus(menu.getByRole("menuitem", { name: "Export as JSON" }));
  await page.keyboard.press("ArrowDown");
  const markdown = menu.getByRole("menuitem", { name: "Export as Markdown" });
  await expectVisibleFocus(markdown);
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  expect((await download).suggestedFilename()).toMatch(/\.md$/);
  await expect(menu).toBeHidden();
  await expectVisibleFocus(exportButton);
});
