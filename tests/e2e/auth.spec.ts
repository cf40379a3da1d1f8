import { expect, newEmail, PASSWORD, test, verificationPath, verifyAddress } from "./fixtures";

test("a visitor registers, lands on the dashboard, survives a reload, logs out and logs back in", async ({
  page,
}) => {
  const email = newEmail("journey");
  await page.goto("/register");
  await expect(page).toHaveTitle("Create Account | Atomize Project Manager");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Full Name").fill("Jules Journey");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(`${PASSWORD}x`);
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeDisabled();
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await expect(page.getByText("Passwords match")).toBeVisible();
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Registration successful!")).toBeVisible();
  const header = page.getByRole("banner");
  await expect(header.getByText("Jules Journey")).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(header.getByText("Jules Journey")).toBeVisible();

  await header.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Login successful")).toBeVisible();
});

test("a wrong password shows the login failure and keeps the visitor on /login", async ({
  page,
  insertNewUser,
}) => {
  const user = await insertNewUser();
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Incorrect email or password").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("registering an e-mail twice shows the 'already registered' message", async ({
  page,
  insertNewUser,
}) => {
  const user = await insertNewUser();
  await page.context().clearCookies();
  await page.goto("/register");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(
    page.getByText("This email is already registered. Please use a different email or sign in instead."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("the registration form refuses a common password with a clear message", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email").fill(newEmail("common"));
  await page.getByLabel("Password", { exact: true }).fill("Password123");
  await page.getByLabel("Confirm Password").fill("Password123");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("This password is too common. Please choose another.")).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("the sign-in forms check their fields in the browser, with the server's messages, before sending", async ({
  page,
}) => {
  const sent: string[] = [];
  page.on("request", (r) => {
    if (/auth\.(register|login)/.test(r.url())) sent.push(r.url());
  });
  await page.goto("/register");
  await page.getByLabel("Email").fill("ada@example");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm Password").fill("short");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

  await page.goto("/login");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-describedby", "login-password-error");
  expect(sent).toEqual([]);
});

test("a new account sees its address unverified in Settings, asks for the link again and follows it", async ({
  page,
  insertNewUser,
}) => {
  await insertNewUser("Vera Verify");
  await page.goto("/settings?tab=account");
  const notice = page.getByTestId("email-verification");
  await expect(notice).toContainText("E-mail not verified");
  await notice.getByRole("button", { name: "Resend verification e-mail" }).click();
  await expect(page.getByText("We sent you a new verification link. Please check your inbox.")).toBeVisible();

  const me = (await (await page.request.get("/api/auth/me")).json()) as { id: string; email: string };
  await page.goto(verificationPath(me));
  await expect(page.getByText("Your e-mail address is verified.")).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/settings?tab=account");
  await expect(page.getByTestId("email-verification")).toHaveText("E-mail verified");
});

test("a broken verification link says so and offers the way onward", async ({ page }) => {
  await page.goto("/verify-email?token=not-a-real-token");
  await expect(
    page.getByText("This verification link is invalid. Please request a new one from Settings → Account."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Sign In" }).last().click();
  await expect(page).toHaveURL(/\/login$/);
});

test("an address listed in ADMIN_EMAILS gets the admin pages only once it is verified", async ({
  page,
  origin,
}) => {
  // playwright.config.ts lists this address for this test alone (blog.spec.ts has an admin of its own).
  const admin = { email: "e2e.first-admin@example.com", password: PASSWORD, full_name: "Ada Admin" };
  const res = await page.request.post("/api/auth/register", { data: admin, headers: { origin } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto("/admin/blog");
  await expect(page).toHaveURL(/\/dashboard$/);
  await verifyAddress(page.request, origin);
  await page.goto("/admin/blog");
  await expect(page).toHaveURL(/\/admin\/blog$/);
});

test("a protected route sends a signed-out visitor to /login and back after signing in", async ({
  page,
  insertNewUser,
}) => {
  const user = await insertNewUser();
  await page.context().clearCookies();
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test("an unknown path shows the 404 page", async ({ page }) => {
  await page.goto("/this/does/not/exist");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(
    page.getByText(
      "The page you are looking for might have been removed, had its name changed, or is temporarily unavailable.",
    ),
  ).toBeVisible();
  await page.getByRole("link", { name: "Return to Dashboard" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("Continue with Google signs in through the OpenID provider and lands on the dashboard", async ({
  page,
}) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("banner").getByText("Grace Google")).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the navigation collapses into a menu that opens and closes", async ({ page }) => {
    await page.goto("/about");
    const toggle = page.getByRole("button", { name: "Toggle navigation" });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const about = page.getByRole("banner").getByRole("link", { name: "Contact" });
    await expect(about).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(about).toBeVisible();
    await about.click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
  });
});
