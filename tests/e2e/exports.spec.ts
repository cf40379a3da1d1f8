import { expect, expectAccessibleInBothThemes, openTrelloExport, test } from "./fixtures";

test("enable Trello in Settings, export a task, and watch the progress dialog to the result", async ({
  page,
  seededTask,
}) => {
  const { id } = seededTask;

  // Before setup the Trello export is offered but disabled, with the way to enable it.
  await page.goto(`/tasks/${id}`);
  await expect(
    page.getByTestId("decomposition-progress").getByText("Complete", { exact: true }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Export" }).click();
  const menu = page.getByRole("menu", { name: "Export" });
  const trelloItem = menu.getByRole("menuitem", { name: "Export to Trello" });
  await expect(trelloItem).toHaveAttribute("aria-disabled", "true");
  await expect(trelloItem).toHaveAttribute("title", "Enable Trello in Settings to export");
  const download = page.waitForEvent("download");
  await menu.getByRole("menuitem", { name: "Export as JSON" }).click();
  expect((await download).suggestedFilename()).toBe("A recipe sharing site with sea-task-tree.json");

  await page.goto("/settings");
  await page.getByRole("tab", { name: "Integrations" }).click();
  await page.getByRole("switch", { name: "Enable Trello integration" }).click();
  // On, with no credentials yet: not "Connected" (issue 40).
  const trelloState = page.getByTestId("trello-card-state");
  await expect(trelloState).toHaveText("Needs credentials");
  await page.getByLabel("API Key").fill("e2e-trello-key");
  await page.getByLabel("Token", { exact: true }).fill("e2e-trello-token");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
  await expect(trelloState).toHaveText("Connected");

  const dialog = await openTrelloExport(page, id);
  await expect(dialog.getByLabel("Board name")).toHaveValue(/^Atomize A recipe sharing site/);
  // trelloExportConfig's message, before anything is sent.
  await dialog.getByLabel("Board name").fill("  ");
  await dialog.getByRole("button", { name: "Export to Trello" }).click();
  await expect(dialog.getByText("Board name is required")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Trello export dialog with an error");
  await dialog.getByLabel("Board name").fill("Recipes plan");
  await dialog.getByRole("button", { name: "Export to Trello" }).click();

  const progress = page.getByRole("dialog", { name: /Exporting to Trello|Export Complete/ });
  await expect(progress).toBeVisible();
  await expect(page.getByText(/^Successfully created Trello board with \d+ cards$/)).toBeVisible({
    timeout: 60_000,
  });
  const link = page.getByRole("link", { name: "Open board in Trello" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("href", /^https:\/\/trello\.com\/b\//);
  await expectAccessibleInBothThemes(page, "the export's progress dialog, complete");
});
