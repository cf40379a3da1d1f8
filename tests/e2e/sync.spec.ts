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
  // Registering needs JIRA admin rights, and a JQL filter keeps the rest of the site's traffic out.
  await expect(made).toContainText("as a JIRA administrator");
  await expect(made).toContainText("labels = atomize");
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
  await expect(page.getByTestId("export-result")).toContainText("Created", { timeout: 60_000 });
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

type Linked = {
  id: string;
  description: string;
  children: Linked[];
  remote_links: { kind: string; key: string }[];
};
const leavesOf = (n: Linked): Linked[] => (n.children.length ? n.children.flatMap(leavesOf) : [n]);

test("edits made in JIRA and on GitHub come back for review: take one, keep ours for one, resolve a conflict", async ({
  page,
  origin,
  seededTask,
}) => {
  const { id } = seededTask;
  const headers = { origin };
  // Both connections, and the plan exported to a JIRA project and a GitHub repository.
  const jiraSaved = await page.request.post(`${origin}/api/jira/credentials`, {
    headers,
    data: {
      jira_url: jira.url,
      user_email: "lead@example.com",
      api_token: "atl-e2e-token",
      account_id: ACCOUNT,
    },
  });
  expect(jiraSaved.status()).toBe(200);
  const githubSaved = await page.request.post(`${origin}/api/github/connect`, {
    headers,
    data: { access_token: "ghp_e2e_tracker" },
  });
  expect(githubSaved.status()).toBe(200);
  const exportTo = async (kind: "jira" | "github", config: Record<string, string>) => {
    const started = await page.request.post(`${origin}/api/${kind}/start-export`, {
      headers,
      data: { task_id: id, config },
    });
    expect(started.status(), await started.text()).toBe(202);
    const exportId = ((await started.json()) as { export_id: string }).export_id;
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/exports/${exportId}`)).json()) as { status: string }).status,
        {
          timeout: 60_000,
        },
      )
      .toBe("completed");
  };
  await exportTo("jira", { project_name: "Tracker review", project_key: "TRK" });
  await exportTo("github", { repository: "e2e-tracker/plan" });
  const tree = (await (await page.request.get(`/api/tasks/${id}/tree`)).json()) as Linked;
  const [first, second, third] = leavesOf(tree);
  const link = (n: Linked, kind: string) => n.remote_links.find((l) => l.kind === kind)!.key;

  // People edit titles there: one in JIRA, two on GitHub; one of those tasks was edited here too.
  await jira.editIssue(link(first!, "jira"), { summary: "Sign in with a magic link" });
  const githubUrl = `http://127.0.0.1:${Number(new URL(origin).port) + 2}`;
  const editOnGitHub = async (n: Linked, title: string) => {
    const res = await fetch(`${githubUrl}/repos/e2e-tracker/plan/issues/${link(n, "github").slice(1)}`, {
      method: "PATCH",
      headers: {
        authorization: "Bearer ghp_e2e_tracker",
        accept: "application/vnd.github+json",
        "content-type": "application/json",
        "user-agent": "a-person",
      },
      body: JSON.stringify({ title }),
    });
    expect(res.status).toBe(200);
  };
  await editOnGitHub(second!, "Their wording on GitHub");
  await editOnGitHub(third!, "GitHub's title for it");
  const ours = await page.request.patch(`${origin}/api/tasks/${third!.id}`, {
    headers,
    data: { description: "Atomize's title for it" },
  });
  expect(ours.status()).toBe(200);

  // Sync now brings them in: the Plan tab lists each with theirs and ours.
  await page.goto(`/tasks/${id}?tab=subtasks`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByText(/Synced/).first()).toBeVisible();
  await page.getByRole("tablist", { name: "Task sections" }).getByRole("tab", { name: "Plan" }).click();
  const review = page.getByRole("region", { name: "Changes made in your trackers" });
  await expect(review).toContainText("3 changes to review, 1 in conflict with edits here");
  const rows = review.getByTestId("tracker-change");
  await expect(rows).toHaveCount(3);
  await expectAccessibleInBothThemes(page, "the review of tracker changes");

  // Take JIRA's title.
  const fromJira = rows.filter({ hasText: "Sign in with a magic link" });
  await expect(fromJira).toContainText(/JIRA TRK-\d+/);
  await fromJira.getByRole("button", { name: "Use theirs" }).click();
  await expect(page.getByText("Change taken into the plan")).toBeVisible();
  await expect(rows).toHaveCount(2);
  // Keep ours against GitHub's rewording.
  await rows
    .filter({ hasText: "Their wording on GitHub" })
    .getByRole("button", { name: "Keep ours" })
    .click();
  await expect(rows).toHaveCount(1);
  // The conflict: both sides shown, neither applied; choose GitHub's.
  const conflict = rows.first();
  await expect(conflict).toContainText("Conflict");
  await expect(conflict).toContainText("GitHub's title for it");
  await expect(conflict).toContainText("Atomize's title for it");
  await conflict.getByRole("button", { name: "Use theirs" }).click();
  await expect(review).toHaveCount(0);

  // The plan now says what was chosen.
  await page
    .getByRole("tablist", { name: "Task sections" })
    .getByRole("tab", { name: /Subtasks/ })
    .click();
  await page.getByRole("button", { name: "Expand All" }).click();
  const hierarchy = page.getByRole("tree", { name: "Task hierarchy" });
  await expect(hierarchy.getByRole("treeitem", { name: /^Sign in with a magic link/ })).toBeVisible();
  await expect(hierarchy.getByRole("treeitem", { name: /^GitHub's title for it/ })).toBeVisible();
  await expect(hierarchy.getByRole("treeitem", { name: /^Their wording on GitHub/ })).toHaveCount(0);
});
