import { expect, test } from "./fixtures";

// tests/fakes/run-openai.ts, started by playwright.config.ts next to the app (which has no model of its own).
const FAKE_OPENAI_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 4}/v1`;
const FAKE_OPENAI_KEY = "sk-e2e-fake-model-0123456789abcd";

test("connect a model in Settings → AI model, test it, save it, and get a task planned by it", async ({
  page,
  insertNewUser,
}) => {
  await insertNewUser("Mona Model");

  // Before: the Create Task page says the plan will be an outline, and links to the AI model tab.
  await page.goto("/tasks/create");
  const choice = page.getByTestId("planner-choice");
  await expect(choice).toContainText("Outline from your description (no AI model connected)");
  await choice.getByRole("link", { name: "Connect a model" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=ai-model$/);
  await expect(page.getByRole("tab", { name: "AI model" })).toHaveAttribute("aria-selected", "true");

  const mine = page.getByRole("region", { name: "Your model" });
  await expect(mine.getByText("Not set")).toBeVisible();
  // Not an admin: no instance section; the tab saves on its own, so the page-wide button is hidden.
  await expect(page.getByRole("region", { name: "Instance model" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save Settings" })).toBeHidden();

  await mine.getByLabel("Base URL").fill(FAKE_OPENAI_URL);
  await mine.getByLabel("Model", { exact: true }).fill("e2e-fake-model");

  // A wrong key: the provider's own refusal is shown.
  await mine.getByLabel("API key").fill("sk-not-the-right-key-1234");
  await mine.getByRole("button", { name: "Test connection" }).click();
  const result = mine.getByTestId("connection-test-result");
  await expect(result).toContainText("The connection failed");
  await expect(result).toContainText("HTTP 401: Incorrect API key provided");

  await mine.getByLabel("API key").fill(FAKE_OPENAI_KEY);
  await mine.getByRole("button", { name: "Test connection" }).click();
  await expect(result).toContainText("The model answered");
  await expect(result).toContainText("Fake answer to:");

  await mine.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your model saved")).toBeVisible();
  await expect(mine.getByText("Saved", { exact: true })).toBeVisible();
  // The key field is empty again; only its last four characters are ever shown.
  await expect(mine.getByLabel("API key")).toHaveValue("");
  await expect(mine.getByTestId("mine-model-key-status")).toHaveText(
    "A key is saved (••••abcd). Leave the field empty to keep it; it is only sent to the base URL it was saved with.",
  );
  await expect(page.getByTestId("planner-for-me")).toHaveText("Planned by e2e-fake-model (your settings)");
  expect(await page.content()).not.toContain(FAKE_OPENAI_KEY);

  // After a reload the saved model is still there.
  await page.reload();
  await expect(
    page.getByRole("region", { name: "Your model" }).getByLabel("Model", { exact: true }),
  ).toHaveValue("e2e-fake-model");

  // Create a task: it says, and then shows, that the model plans it.
  await page.goto("/tasks/create");
  await expect(page.getByTestId("planner-choice")).toHaveText("Planned by e2e-fake-model (your settings)");
  await page.getByLabel("Task Description").fill("A booking site for a climbing gym with memberships");
  await page.getByRole("button", { name: "Plan without checking" }).click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("decomposition-progress").getByText("Complete", { exact: true })).toBeVisible(
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId("planned-by")).toHaveText(
    "Planned by e2e-fake-model via an OpenAI-compatible API",
  );
  await expect(page.getByTestId("planner-usage")).toContainText("model calls");
  await expect(page.getByRole("link", { name: "Connect a model" })).toHaveCount(0);
});
