import { expect, test } from "./fixtures";

test("make an API token in Settings, use it from a script, revoke it", async ({
  page,
  origin,
  seededTask,
}) => {
  await page.goto("/settings?tab=api-tokens");
  await page.getByLabel("Name").fill("e2e script");
  await page.getByLabel("Access").selectOption("read");
  await page.getByRole("button", { name: "Make token" }).click();
  const made = page.getByTestId("token-made");
  await expect(made).toContainText('Copy "e2e script" now');
  const token = await made.getByLabel("New token").inputValue();
  expect(token).toMatch(/^atz_/);

  // The script: reads with the token, and is refused a change (the token is read-only).
  const tasks = await page.request.get(`${origin}/api/tasks`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(tasks.status()).toBe(200);
  expect((await tasks.json()).tasks.map((t: { id: string }) => t.id)).toContain(seededTask.id);
  const write = await page.request.post(`${origin}/api/tasks`, {
    headers: { authorization: `Bearer ${token}` },
    data: { description: "Not from a read token" },
  });
  expect(write.status()).toBe(403);

  // Listed with its last use; revoked, it stops working.
  await page.reload();
  const row = page.getByTestId("tokens").getByRole("listitem").filter({ hasText: "e2e script" });
  await expect(row).not.toContainText("last used never");
  await row.getByRole("button", { name: "Revoke" }).click();
  await page
    .getByRole("dialog", { name: "Revoke this token?" })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(page.getByText("Token revoked")).toBeVisible();
  const after = await page.request.get(`${origin}/api/tasks`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);
});
