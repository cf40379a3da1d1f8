import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { budgetKey, takeBudget } from "../../src/server/lib/rate-budget";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The GitHub Issues export against what GitHub does and the first fake did not (tests/fakes/github.ts
 * cites the sources): volume-triggered secondary limits answered 403 without retry-after, an hourly
 * budget, answers lost after a write, renamed repositories, fine-grained tokens without the Issues
 * permission, classic tokens with only public_repo, and sub-issue links GitHub refuses. Every request is
 * also checked against GitHub's OpenAPI description.
 */

let github: FakeGitHub;
let server: TestServer;

beforeAll(async () => {
  github = await startFakeGitHub();
  for (const name of ["lost", "volume", "budget", "moved", "fine", "subs", "again", "deps"])
    github.addRepo({ owner: "ada", name, files: ["README.md"] });
  github.addRepo({ owner: "ada", name: "secret", files: ["README.md"], private: true });
  for (const t of ["lost", "volume", "budget", "moved", "subs", "again", "deps"])
    github.addToken({ token: `ghp_${t}`, login: "ada", scopes: ["repo"] });
  github.addToken({ token: "ghp_public", login: "ada", scopes: ["public_repo"] });
  github.addToken({ token: "github_pat_read_only", login: "ada", issues: "read", canSee: ["ada/fine"] });
  server = await startTestServer({
    GITHUB_API_URL: github.url,
    GITHUB_WRITE_INTERVAL_MS: "5",
    GITHUB_SECONDARY_LIMIT_WAIT_MS: "1200",
    // One hour of GitHub's budget, compressed: 12 content-creating requests per 1.5 s.
    GITHUB_WRITES_PER_HOUR: "12",
    GITHUB_WRITE_WINDOW_MS: "1500",
    EXPORT_HTTP_RETRIES: "1",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await github?.close();
});
afterEach(() => {
  github.setMode("ok");
  github.setContentLimits({
    perMinute: 80,
    perHour: 500,
    minuteMs: 60_000,
    hourMs: 3_600_000,
    cooldownMs: 60_000,
  });
});

/** 1 + 2 + 4 = 7 nodes: 6 issues, 4 sub-issue links. */
async function exportTo(repository: string, token: string, fanout = 2) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout, depth: 2, description: "Site" });
  const connected = await client.post("/api/github/connect", { access_token: token });
  expect(connected.status).toBe(200);
  return { client, rootId, done: await exportAgain(client, rootId, repository) };
}

async function exportAgain(client: TestClient, rootId: string, repository: string) {
  const started = await client.post("/api/github/start-export", { task_id: rootId, config: { repository } });
  expect(started.status).toBe(202);
  return waitForExport(client, started.json.export_id);
}

/** How many tasks the issues stand for (each body names its task once). */
const unique = (issues: Array<{ body: string }>) =>
  new Set(issues.map((i) => /<!-- atomize-task:([0-9a-f-]{36}) -->/.exec(i.body)?.[1])).size;

describe("GitHub export on GitHub's terms", () => {
  it("creates nothing twice when the answer to a new issue is lost", async () => {
    github.server.faults.loseAnswer({ method: "POST", path: "/repos/ada/lost/issues", times: 2 });
    const { done } = await exportTo("ada/lost", "ghp_lost");
    expect(done.status).toBe("completed");
    const issues = github.issues("ada", "lost");
    expect(issues).toHaveLength(6);
    expect(unique(issues)).toBe(6);
    for (const i of issues) expect(i.body).toMatch(/<!-- atomize-task:[0-9a-f-]{36} -->/);
  });

  it("waits out GitHub's volume-triggered secondary limit (403, no retry-after) and finishes", async () => {
    // A whole minute holds every write, however slow this machine; the wait after a refusal is shorter
    // than the one the app waits (GITHUB_SECONDARY_LIMIT_WAIT_MS above).
    github.setContentLimits({ perMinute: 8, minuteMs: 60_000, cooldownMs: 1000 });
    const before = github.server.log.length;
    const { done } = await exportTo("ada/volume", "ghp_volume");
    expect(done.status).toBe("completed");
    const refused = github.server.log.slice(before).filter((r) => r.status === 403);
    expect(refused.length).toBeGreaterThan(0);
    const issues = github.issues("ada", "volume");
    expect(issues).toHaveLength(6);
    expect(unique(issues)).toBe(6);
  });

  it("keeps under the hourly budget by pausing, and says when it resumes", async () => {
    // GitHub would refuse a 13th content-creating request within the window.
    github.setContentLimits({ perHour: 13, hourMs: 1500 });
    // Another job of the same token (here, or in another process) has just spent the window's budget:
    // the export's first write must wait, however fast or slow this machine is.
    const budget = { key: budgetKey("github:writes", "ghp_budget"), limit: 12, windowMs: 1500 };
    for (let i = 0; i < 12; i++) expect(await takeBudget(server.deps.db, budget)).toBe(0);
    const before = github.server.log.length;
    const messages: string[] = [];
    const unsubscribe = server.deps.events.subscribe((e) => {
      if (e.type === "export.progress" && e.message) messages.push(e.message);
    });
    const { done } = await exportTo("ada/budget", "ghp_budget");
    unsubscribe();
    expect(done.status).toBe("completed");
    expect(messages.some((m) => /^Paused for GitHub's limit .* resuming at \d\d:\d\d UTC/.test(m))).toBe(
      true,
    );
    expect(github.server.log.slice(before).filter((r) => r.status === 403)).toEqual([]);
    expect(github.issues("ada", "budget")).toHaveLength(6);
  });

  it("follows a renamed repository's redirects", async () => {
    github.renameRepo("ada", "moved", "renamed");
    const { done } = await exportTo("ada/moved", "ghp_moved");
    expect(done.status).toBe("completed");
    expect(github.issues("ada", "renamed")).toHaveLength(6);
  });

  it("names what a token lacks: public_repo on a private repository, Issues write on a fine-grained token", async () => {
    const classic = await exportTo("ada/secret", "ghp_public");
    expect(classic.done.status).toBe("failed");
    expect(classic.done.error).toBe(
      "The repository was not found, or the connected token cannot write to it.",
    );
    const publicRepo = await exportTo("ada/subs", "ghp_public");
    expect(publicRepo.done.status).toBe("completed");
    const fine = await exportTo("ada/fine", "github_pat_read_only");
    expect(fine.done.status).toBe("failed");
    expect(fine.done.error).toMatch(/lacks a permission .* \(GitHub asked for issues=write\)/);
    expect(github.issues("ada", "fine")).toHaveLength(0);
  });

  it("goes on when GitHub refuses a sub-issue link, and says so", async () => {
    github.setSubIssueLimit(1);
    try {
      const { done } = await exportTo("ada/subs", "ghp_subs");
      expect(done.status).toBe("completed");
      expect(done.result.sub_issues_refused).toBe(2);
      expect(done.result.warnings[0]).toMatch(/GitHub refused 2 sub-issue links \(.*more than 1 sub-issues/);
    } finally {
      github.setSubIssueLimit(100);
    }
  });

  it("exports the same plan to the same repository again: updates what changed, creates what is new, labels what was removed", async () => {
    const { client, rootId, done } = await exportTo("ada/again", "ghp_again");
    expect(done.status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as {
      children: Array<{ id: string; children: Array<{ id: string; remote_links: Array<{ key: string }> }> }>;
    };
    await client.request("PATCH", `/api/tasks/${tree.children[0]!.id}`, { description: "Renamed area" });
    const gone = tree.children[1]!.children[0]!;
    const goneNumber = Number(gone.remote_links[0]!.key.slice(1));
    expect((await client.request("DELETE", `/api/tasks/${gone.id}/subtask`)).status).toBe(200);
    // A task moved to the other area: its issue becomes the other parent's sub-issue.
    const movedTask = tree.children[1]!.children[1]!;
    const movedNumber = Number(movedTask.remote_links[0]!.key.slice(1));
    expect(
      (await client.post(`/api/tasks/${movedTask.id}/move`, { parent_id: tree.children[0]!.id, position: 0 }))
        .status,
    ).toBe(200);
    const added = await client.post(`/api/tasks/${tree.children[0]!.id}/add-task`, {
      description: "A new step",
      position: "child",
      auto_decompose: false,
    });
    expect(added.status).toBe(201);

    const preview = await client.get(
      `/api/exports/preview?task_id=${rootId}&kind=github&repository=ada/again`,
    );
    expect(preview.json).toEqual({ exported_before: true, update: 5, create: 1, remove: 1 });
    const again = await exportAgain(client, rootId, "ada/again");
    expect(again.status).toBe("completed");
    // Updated: the renamed area (its title, and its subtask list gained the new step) and the other area
    // (its subtask list lost the deleted one); the other issues are as they were, so left alone.
    expect(again.result).toMatchObject({ issues_created: 1, issues_updated: 2, issues_marked_removed: 1 });
    const issues = github.issues("ada", "again");
    expect(issues).toHaveLength(7);
    expect(unique(issues)).toBe(7);
    expect(issues.filter((i) => i.title === "Renamed area")).toHaveLength(1);
    expect(issues.find((i) => i.number === goneNumber)!.labels).toContain("atomize: removed");
    const areaNumber = Number(
      ((await client.get(`/api/tasks/${tree.children[0]!.id}`)).json.remote_links[0].key as string).slice(1),
    );
    expect(issues.find((i) => i.number === areaNumber)!.subIssues).toContain(movedNumber);
    for (const i of issues) if (i.number !== areaNumber) expect(i.subIssues).not.toContain(movedNumber);
  });

  it("adds and removes GitHub's 'blocked by' as the plan's order changes between exports", async () => {
    const { client, rootId, done } = await exportTo("ada/deps", "ghp_deps");
    expect(done.status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json as {
      children: Array<{ children: Array<{ id: string; remote_links: Array<{ key: string }> }> }>;
    };
    const [waiting, blocker] = tree.children[0]!.children;
    const number = (n: { remote_links: Array<{ key: string }> }) => Number(n.remote_links[0]!.key.slice(1));
    const issue = () => github.issues("ada", "deps").find((i) => i.number === number(waiting!))!;
    expect(
      (await client.post(`/api/tasks/${waiting!.id}/dependencies`, { depends_on: blocker!.id })).status,
    ).toBe(201);
    expect((await exportAgain(client, rootId, "ada/deps")).status).toBe("completed");
    expect(issue().blockedBy).toEqual([number(blocker!)]);
    expect(issue().body).toContain(`**Blocked by:** #${number(blocker!)}`);

    expect(
      (await client.request("DELETE", `/api/tasks/${waiting!.id}/dependencies/${blocker!.id}`)).status,
    ).toBe(204);
    const third = await exportAgain(client, rootId, "ada/deps");
    expect(third.status).toBe("completed");
    expect(third.result).toMatchObject({ issues_created: 0, dependencies_removed: 1 });
    expect(issue().blockedBy).toEqual([]);
    expect(issue().body).not.toContain("**Blocked by:**");
    expect(github.issues("ada", "deps")).toHaveLength(6);
  });
});
