import type { APIRequestContext, Page } from "@playwright/test";
import {
  expect,
  expectAccessibleInBothThemes,
  expectNoSeriousA11yViolations,
  signInAdmin,
  test,
  verificationPath,
} from "./fixtures";

/**
 * axe-core on every page, tab, dialog and menu of the app, in the dark theme and the light one: no
 * serious or critical WCAG 2.1 AA violation (expectAccessibleInBothThemes, tests/e2e/fixtures.ts). The
 * journeys in the other files check the states only they reach (the Trello and JIRA export dialogs and an
 * export's progress, a re-plan's proposal, the plan review of a task that waits for approval).
 */

// Independent tests: the two workers may share them out.
test.describe.configure({ mode: "parallel" });

/** A published post, made through the admin API on a context of its own (the page stays signed out). */
async function publishedPost(request: APIRequestContext, origin: string): Promise<string> {
  await signInAdmin(request, origin);
  const res = await request.post("/api/admin/blog/posts", {
    data: {
      title: `Accessible plans ${Date.now().toString(36)}`,
      content: "<p>Every plan reads well.</p><h2>In both themes</h2><p>With <a href='/about'>a link</a>.</p>",
      excerpt: "Plans everyone can read",
      tags: ["accessibility"],
      status: "published",
    },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { name, level });

/** Opens each path, waits for its main heading and checks it. */
async function checkPages(page: Page, pages: [string, string | RegExp][]) {
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(heading(page, title)).toBeVisible();
    // What the page loads after its heading (the sign-in providers enable the Google button) settles first.
    await page.waitForLoadState("networkidle");
    await expectAccessibleInBothThemes(page, path);
  }
}

test("the check itself fails on a page with serious violations, naming the rule and the element", async ({
  page,
}) => {
  // A button without a name (critical) and grey text on grey (serious, a colour rule).
  await page.setContent(
    '<main><h1>Check</h1><button id="nameless"></button><p id="faint" style="color:#777;background:#888">Faint text</p></main>',
  );
  const all = await expectNoSeriousA11yViolations(page, "a broken page").catch((e: Error) => e.message);
  expect(all).toMatch(/button-name \(critical, 1 elements\)[\s\S]*#nameless/);
  expect(all).toMatch(/color-contrast \(serious, 1 elements\)[\s\S]*#faint/);
  const colours = await expectNoSeriousA11yViolations(page, "its colours", ["color-contrast"]).catch(
    (e: Error) => e.message,
  );
  expect(colours).toMatch(/color-contrast/);
  expect(colours).not.toMatch(/button-name/);
});

test("the landing page, About and Contact (with the form's errors)", async ({ page }) => {
  await checkPages(page, [
    ["/", /atomic, estimable tasks/],
    ["/about", /About/],
    ["/contact", /Contact/],
  ]);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Please enter your name")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the contact form's errors");
});

test("Privacy, Terms, the blog and a post", async ({ page, request, origin }) => {
  const slug = await publishedPost(request, origin);
  await checkPages(page, [
    ["/privacy", "Privacy Policy"],
    ["/terms", /Terms/],
    ["/blog", "Blog"],
    [`/blog/${slug}`, /Accessible plans/],
  ]);
});

test("sign-in, registration, a broken verification link and the 404 page", async ({ page }) => {
  await checkPages(page, [
    ["/login", /.+/],
    ["/register", /.+/],
    ["/verify-email?token=broken", /.+/],
    ["/this/does/not/exist", "404 Page Not Found"],
  ]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the mobile menu, signed out and signed in", async ({ page, insertNewUser }) => {
    await page.goto("/about");
    await page.getByRole("button", { name: "Toggle navigation" }).click();
    await expect(page.locator("#mobile-navigation")).toBeVisible();
    await expectAccessibleInBothThemes(page, "the mobile menu (signed out)");

    await insertNewUser("Mo Bile");
    await page.goto("/dashboard");
    await expect(heading(page, "Dashboard")).toBeVisible();
    await expectAccessibleInBothThemes(page, "the dashboard on a phone");
    await page.getByRole("button", { name: "Toggle navigation" }).click();
    await expect(page.locator("#mobile-navigation").getByRole("button", { name: "Logout" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "the mobile menu (signed in)");
  });
});

test("the empty dashboard, and create task with and without errors", async ({ page, signedIn: _ }) => {
  await page.goto("/dashboard");
  await expect(page.getByRole("button", { name: "Create Your First Task" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the empty dashboard");

  await page.goto("/tasks/create");
  await expect(page.getByLabel("Task Description")).toBeFocused();
  await expectAccessibleInBothThemes(page, "create task");
  await page.getByLabel("Task Description").fill("A recipe sharing site");
  await page.getByLabel("GitHub Repository URL").fill("https://gitlab.com/acme/recipes");
  await page.getByRole("button", { name: "Create Task" }).click();
  await expect(
    page.getByText("Enter a GitHub repository URL like https://github.com/owner/repo"),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page, "create task with errors");
});

test("the dashboard with a task, and its delete dialog", async ({ page, seededTask }) => {
  await page.goto("/dashboard");
  const card = page.getByRole("article", { name: new RegExp(seededTask.description.slice(0, 20)) });
  await expect(card).toBeVisible();
  await expectAccessibleInBothThemes(page, "the dashboard with a task");
  await card.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the dashboard's delete dialog");
});

/** Selects each settings tab in turn and checks its panel. */
async function checkSettingsTabs(page: Page, names: string[]) {
  await page.goto("/settings");
  for (const tab of names) {
    await page.getByRole("tab", { name: tab, exact: true }).click();
    await expect(page.getByRole("tabpanel", { name: tab, exact: true })).toBeVisible();
    await expectAccessibleInBothThemes(page, `settings, ${tab}`);
  }
}

test("settings: General, Integrations and Connect GitHub", async ({ page, signedIn: _ }) => {
  await checkSettingsTabs(page, ["General", "Integrations"]);
  await page.getByRole("button", { name: /Connect GitHub/ }).click();
  await expect(page.getByRole("dialog", { name: "Connect GitHub" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Connect GitHub dialog");
});

test("settings: AI model, API tokens, Account and the sign-out dialog", async ({ page, signedIn: _ }) => {
  await checkSettingsTabs(page, ["AI model", "API tokens", "Account"]);
  await page.getByRole("tabpanel", { name: "Account" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("dialog", { name: "Sign Out" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the sign-out dialog");
});

async function openTask(page: Page, id: string) {
  await page.goto(`/tasks/${id}`);
  await expect(
    page.getByTestId("decomposition-progress").getByText("Complete", { exact: true }),
  ).toBeVisible();
}

test("a task's overview, and its tree with a node's details", async ({ page, seededTask }) => {
  await openTask(page, seededTask.id);
  await expectAccessibleInBothThemes(page, "task overview");
  await page
    .getByRole("tablist", { name: "Task sections" })
    .getByRole("tab", { name: /Subtasks/ })
    .click();
  await page.getByRole("tree", { name: "Task hierarchy" }).getByRole("treeitem").nth(1).click();
  await expect(page.getByRole("button", { name: "Close details" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Subtasks tab with a node's details");
});

test("the Subtasks tab's Add Task and Re-plan dialogs", async ({ page, seededTask }) => {
  await page.goto(`/tasks/${seededTask.id}?tab=subtasks`);
  await page.getByRole("button", { name: "Add Task to Tree" }).click();
  await expect(page.getByRole("dialog", { name: "Add Task to Tree" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Add Task dialog");
  await page.keyboard.press("Escape");

  await page
    .getByRole("button", { name: /^Re-plan/ })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: /^Re-plan/ })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Re-plan dialog");
});

test("a task's Plan, History, User Stories and Event Model tabs", async ({ page, seededTask }) => {
  await openTask(page, seededTask.id);
  const tabs = page.getByRole("tablist", { name: "Task sections" });
  for (const name of ["Plan", "History", "User Stories", "Event Model"]) {
    await tabs.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
    await expect(page.getByRole("tabpanel")).toBeVisible();
    await expect(page.getByRole("tabpanel").locator(".loading")).toHaveCount(0);
    await expectAccessibleInBothThemes(page, `the ${name} tab`);
  }
});

test("a task's Edit and Delete dialogs and the Export menu", async ({ page, seededTask }) => {
  await openTask(page, seededTask.id);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Edit Task" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Edit Task dialog");
  await page.keyboard.press("Escape");

  await page.locator("section[aria-labelledby=task-title]").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Delete Task dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Export" }).click();
  await expect(page.getByRole("menu", { name: "Export" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the Export menu");
});

test("blog admin: both tabs, the editor and the delete confirmation", async ({ page, origin }) => {
  await publishedPost(page.request, origin);
  await page.goto("/admin/blog");
  await expect(heading(page, "Blog Admin")).toBeVisible();
  await expect(page.getByRole("table")).toBeVisible();
  await expectAccessibleInBothThemes(page, "blog admin, posts");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(page.getByRole("tab", { name: "Subscriptions" })).toHaveAttribute("aria-selected", "true");
  await expectAccessibleInBothThemes(page, "blog admin, subscriptions");
  await page.getByRole("tab", { name: "Blog Posts" }).click();
  await page.getByRole("button", { name: "New Post" }).click();
  await expect(page.getByRole("dialog", { name: "Create New Post" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "the post editor");
  await page.keyboard.press("Escape");
  await page
    .getByRole("table")
    .getByRole("button", { name: /Delete/ })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the delete-post confirmation");
});

test("a verification link that works, and the signed-in blog", async ({ page, insertNewUser }) => {
  await insertNewUser();
  const me = (await (await page.request.get("/api/auth/me")).json()) as { id: string; email: string };
  await page.goto(verificationPath(me));
  await expect(heading(page, /.+/)).toBeVisible();
  await expectAccessibleInBothThemes(page, "verify e-mail");
  await page.goto("/blog");
  await expect(heading(page, "Blog")).toBeVisible();
  await expectAccessibleInBothThemes(page, "the blog, signed in");
});
