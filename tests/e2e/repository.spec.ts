import path from "node:path";
import { mapLocalRepository } from "../../src/cli/local-repository";
import { expect, expectAccessibleInBothThemes, test, waitUntilPlanned } from "./fixtures";

/**
 * A change planned on a repository's map (issue 42), as a person reads it: the detected stack on the
 * Overview, each leaf's likely files in its details, and the files of each wave in the Plan tab.
 */
test("a plan on a repository shows the stack it found and the files each task likely changes", async ({
  page,
  origin,
  signedIn: _account,
}) => {
  const map = await mapLocalRepository(path.resolve("tests/fixtures/repositories/node-express-invoices"));
  const res = await page.request.post("/api/tasks", {
    data: {
      description:
        "Invoices get a payment due date\n- Set a due date when an invoice is created\n- List overdue invoices",
      repository_map: map,
    },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  await waitUntilPlanned(page.request, id);

  // The Technology Stack card says what the repository's manifests show.
  await page.goto(`/tasks/${id}`);
  await expect(
    page.getByText(
      "Detected: Node 20, Express, PostgreSQL via Prisma, Jest, from the repository's manifests.",
    ),
  ).toBeVisible();

  await page.goto(`/tasks/${id}?tab=subtasks`);
  const tree = page.getByRole("tree", { name: "Task hierarchy" });
  await tree
    .getByRole("treeitem", { name: /due date when an invoice is created/i })
    .first()
    .click();
  const files = page.getByTestId("node-files");
  await expect(files).toContainText(/(src|prisma)\/\S+\.(js|prisma|sql)/);
  await expect(files).toContainText(/(high|medium|low) confidence/);

  await page.goto(`/tasks/${id}?tab=plan`);
  await expect(page.getByTestId("wave-files").first()).toBeVisible();
  await expect(page.getByTestId("waves")).toContainText("src/");
  await expectAccessibleInBothThemes(page, "the Plan tab with each task's likely files");
});
