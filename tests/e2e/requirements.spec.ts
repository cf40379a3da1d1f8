import type { APIRequestContext } from "@playwright/test";
import { createTask, expect, expectAccessibleInBothThemes, test, waitUntilPlanned } from "./fixtures";

/**
 * The Requirements tab (issue 33): each stated requirement with its status and tasks, the one-line
 * summary, the flag on a requirement no task covers, and "Only what is not done", in both themes.
 */

const PRD = `Shared shopping list

## Scope (v1)
- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online`;

type Tree = { id: string; children: Tree[] };
type Answer = { requirements: { id: string; tasks: { id: string }[] }[] };

/** Completes, through the API, every work item under the tasks covering one requirement. */
async function finishRequirement(request: APIRequestContext, origin: string, planId: string, rid: string) {
  const answer = (await (await request.get(`/api/tasks/${planId}/requirements`)).json()) as Answer;
  const tree = (await (await request.get(`/api/tasks/${planId}/tree`)).json()) as Tree;
  const find = (n: Tree, id: string): Tree | undefined =>
    n.id === id ? n : n.children.map((c) => find(c, id)).find(Boolean);
  const leaves = (n: Tree): Tree[] => (n.children.length ? n.children.flatMap(leaves) : [n]);
  for (const t of answer.requirements.find((r) => r.id === rid)!.tasks)
    for (const leaf of leaves(find(tree, t.id)!)) {
      const res = await request.post(`/api/tasks/${leaf.id}/complete`, { headers: { origin } });
      expect(res.status(), await res.text()).toBe(200);
    }
}

test("the Requirements tab: summary, tasks per requirement, the uncovered flag and the filter", async ({
  page,
  origin,
  signedIn,
}) => {
  expect(signedIn.email).toBeTruthy();
  const { id } = await createTask(page.request, origin, PRD);
  await waitUntilPlanned(page.request, id);
  // A fourth requirement added to the description after planning: no task covers it.
  const edited = await page.request.patch(`/api/tasks/${id}`, {
    headers: { origin },
    data: { description: `${PRD}\n- Members see who bought what` },
  });
  expect(edited.status(), await edited.text()).toBe(200);

  await page.goto(`/tasks/${id}`);
  await page
    .getByRole("tablist", { name: "Task sections" })
    .getByRole("tab", { name: "Requirements" })
    .click();
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByTestId("requirements-summary")).toHaveText(
    "0 of 4 requirements done; 1 has no task",
  );
  const list = panel.getByRole("list", { name: "Requirements" });
  const r1 = list.getByTestId("requirement").filter({ hasText: "R1" });
  await expect(r1.getByRole("heading")).toHaveText(
    /R1\s*Users can create lists and invite family members by email/,
  );
  await expect(r1.getByTestId("requirement-status")).toHaveText("Not started");
  const tasks = r1.getByRole("list", { name: "Tasks covering R1" }).getByTestId("requirement-task");
  expect(await tasks.count()).toBeGreaterThan(0);
  await expect(tasks.first().getByRole("link")).toHaveAttribute("href", /^\/tasks\/[0-9a-f-]{36}$/);
  await expect(tasks.first()).toContainText("Pending");
  const r4 = list.getByTestId("requirement").filter({ hasText: "R4" });
  await expect(r4.getByTestId("requirement-status")).toHaveText("No tasks yet");
  await expect(r4.getByTestId("requirement-uncovered")).toContainText("No task covers this requirement.");
  await expectAccessibleInBothThemes(page, "the Requirements tab");

  // The work of R2 is finished (elsewhere): the tab follows without a reload, and hides what is done.
  await finishRequirement(page.request, origin, id, "R2");
  await expect(panel.getByTestId("requirements-summary")).toHaveText(
    "1 of 4 requirements done; 1 has no task",
  );
  const toggle = panel.getByRole("switch", { name: "Only what is not done" });
  await expect(toggle).toBeChecked();
  await expect(list.getByTestId("requirement").filter({ hasText: "R2" })).toHaveCount(0);
  await expect(panel).toContainText("1 done requirement is hidden.");
  await expect(list.getByTestId("requirement")).toHaveCount(3);

  await toggle.uncheck();
  const r2 = list.getByTestId("requirement").filter({ hasText: "R2" });
  await expect(r2.getByTestId("requirement-status")).toHaveText("Done");
  await expect(list.getByTestId("requirement")).toHaveCount(4);
  await expect(r2.getByTestId("requirement-task").first()).toContainText("Completed");
  await expectAccessibleInBothThemes(page, "the Requirements tab with every requirement shown");
});
