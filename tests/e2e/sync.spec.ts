import { type FakeJira, startFakeJira } from "../fakes/jira";
import { expect, expectAccessibleInBothThemes, test } from "./fixtures";

const ACCOUNT = "5b10ac8d82e05b22cc7d4ef5";
let jira: FakeJira;

test.beforeAll(async () => {
  // JIRA runs in the test's own process, so the test can move an issue the way a person would there.
  jira = await startFakeJira({ port: Number(process.env.E2E_JIRA_PORT) });
  jira.addUser({ email: "lead@example.com", apiToken: "atl-e2e-token", accountId: ACCOUNT });
});
test.afterAll(async () => {
  await jira?.close();
});

test("export to JIRA, move an issue to Done there, and see its task done here, live", async ({
  page,
  origin,
  seededTask,
}) => {
  const { id } = seededTask;
  const saved = await page.request.post(`${origin}/api/jira/credentials`, {
    headers: { origin },
    data: {
      jira_url: jira.url,
      user_email: "lead@example.com",
      api_token: "atl-e2e-token",
      account_id: ACCOUNT,
    },
  });
  expect(saved.status()).toBe(200);

  // Settings: a JIRA webhook, its secret shown once.
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Integrations" }).click();
  await page.getByRole("button", { name: "Make a JIRA webhook" }).click();
  const made = page.getByTestId("webhook-made");
  await expect(made).toContainText("copy the secret now");
  const url = await made.getByLabel("URL").inputValue();
  const secret = await made.getByLabel("Secret").inputValue();
  expect(url).toMatch(/\/api\/hooks\/jira\/[0-9a-f-]{36}$/);
  jira.addWebhook({ url, secret });

  // The export, from the task's Export menu, into a new project.
  await page.goto(`/tasks/${id}`);
  await page.getByRole("button", { name: "Export" }).click();
  await page.getByRole("menu", { name: "Export" }).getByRole("menuitem", { name: "Export to JIRA" }).click();
  const dialog = page.getByRole("dialog", { name: "Configure JIRA Export" });
  await dialog.getByLabel("Project Key").fill("SYNC");
  await dialog.getByRole("button", { name: "Export to JIRA" }).click();
  await expect(page.getByTestId("export-result")).toContainText("Created", { timeout: 20_000 });
  await page.keyboard.press("Escape");

  // The tree links each task to its issue.
  await page.goto(`/tasks/${id}?tab=subtasks`);
  const tree = page.getByRole("tree", { name: "Task hierarchy" });
  const leaf = tree.getByRole("treeitem", { name: /^Clarify who the users are/ });
  await leaf.click();
  const links = page.getByTestId("remote-links");
  await expect(links.getByRole("link", { name: /^SYNC-\d+/ })).toHaveAttribute(
    "href",
    new RegExp(`^${jira.url}/browse/SYNC-\\d+$`),
  );
  const key = (await links.getByRole("link").first().textContent())!.match(/SYNC-\d+/)![0];
  await expect(leaf).not.toContainText("Completed");

  // Someone moves the issue to Done in JIRA: the webhook arrives, and the task is done here without a reload.
  expect((await jira.setIssueStatus(key, "Done")).map((d) => d.status)).toEqual([200]);
  await expect(leaf).toContainText("Completed");
  await expect(links).toContainText("Done");

  // Exporting to the same project again: the dialog says it updates what is there rather than copy it.
  await page.getByRole("button", { name: "Export" }).click();
  await page.getByRole("menu", { name: "Export" }).getByRole("menuitem", { name: "Export to JIRA" }).click();
  const again = page.getByRole("dialog", { name: "Configure JIRA Export" });
  await again.getByLabel("Project Key").fill("SYNC");
  await expect(again.getByTestId("export-preview")).toContainText(
    "This plan was exported here before: 9 items will be updated, 0 created",
  );
  await expectAccessibleInBothThemes(page, "the JIRA export dialog");
});
