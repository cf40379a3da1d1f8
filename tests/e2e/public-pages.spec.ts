import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// The e2e server runs with the default SUPPORT_EMAIL.
const SUPPORT_EMAIL = "support@atomize.local";

type MailWindow = Window & { __opened?: string[] };

/** Replaces window.open so the contact form's mailto: is recorded instead of handed to the OS. */
async function recordWindowOpen(page: Page, mode: "record" | "throw" = "record") {
  await page.evaluate((how) => {
    const w = window as MailWindow;
    w.__opened = [];
    window.open = (url?: string | URL) => {
      if (how === "throw") throw new Error("blocked");
      w.__opened?.push(String(url));
      return null;
    };
  }, mode);
}

const openedUrls = (page: Page) => page.evaluate(() => (window as MailWindow).__opened ?? []);

test("the landing page's calls to action lead to sign-in and About", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle("Plans from Plain Language | Atomize Project Manager");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("atomic, estimable tasks");
  await expect(page.getByRole("heading", { name: "How It Works" })).toBeVisible();

  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Get Started Free" })).toHaveAttribute("href", "/login");
  await expect(main.getByRole("link", { name: "Start Planning Now" })).toHaveAttribute("href", "/login");
  await expect(main.getByRole("link", { name: "Learn More" })).toHaveAttribute("href", "/about");

  await main.getByRole("link", { name: "Learn More" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await page.goBack();
  await main.getByRole("link", { name: "Get Started Free" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/landing");
  await main.getByRole("link", { name: "Start Planning Now" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("'See how it works' scrolls to the features section", async ({ page }) => {
  await page.goto("/");
  const features = page.locator("#features");
  await expect(features).not.toBeInViewport();
  await page.getByRole("link", { name: "See how it works" }).click();
  await expect(features).toBeInViewport();
  await expect(features.getByRole("heading", { name: "Live decomposition" })).toBeVisible();
  await expect(features).toBeFocused();
  await expect(page).toHaveURL(/\/$/);
});

test("the landing page carries Organization structured data from the server's public config", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  const readJsonLd = () =>
    page.evaluate(() => JSON.parse(document.getElementById("page-structured-data")?.textContent ?? "{}"));
  await expect
    .poll(async () => (await readJsonLd()).url)
    .toBe(new URL(baseURL ?? "http://127.0.0.1:8181").origin);
  const data = await readJsonLd();
  expect(data["@type"]).toBe("Organization");
  expect(data.name).toBe("Atomize");
  expect(data.logo).toMatch(/\.svg$/);
  expect(data.sameAs).toHaveLength(3);
  const logo = await page.request.get(data.logo);
  expect(logo.ok()).toBe(true);
});

test("signed-in users opening / go to the dashboard, while /landing still shows the landing page", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/landing");
  await expect(page.getByRole("link", { name: "Get Started Free" })).toBeVisible();
});

test("About's 'Join the Future' goes to sign-in", async ({ page }) => {
  await page.goto("/about");
  await expect(page).toHaveTitle("About | Atomize Project Manager");
  await expect(page.getByRole("heading", { name: "Our Mission" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Our Philosophy" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Coming Next" })).toBeVisible();
  await page.getByRole("link", { name: "Join the Future" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("the contact form validates, then opens a prefilled e-mail and clears itself", async ({ page }) => {
  await page.goto("/contact");
  await expect(page).toHaveTitle("Contact | Atomize Project Manager");
  await expect(page.getByRole("main").getByRole("link", { name: SUPPORT_EMAIL })).toHaveAttribute(
    "href",
    `mailto:${SUPPORT_EMAIL}`,
  );
  await recordWindowOpen(page);

  const send = page.getByRole("button", { name: "Send Message" });
  await send.click();
  await expect(page.getByText("Please enter your name")).toBeVisible();
  await expect(page.getByText("Please enter your email address")).toBeVisible();
  await expect(page.getByText("Please enter a message")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await expect(page.getByText("Please enter your name")).toBeHidden();
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Message", { exact: true }).fill("Hello & welcome?\nSecond line");
  await send.click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  expect(await openedUrls(page)).toEqual([]);

  await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
  await send.click();
  await expect(page.getByText("Email client opened with your message!")).toBeVisible();

  const [href] = await openedUrls(page);
  expect(href).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=Contact%20Form%20Submission&body=`));
  const body = new URL(href ?? "").searchParams.get("body") ?? "";
  expect(body).toContain("Ada Lovelace");
  expect(body).toContain("ada@example.com");
  expect(body).toContain("Hello & welcome?");
  expect(href).toContain(encodeURIComponent("Hello & welcome?"));

  for (const label of ["Name", "Email", "Subject", "Message"]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
  }
  await expect(page.getByRole("link", { name: "open the prefilled email" })).toHaveAttribute(
    "href",
    href ?? "",
  );

  // A subject of the visitor's own replaces the default.
  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
  await page.getByLabel("Subject", { exact: true }).fill("Export question");
  await page.getByLabel("Message", { exact: true }).fill("How do I export to Trello?");
  await send.click();
  const opened = await openedUrls(page);
  expect(opened[1]).toContain("subject=Export%20question&");
});

test("a visitor's page loads only its small entry before it has loaded, and what the reader did before React started still counts", async ({
  page,
}) => {
  // React's side of the page is held back, as on a slow network.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/contact", { waitUntil: "commit" });
  await page.waitForLoadState("load");
  const beforeLoad = await page.evaluate(() => {
    const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    return performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.endsWith(".js") && e.startTime < nav!.loadEventStart)
      .map((e) => new URL(e.name).pathname);
  });
  expect(beforeLoad).toEqual([expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/)]);
  await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);

  // The reader fills the form and sends it before React listens.
  await recordWindowOpen(page);
  await page.getByLabel("Name", { exact: true }).fill("Early Bird");
  await page.getByLabel("Email", { exact: true }).fill("early@example.com");
  await page.getByLabel("Message", { exact: true }).fill("Typed before the scripts ran");
  await page.getByRole("button", { name: "Send Message" }).click();
  expect(page.url()).toMatch(/\/contact$/); // no native submission reloaded the page
  await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);

  release();
  await expect(page.locator("#root[data-hydrated]")).toBeAttached();
  // The press was held and done once React listened, with what was typed.
  await expect(page.getByText("Email client opened with your message!")).toBeVisible();
  const [href] = await openedUrls(page);
  const body = new URL(href ?? "").searchParams.get("body") ?? "";
  expect(body).toContain("Early Bird");
  expect(body).toContain("early@example.com");
  expect(body).toContain("Typed before the scripts ran");
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
});

test("the contact form reports when the e-mail client cannot be opened", async ({ page }) => {
  await page.goto("/contact");
  await recordWindowOpen(page, "throw");
  await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
  await page.getByLabel("Email", { exact: true }).fill("grace@example.com");
  await page.getByLabel("Message", { exact: true }).fill("Testing the fallback");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(
    page.getByText(`Unable to open email client. Please email us directly at ${SUPPORT_EMAIL}`),
  ).toBeVisible();
  // The message is kept so the visitor can copy it.
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Testing the fallback");
});

for (const { name, path, from } of [
  { name: "Privacy Policy", path: "/privacy", from: "/about" },
  { name: "Terms of Service", path: "/terms", from: "/contact" },
]) {
  test(`${name} shows its date and 'Go Back' returns to the previous page`, async ({ page }) => {
    await page.goto(from);
    await page.getByRole("contentinfo").getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page).toHaveTitle(`${name} | Atomize Project Manager`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("Last updated August 3, 2025")).toBeVisible();
    await page.getByRole("button", { name: "Go Back" }).click();
    await expect(page).toHaveURL(new RegExp(`${from}$`));
  });
}

test("'Go Back' on a legal page opened directly goes to the home page", async ({ page }) => {
  await page.goto("/terms");
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Get Started Free" })).toBeVisible();
});

test("the footer's support link uses the configured e-mail address", async ({ page }) => {
  await page.goto("/about");
  const footer = page.getByRole("contentinfo");
  const support = footer.getByRole("link", { name: SUPPORT_EMAIL });
  await expect(support).toHaveAttribute("href", `mailto:${SUPPORT_EMAIL}`);
  await expect(footer.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
  await expect(footer.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/login");
  await expect(
    footer.getByText("AI-powered task decomposition that breaks complex projects into actionable work items"),
  ).toBeVisible();
  await expect(footer.getByRole("link", { name: /^GitHub/ })).toHaveAttribute("target", "_blank");
});
