import type { APIRequestContext, Page } from "@playwright/test";
import { expect, newEmail, signInAdmin, test, verifyAddress } from "./fixtures";

const CHECK_INBOX = "Check your inbox: we sent a link to confirm your subscription.";

/** The smallest valid PNG: one transparent pixel. */
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The confirmation link mailed to `address`, read from the outbox by the admin (signed in on `request`). */
async function confirmationLink(request: APIRequestContext, address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/admin/outbox?to=${encodeURIComponent(address)}`);
      const box = (await res.json()) as { messages: { subject: string; text: string }[] };
      const mail = box.messages.find((m) => m.subject === "Confirm your subscription to the Atomize blog");
      link = mail ? /Confirm your subscription: (\S+)/.exec(mail.text)?.[1] : undefined;
      return link;
    })
    .toBeTruthy();
  return link!;
}

type NewPost = { title: string; content: string; excerpt?: string; tags?: string[]; status?: string };

/** Creates a post through the admin REST API and returns its slug. */
async function createPost(request: APIRequestContext, origin: string, post: NewPost): Promise<string> {
  await signInAdmin(request, origin);
  const res = await request.post("/api/admin/blog/posts", {
    data: { status: "published", tags: [], ...post },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

const toast = (page: Page, text: string) =>
  page.getByRole("region", { name: "Notifications" }).getByText(text);

test("an admin writes a post with an uploaded image and tags, publishes it and finds it on the blog", async ({
  page,
  baseURL,
}) => {
  const origin = baseURL!;
  await page.goto("/");
  await signInAdmin(page.request, origin);
  await page.goto("/admin/blog");
  await expect(page.getByRole("heading", { name: "Blog Admin", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Subscriptions" })).toBeVisible();

  const word = unique("zephyr");
  const title = `Planning with atoms ${word}`;
  await page.getByRole("button", { name: "New Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Post" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Title").fill(title);
  await expect(dialog.getByLabel("Slug")).toHaveAttribute("placeholder", /auto-generated/i);
  await dialog.getByLabel("Excerpt").fill(`How ${word} breaks big work into small steps.`);
  await dialog.getByLabel("Content").fill(`<h2>Why</h2><p>Small tasks ship. ${word}</p>`);

  // A file of the wrong type is refused before it is sent.
  await dialog.locator('input[type="file"]').setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not an image"),
  });
  await expect(toast(page, "Please upload a valid image file (JPEG, PNG, GIF, or WebP)")).toBeVisible();

  await dialog.locator('input[type="file"]').setInputFiles({
    name: "cover.png",
    mimeType: "image/png",
    buffer: PNG_1X1,
  });
  await expect(toast(page, "Image uploaded successfully")).toBeVisible();
  await expect(dialog.getByLabel("Featured Image URL")).toHaveValue(/^\/uploads\/[0-9a-f]{32}\.png$/);
  await expect(dialog.getByRole("img", { name: "Cover preview" })).toBeVisible();

  const tags = dialog.getByLabel("Tags");
  await tags.fill("planning");
  await tags.press("Enter");
  await tags.fill("ai");
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await tags.fill("planning");
  await tags.press("Enter");
  await tags.fill("   ");
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  const chips = dialog.getByRole("list", { name: "Tag list" }).getByRole("listitem");
  await expect(chips).toHaveCount(2);
  await tags.fill("obsolete");
  await tags.press("Enter");
  await dialog.getByRole("button", { name: "Remove tag obsolete" }).click();
  await expect(chips).toHaveText(["planning×", "ai×"]);

  await dialog.getByLabel("Status").selectOption({ label: "Published" });
  await dialog.getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("published");
  await expect(row.getByRole("link", { name: `View ${title} (opens in a new tab)` })).toHaveAttribute(
    "target",
    "_blank",
  );

  // The blog lists it, and a search finds it (the query goes into the URL).
  await page.goto("/blog");
  await expect(page.getByRole("heading", { name: "Blog", level: 1 })).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: title })).toBeVisible();
  await page.getByLabel("Search posts").fill(word);
  await page.getByLabel("Search posts").press("Enter");
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));
  const cards = page.getByRole("article");
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  await expect(card.getByRole("heading", { name: title })).toBeVisible();
  await expect(card.getByText("By Ada Admin")).toBeVisible();
  await expect(card.getByRole("img", { name: title })).toHaveAttribute("loading", "lazy");
  await expect(card.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(["planning", "ai"]);

  // A search for nothing that exists shows the empty state.
  await page.getByLabel("Search posts").fill(unique("nomatch"));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: "No blog posts found" })).toBeVisible();
  await expect(page.getByText("Check back later for new content")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));

  await card.click();
  await expect(page).toHaveURL(/\/blog\/planning-with-atoms-/);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`${title} | Atomize Project Manager`);
  await expect(page.getByRole("img", { name: title })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Why" })).toBeVisible();
  await page.getByRole("button", { name: "Back to Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);

  // Deleting asks first.
  await page.goto("/admin/blog");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Post" });
  await expect(confirm).toContainText("Are you sure you want to delete this post?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Post deleted successfully")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
});

test("a visitor reads a post and subscribes with an e-mail address", async ({ page, request, baseURL }) => {
  const origin = baseURL!;
  const word = unique("quasar");
  const title = `Estimating with story points ${word}`;
  const slug = await createPost(request, origin, {
    title,
    content: `<p>Story points measure effort, not time. ${"More detail follows. ".repeat(12)}</p>`,
    tags: ["estimation", "agile", "scrum", "teams"],
  });

  await page.goto("/blog");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(page, "Please sign in to subscribe")).toBeVisible();

  await page.getByLabel("Search posts").fill(word);
  await page.getByRole("button", { name: "Search" }).click();
  const card = page.getByRole("article").filter({ hasText: title });
  // No excerpt: the card shows the start of the content, cut with an ellipsis; only 3 of 4 tags.
  await expect(card.getByText(/^Story points measure effort, not time\..*\.\.\.$/)).toBeVisible();
  await expect(card.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveCount(3);
  await card.getByRole("link", { name: title }).click();

  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  const article = page.getByRole("article");
  await expect(article.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(article.getByText("By Ada Admin")).toBeVisible();
  await expect(article.getByText(/^\d+ views?$/)).toBeVisible();
  await expect(article.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveCount(4);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}/blog/${slug}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    /^Story points measure effort, not time\./,
  );
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(page.getByText("Get notified of new blog posts")).toBeVisible();

  const prompt = page.getByRole("region", { name: "Enjoyed this article?" });
  await prompt.getByRole("button", { name: "Subscribe Now" }).click();
  const email = prompt.getByPlaceholder("Enter your email address");
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute("type", "email");
  await expect(email).toHaveAttribute("required", "");
  await prompt.getByRole("button", { name: "Cancel" }).click();
  await expect(email).toBeHidden();

  await prompt.getByRole("button", { name: "Subscribe Now" }).click();
  const address = newEmail("reader");
  await email.fill(address);
  await prompt.getByRole("button", { name: "Subscribe", exact: true }).click();
  // Double opt-in: the visitor is told to confirm through the mailed link, whatever the address's state.
  await expect(toast(page, CHECK_INBOX)).toBeVisible();
  await expect(page.getByText("Check your inbox to confirm your subscription").first()).toBeVisible();

  // The admin sees the new subscriber as pending until the link is followed.
  const statusOf = async () => {
    const subs = await request.get("/api/admin/blog/subscriptions");
    expect(subs.ok()).toBe(true);
    const list = (await subs.json()) as {
      subscriptions: { email: string; frequency: string; status: string }[];
    };
    return list.subscriptions.find((s) => s.email === address);
  };
  expect(await statusOf()).toMatchObject({ frequency: "weekly", status: "pending" });
  await page.goto(await confirmationLink(request, address));
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();
  await expect(page.getByText("You'll receive weekly updates.")).toBeVisible();
  expect(await statusOf()).toMatchObject({ status: "active" });
});

test("a signed-in reader confirms the subscription by e-mail, then unsubscribes after confirming", async ({
  page,
  request,
  baseURL,
  insertNewUser,
}) => {
  await page.goto("/blog");
  const { email } = await insertNewUser("Sam Subscriber");
  await page.reload();

  // The account's address is not verified yet: the subscription waits for the mailed link.
  await page.getByRole("button", { name: "Subscribe", exact: true }).click();
  await expect(toast(page, CHECK_INBOX)).toBeVisible();
  await expect(page.getByRole("button", { name: "Pending confirmation" })).toBeVisible();
  await signInAdmin(request, baseURL!);
  await page.goto(await confirmationLink(request, email));
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();

  await page.goto("/blog");
  const subscribed = page.getByRole("button", { name: "Subscribed" });
  await expect(subscribed).toBeVisible();

  await subscribed.click();
  const dialog = page.getByRole("dialog", { name: "Unsubscribe" });
  await expect(dialog).toContainText("Are you sure you want to unsubscribe from blog notifications?");
  await dialog.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(toast(page, "Successfully unsubscribed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Subscribe", exact: true })).toBeVisible();
});

test("a reader whose address is verified is subscribed at once", async ({ page, baseURL, insertNewUser }) => {
  await page.goto("/blog");
  await insertNewUser("Vera Verified");
  await verifyAddress(page.request, baseURL!);
  await page.reload();
  await page.getByRole("button", { name: "Subscribe", exact: true }).click();
  await expect(toast(page, "Successfully subscribed! You'll receive weekly updates.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Subscribed" })).toBeVisible();
});

test("a script in a post's content never runs", async ({ page, request, baseURL }) => {
  const origin = baseURL!;
  const word = unique("xss");
  const slug = await createPost(request, origin, {
    title: `Hostile markup ${word}`,
    content: [
      "<p>Safe text survives.</p>",
      '<img src=x onerror="window.__pwned=1">',
      "<script>window.__pwned=2</script>",
      '<a href="javascript:window.__pwned=3">a link</a>',
      '<p style="position:fixed" onclick="window.__pwned=4">styled</p>',
    ].join(""),
  });

  await page.goto(`/blog/${slug}`);
  const article = page.getByRole("article");
  await expect(article.getByText("Safe text survives.")).toBeVisible();
  await article.getByText("a link").click();
  await article.getByText("styled").click();
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => (window as Window & { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(
    article
      .getByTestId("post-content")
      .locator("script, [onerror], [onclick], [style], a[href^='javascript:' i]"),
  ).toHaveCount(0);
});

test("the browser sanitises post HTML again, even when the server sends it unsafe", async ({
  page,
  request,
  baseURL,
}) => {
  const origin = baseURL!;
  const word = unique("dompurify");
  const slug = await createPost(request, origin, {
    title: `Tampered ${word}`,
    content: "<p>Placeholder</p>",
  });
  const hostile = [
    "<p>Still readable.</p>",
    '<img src="/favicon.ico" onerror="window.__pwned=1" onload="window.__pwned=2" style="position:fixed">',
    '<a href="javascript:window.__pwned=3">bad link</a>',
    '<a href="https://example.com/">good link</a>',
    '<iframe srcdoc="<script>parent.__pwned=4</script>"></iframe>',
    '<form action="/x"><button formaction="javascript:window.__pwned=5">go</button></form>',
  ].join("");
  // Stands in for an older row or a server whose sanitiser let something through: the API's answer for the
  // post, which the page reads after it arrives (to count the view) and shows, is rewritten first.
  await page.route(`**/api/blog/posts/${slug}`, async (route) => {
    const response = await route.fetch();
    const post = (await response.json()) as { content?: string };
    await route.fulfill({ response, json: { ...post, content: hostile } });
  });

  await page.goto(`/blog/${slug}`);
  const article = page.getByRole("article");
  await expect(article.getByText("Still readable.")).toBeVisible();
  await expect(article.getByRole("link", { name: "good link" })).toHaveAttribute(
    "rel",
    "noopener noreferrer",
  );
  await article.getByText("bad link").click();
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => (window as Window & { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(
    article
      .getByTestId("post-content")
      .locator(
        "script, iframe, form, button, [onerror], [onload], [style], a[href^='javascript:' i], [formaction]",
      ),
  ).toHaveCount(0);
});

test("an unknown post shows 'Failed to fetch blog post' and returns to the blog", async ({ page }) => {
  await page.goto(`/blog/${unique("missing-")}`);
  await expect(toast(page, "Failed to fetch blog post")).toBeVisible();
  await expect(page).toHaveURL(/\/blog$/);
});
