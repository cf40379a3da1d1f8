import { expect, test } from "./fixtures";

test("a toast shows above an open dialog and can be closed there; one shown before a dialog opens stays usable", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/settings?tab=integrations");
  await page.getByRole("button", { name: "Connect GitHub" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect GitHub" });
  await dialog.getByLabel("GitHub access token").fill("ghp_not-a-real-token");
  await dialog.getByRole("button", { name: "Connect" }).click();

  // The failure is a toast (errors stay until closed) while the dialog stays open with the message.
  const toasts = page.getByRole("region", { name: "Notifications" });
  const toast = toasts.getByRole("alert");
  await expect(toast).toBeVisible();
  await expect(dialog).toBeVisible();
  // Playwright clicks only what would receive the click: a toast under the dialog, or inert behind it, fails here.
  await toast.getByRole("button", { name: "Close notification" }).click();
  await expect(toasts).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("GitHub access token")).toHaveValue("ghp_not-a-real-token");

  // The keyboard reaches it too: it is inside the dialog's focus trap.
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(toast).toBeVisible();
  const closeButton = toast.getByRole("button", { name: "Close notification" });
  for (let i = 0; i < 10 && !(await closeButton.evaluate((b) => b === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(closeButton).toBeFocused();

  // Closing the dialog leaves the toast on the page; opening another dialog brings it along, on top.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast).toBeVisible();
  await page.getByRole("button", { name: "Connect GitHub" }).click();
  await expect(dialog).toBeVisible();
  await expect(toast).toBeVisible();
  await toast.getByRole("button", { name: "Close notification" }).click();
  await expect(toasts).toHaveCount(0);
  await expect(dialog).toBeVisible();
});
