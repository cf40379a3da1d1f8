/**
 * Checks the fake GitHub REST API with plain fetch, so other tests can rely on it standing in
 * for api.github.com. Expected git hashes were produced with real git (`git write-tree`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "./github";

const CLASSIC = "ghp_classicTokenForAda000000000000000000";
const CLASSIC_NO_SCOPES = "ghp_noScopes00000000000000000000000000000";
const CLASSIC_OTHER = "ghp_graceHopperPublicRepo0000000000000000";
const FINE = "github_pat_11AAAAAAA0fineGrainedAda_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
const FINE_OTHER = "github_pat_11BBBBBBB0fineGrainedGrace_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
const DEMO_README = "# Demo\n\nHéllo wörld\n";
const LONG_README = `# Atomize\n\n${"Decompose projects into atomic tasks. ".repeat(12)}\n\n✨ émojis & ünïcode ✨\n`;

let gh: FakeGitHub;

const call = (path: string, init: RequestInit & { token?: string; scheme?: string } = {}) => {
  const { token, scheme = "Bearer", ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token !== undefined) headers.set("Authorization", `${scheme} ${token}`);
  if (rest.body !== undefined) headers.set("Content-Type", "application/json");
  headers.set("Accept", headers.get("Accept") ?? "application/vnd.github+json");
  return fetch(`${gh.url}${path}`, { ...rest, headers });
};
const post = (path: string, token: string | undefined, body: unknown) =>
  call(path, { method: "POST", token, body: JSON.stringify(body) });
const json = async (res: Response) => (await res.json()) as any;

beforeAll(async () => {
  gh = await startFakeGitHub();
  gh.addToken({ token: CLASSIC, login: "ada", name: "Ada Lovelace", scopes: ["repo", "read:user"] });
  gh.addToken({ token: CLASSIC_NO_SCOPES, login: "ada" });
  gh.addToken({ token: CLASSIC_OTHER, login: "grace", scopes: ["public_repo"], canSee: ["ada/secret"] });
  gh.addToken({ token: FINE, login: "ada", publicRepos: 42 });
  gh.addToken({ token: FINE_OTHER, login: "grace", canSee: ["Ada/Secret"] });
  gh.addRepo({
    owner: "ada",
    name: "demo",
    description: "A demo project",
    readme: DEMO_README,
    files: ["src/index.ts", "src/lib/util.ts", "package.json", "src.ts", "src-x"],
  });
  gh.addRepo({ owner: "ada", name: "long", readme: LONG_README, files: ["a.txt"] });
  gh.addRepo({ owner: "ada", name: "secret", private: true, defaultBranch: "trunk", readme: "top secret\n" });
  gh.addRepo({ owner: "ada", name: "noreadme", readme: null, files: ["main.go"] });
  gh.addRepo({ owner: "ada", name: "empty" });
  gh.addRepo({ owner: "ada", name: "closed", hasIssues: false, files: ["x"] });
  gh.addRepo({ owner: "ada", name: "export", files: ["x"] });
  gh.addRepo({ owner: "ada", name: "paged", files: ["x"], labels: [] });
  gh.addRepo({ owner: "ada", name: "older", files: ["x"], dependencies: false });
});

afterAll(async () => {
  await gh.close();
});

beforeEach(() => {
  gh.setMode("ok");
  gh.setRateLimit({ authenticated: 5000, unauthenticated: 60 });
});

describe("authentication and GET /user", () => {
  it("returns the user and the classic token's scopes", async () => {
    const res = await call("/user", { token: CLASSIC });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-oauth-scopes")).toBe("repo, read:user");
    const body = await json(res);
    expect(body).toMatchObject({ login: "ada", name: "Ada Lovelace", type: "User", public_repos: 8 });
    expect(typeof body.id).toBe("number");
  });

  it("sends an empty X-OAuth-Scopes for a classic token without scopes", async () => {
    const res = await call("/user", { token: CLASSIC_NO_SCOPES });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-oauth-scopes")).toBe("");
  });

  it("sends no scopes header for fine-grained tokens and accepts the `token` scheme", async () => {
    const res = await call("/user", { token: FINE, scheme: "token" });
    expect(res.status).toBe(200);
    expect(res.headers.has("x-oauth-scopes")).toBe(false);
    expect(res.headers.has("x-accepted-oauth-scopes")).toBe(false);
    expect(await json(res)).toMatchObject({ login: "ada", public_repos: 42 });
  });

  it("answers 401 Bad credentials for an unknown token, even on public data", async () => {
    for (const path of ["/user", "/repos/ada/demo"]) {
      const res = await call(path, { token: "ghp_doesNotExist" });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        message: "Bad credentials",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      });
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    }
  });

  it("requires authentication for GET /user", async () => {
    const res = await call("/user");
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ message: "Requires authentication", status: "401" });
  });

  it("refuses requests without a User-Agent, like GitHub", async () => {
    const res = await call("/repos/ada/demo", { headers: { "User-Agent": "" } });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/User-Agent/);
  });

  it("records requests with their Authorization header", async () => {
    await call("/user?probe=1", { token: FINE, scheme: "token" });
    expect(gh.requests.at(-1)).toEqual({ method: "GET", path: "/user?probe=1", auth: `token ${FINE}` });
  });
});

describe("GET /repos/{owner}/{repo}", () => {
  it("returns a public repository to anyone, case-insensitively", async () => {
    const res = await call("/repos/ADA/Demo");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      full_name: "ada/demo",
      default_branch: "main",
      private: false,
      description: "A demo project",
      html_url: "https://github.com/ada/demo",
      visibility: "public",
    });
    expect(body.permissions).toBeUndefined();
  });

  it("hides private repositories behind 404", async () => {
    const notFound = {
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository",
      status: "404",
    };
    // Anonymous; the owner's classic token without `repo`; a granted classic token without `repo`.
    for (const token of [undefined, CLASSIC_NO_SCOPES, CLASSIC_OTHER]) {
      const res = await call("/repos/ada/secret", { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(notFound);
    }
    const missing = await call("/repos/ada/nope", { token: CLASSIC });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(notFound);
  });

  it("shows private repositories to the owner and to tokens that can see them", async () => {
    const owner = await call("/repos/ada/secret", { token: CLASSIC });
    expect(owner.status).toBe(200);
    expect(await json(owner)).toMatchObject({
      private: true,
      default_branch: "trunk",
      description: null,
      permissions: { admin: true, push: true, pull: true },
    });
    expect((await call("/repos/ada/secret", { token: FINE })).status).toBe(200);
    expect((await call("/repos/ada/secret", { token: FINE_OTHER })).status).toBe(200);
    const collaborator = await json(await call("/repos/ada/secret", { token: FINE_OTHER }));
    expect(collaborator.permissions).toMatchObject({ push: false, pull: true });
  });
});

describe("GET /repos/{owner}/{repo}/readme", () => {
  it("returns base64 content that decodes to the README, with a real blob sha", async () => {
    const res = await call("/repos/ada/demo/readme");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      name: "README.md",
      path: "README.md",
      type: "file",
      encoding: "base64",
      size: Buffer.byteLength(DEMO_README),
      sha: "b980897105ec1e94a7ea9cf955e1f7d88c70dfae", // git hash-object
      html_url: "https://github.com/ada/demo/blob/main/README.md",
      download_url: "https://raw.githubusercontent.com/ada/demo/main/README.md",
    });
    expect(Buffer.from(body.content, "base64").toString("utf8")).toBe(DEMO_README);
  });

  it("wraps the base64 every 60 characters like GitHub", async () => {
    const body = await json(await call("/repos/ada/long/readme"));
    const content: string = body.content;
    expect(content.endsWith("\n")).toBe(true);
    const lines = content.slice(0, -1).split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(0, -1)) expect(line).toHaveLength(60);
    expect(lines.at(-1)!.length).toBeLessThanOrEqual(60);
    expect(Buffer.from(content, "base64").toString("utf8")).toBe(LONG_README);
  });

  it("serves the raw media type", async () => {
    const res = await call("/repos/ada/demo/readme", {
      headers: { Accept: "application/vnd.github.raw+json" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(DEMO_README);
  });

  it("answers 404 when there is no README (or the repository is hidden)", async () => {
    for (const path of [
      "/repos/ada/noreadme/readme",
      "/repos/ada/empty/readme",
      "/repos/ada/secret/readme",
    ]) {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ message: "Not Found", status: "404" });
    }
    const own = await json(await call("/repos/ada/secret/readme", { token: CLASSIC }));
    expect(Buffer.from(own.content, "base64").toString()).toBe("top secret\n");
  });
});

describe("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", () => {
  const ROOT_SHA = "5d582bb95aaccde2fe1b967a5f6f9bf72c7c3c1d"; // git write-tree of the same files

  it("lists only the top level without `recursive`, in git order", async () => {
    const res = await call("/repos/ada/demo/git/trees/main");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.sha).toBe(ROOT_SHA);
    expect(body.url).toBe(`${gh.url}/repos/ada/demo/git/trees/${ROOT_SHA}`);
    expect(body.truncated).toBe(false);
    expect(body.tree.map((e: any) => [e.path, e.type, e.mode])).toEqual([
      ["README.md", "blob", "100644"],
      ["package.json", "blob", "100644"],
      ["src-x", "blob", "100644"],
      ["src.ts", "blob", "100644"],
      ["src", "tree", "040000"],
    ]);
    const src = body.tree.find((e: any) => e.path === "src");
    expect(src).toEqual({
      path: "src",
      mode: "040000",
      type: "tree",
      sha: "d838d59b1fbbc6cda8e8fe04863aa23fdec2b4a6",
      url: `${gh.url}/repos/ada/demo/git/trees/d838d59b1fbbc6cda8e8fe04863aa23fdec2b4a6`,
    });
    expect(body.tree[0]).toMatchObject({ sha: "b980897105ec1e94a7ea9cf955e1f7d88c70dfae", size: 22 });
  });

  it("recurses for any value of `recursive`", async () => {
    for (const value of ["1", "0", "false", "true"]) {
      const body = await json(await call(`/repos/ada/demo/git/trees/main?recursive=${value}`));
      expect(body.tree.map((e: any) => e.path)).toEqual([
        "README.md",
        "package.json",
        "src-x",
        "src.ts",
        "src",
        "src/index.ts",
        "src/lib",
        "src/lib/util.ts",
      ]);
      expect(body.truncated).toBe(false);
    }
  });

  it("lists a subtree by its sha, with paths relative to it", async () => {
    const body = await json(await call("/repos/ada/demo/git/trees/d838d59b1fbbc6cda8e8fe04863aa23fdec2b4a6"));
    expect(body.tree.map((e: any) => e.path)).toEqual(["index.ts", "lib"]);
  });

  it("truncates trees with more entries than the limit", async () => {
    const small = await startFakeGitHub({ treeLimit: 3 });
    try {
      small.addRepo({ owner: "ada", name: "big", files: ["a/1", "a/2", "b", "c", "d"] });
      const body = await json(await fetch(`${small.url}/repos/ada/big/git/trees/main?recursive=1`));
      expect(body.truncated).toBe(true);
      expect(body.tree.map((e: any) => e.path)).toEqual(["a", "a/1", "a/2"]);
      const flat = await json(await fetch(`${small.url}/repos/ada/big/git/trees/main`));
      expect(flat.truncated).toBe(true);
      expect(flat.tree).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  it("answers 404 for unknown branches and 409 for empty repositories", async () => {
    const unknown = await call("/repos/ada/demo/git/trees/develop?recursive=1");
    expect(unknown.status).toBe(404);
    const empty = await call("/repos/ada/empty/git/trees/main");
    expect(empty.status).toBe(409);
    expect(await json(empty)).toMatchObject({ message: "Git Repository is empty.", status: "409" });
  });
});

describe("rate limits", () => {
  it("sends the rate-limit headers on every response", async () => {
    const before = Math.floor(Date.now() / 1000);
    for (const res of [await call("/repos/ada/demo"), await call("/repos/ada/missing")]) {
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      expect(res.headers.get("x-ratelimit-resource")).toBe("core");
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(before + 3599);
      expect(reset).toBeLessThanOrEqual(before + 3601);
    }
    const third = await call("/user", { token: CLASSIC });
    expect(third.headers.get("x-ratelimit-limit")).toBe("5000");
    expect(third.headers.get("x-ratelimit-used")).toBe("1");
    expect(third.headers.get("x-ratelimit-remaining")).toBe("4999");
  });

  it("answers 403 once the anonymous budget is spent", async () => {
    gh.setRateLimit({ unauthenticated: 2 });
    const a = await call("/repos/ada/demo");
    const b = await call("/repos/ada/demo");
    expect([a.headers.get("x-ratelimit-remaining"), b.headers.get("x-ratelimit-remaining")]).toEqual([
      "1",
      "0",
    ]);
    const c = await call("/repos/ada/demo");
    expect(c.status).toBe(403);
    expect(c.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(c.headers.get("x-ratelimit-used")).toBe("2");
    expect((await json(c)).message).toMatch(/^API rate limit exceeded for 127\.0\.0\.1\./);
    // The authenticated budget is separate.
    expect((await call("/repos/ada/demo", { token: CLASSIC })).status).toBe(200);
    // /rate_limit never counts.
    const rl = await call("/rate_limit");
    expect(rl.status).toBe(200);
    expect((await json(rl)).resources.core).toMatchObject({ limit: 2, remaining: 0, used: 2 });
  });

  it("answers 403 once a user's budget is spent, across that user's tokens", async () => {
    gh.setRateLimit({ authenticated: 2 });
    expect((await call("/user", { token: CLASSIC })).status).toBe(200);
    expect((await call("/user", { token: FINE })).status).toBe(200);
    const res = await call("/user", { token: CLASSIC });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await json(res)).message).toMatch(/^API rate limit exceeded for user ID \d+\.$/);
    expect((await call("/user", { token: CLASSIC_OTHER })).status).toBe(200); // grace is another user
    gh.setRateLimit({});
    expect((await call("/user", { token: CLASSIC })).status).toBe(200);
  });

  it("answers 429 with retry-after in secondary_rate_limit mode", async () => {
    gh.setMode("secondary_rate_limit", { times: 1 });
    const res = await call("/repos/ada/demo", { token: CLASSIC });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);
    expect((await json(res)).message).toMatch(/secondary rate limit/);
    expect((await call("/repos/ada/demo", { token: CLASSIC })).status).toBe(200);
  });
});

describe("failure modes", () => {
  it("answers 502 to every request in server_error mode, then recovers", async () => {
    gh.setMode("server_error");
    expect((await call("/user", { token: CLASSIC })).status).toBe(502);
    expect((await call("/repos/ada/demo")).status).toBe(502);
    gh.setMode("ok");
    expect((await call("/repos/ada/demo")).status).toBe(200);
    gh.setMode("server_error", { times: 2 });
    expect((await call("/repos/ada/demo")).status).toBe(502);
    expect((await call("/repos/ada/demo")).status).toBe(502);
    expect((await call("/repos/ada/demo")).status).toBe(200);
  });

  it("delays answers in slow mode (clients time out)", async () => {
    gh.setMode("slow", { times: 1 });
    const started = Date.now();
    await expect(call("/repos/ada/demo", { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await call("/repos/ada/demo")).status).toBe(200);
  });

  it("answers after the configured delay", async () => {
    gh.setMode("slow", { times: 1, delayMs: 150 });
    const started = Date.now();
    expect((await call("/repos/ada/demo")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("issues, labels and sub-issues", () => {
  it("creates issues with labels, creating unknown labels on the fly", async () => {
    const res = await post("/repos/ada/export/issues", CLASSIC, {
      title: "Set up CI",
      body: "Run the tests",
      labels: ["bug", "atomize"],
    });
    expect(res.status).toBe(201);
    const issue = await json(res);
    expect(issue).toMatchObject({
      number: 1,
      title: "Set up CI",
      body: "Run the tests",
      state: "open",
      html_url: "https://github.com/ada/export/issues/1",
      user: { login: "ada" },
    });
    expect(typeof issue.id).toBe("number");
    expect(issue.node_id).toMatch(/^I_/);
    expect(issue.labels.map((l: any) => l.name)).toEqual(["bug", "atomize"]);
    expect(res.headers.get("location")).toBe(`${gh.url}/repos/ada/export/issues/1`);
    expect(gh.labels("ada", "export")).toContain("atomize");
    expect(gh.issues("ada", "export")[0]).toEqual({
      number: 1,
      title: "Set up CI",
      body: "Run the tests",
      labels: ["bug", "atomize"],
      subIssues: [],
      blockedBy: [],
    });
  });

  it("rejects an empty title with 422 Validation Failed", async () => {
    const res = await post("/repos/ada/export/issues", CLASSIC, { title: "" });
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
      status: "422",
    });
  });

  it("answers 401, 404, 403 and 410 where GitHub does", async () => {
    const anon = await post("/repos/ada/export/issues", undefined, { title: "x" });
    expect(anon.status).toBe(401);
    expect(await json(anon)).toMatchObject({ message: "Requires authentication" });
    expect((await post("/repos/ada/missing/issues", CLASSIC, { title: "x" })).status).toBe(404);
    expect((await post("/repos/ada/secret/issues", CLASSIC_NO_SCOPES, { title: "x" })).status).toBe(404);
    // A classic token without public_repo cannot write, and GitHub hides that as 404.
    expect((await post("/repos/ada/export/issues", CLASSIC_NO_SCOPES, { title: "x" })).status).toBe(404);
    const fine = await post("/repos/ada/export/issues", FINE_OTHER, { title: "x" });
    expect(fine.status).toBe(403);
    expect(await json(fine)).toMatchObject({ message: "Resource not accessible by personal access token" });
    const disabled = await post("/repos/ada/closed/issues", CLASSIC, { title: "x" });
    expect(disabled.status).toBe(410);
    expect(await json(disabled)).toMatchObject({
      message: "Issues are disabled for this repo",
      status: "410",
    });
  });

  it("drops labels from non-collaborators, like GitHub", async () => {
    const res = await post("/repos/ada/export/issues", CLASSIC_OTHER, { title: "Outside", labels: ["bug"] });
    expect(res.status).toBe(201);
    expect((await json(res)).labels).toEqual([]);
  });

  it("creates labels and rejects duplicates with already_exists", async () => {
    const res = await post("/repos/ada/export/labels", CLASSIC, {
      name: "task",
      color: "1d76db",
      description: "Atomize task",
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ name: "task", color: "1d76db", description: "Atomize task" });
    const dup = await post("/repos/ada/export/labels", CLASSIC, { name: "TASK", color: "000000" });
    expect(dup.status).toBe(422);
    expect(await json(dup)).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Label", code: "already_exists", field: "name" }],
    });
    expect((await post("/repos/ada/export/labels", CLASSIC_OTHER, { name: "x" })).status).toBe(403);
    const list = await json(await call("/repos/ada/export/labels?per_page=100", { token: CLASSIC }));
    expect(list.map((l: any) => l.name)).toEqual(gh.labels("ada", "export"));
    expect(gh.labels("ada", "export")).toEqual(
      expect.arrayContaining(["bug", "enhancement", "atomize", "task"]),
    );
  });

  it("adds sub-issues by issue id", async () => {
    const parent = await json(await post("/repos/ada/export/issues", CLASSIC, { title: "Epic" }));
    const child = await json(await post("/repos/ada/export/issues", CLASSIC, { title: "Step" }));
    const res = await post(`/repos/ada/export/issues/${parent.number}/sub_issues`, CLASSIC, {
      sub_issue_id: child.id,
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ number: parent.number, sub_issues_summary: { total: 1 } });
    const stored = gh.issues("ada", "export").find((i) => i.number === parent.number);
    expect(stored?.subIssues).toEqual([child.number]);

    // The issue number is not the id; ids must be integers; a child has one parent.
    expect(
      (await post(`/repos/ada/export/issues/${parent.number}/sub_issues`, CLASSIC, { sub_issue_id: 999 }))
        .status,
    ).toBe(404);
    expect(
      (
        await post(`/repos/ada/export/issues/${parent.number}/sub_issues`, CLASSIC, {
          sub_issue_id: `${child.id}`,
        })
      ).status,
    ).toBe(422);
    const other = await json(await post("/repos/ada/export/issues", CLASSIC, { title: "Other epic" }));
    expect(
      (await post(`/repos/ada/export/issues/${other.number}/sub_issues`, CLASSIC, { sub_issue_id: child.id }))
        .status,
    ).toBe(422);
    expect(
      (await post("/repos/ada/export/issues/9999/sub_issues", CLASSIC, { sub_issue_id: child.id })).status,
    ).toBe(404);
  });

  it("records 'blocked by' dependencies by the blocking issue's id, as GitHub's issue-dependencies API does", async () => {
    const setup = await json(await post("/repos/ada/export/issues", CLASSIC, { title: "Setup" }));
    const feature = await json(await post("/repos/ada/export/issues", CLASSIC, { title: "Feature" }));
    const path = `/repos/ada/export/issues/${feature.number}/dependencies/blocked_by`;
    const res = await post(path, CLASSIC, { issue_id: setup.id });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ number: feature.number });
    expect(gh.issues("ada", "export").find((i) => i.number === feature.number)?.blockedBy).toEqual([
      setup.number,
    ]);
    // The number is not the id; ids are integers; no issue blocks itself; a pair is added once.
    expect((await post(path, CLASSIC, { issue_id: 999_999 })).status).toBe(404);
    expect((await post(path, CLASSIC, { issue_id: `${setup.id}` })).status).toBe(422);
    expect((await post(path, CLASSIC, {})).status).toBe(422);
    expect((await post(path, CLASSIC, { issue_id: feature.id })).status).toBe(422);
    expect((await post(path, CLASSIC, { issue_id: setup.id })).status).toBe(422);
    // Push access is needed; a repository without issues is 410; a server without the feature 404s.
    expect((await post(path, CLASSIC_OTHER, { issue_id: setup.id })).status).toBe(403);
    expect(
      (await post("/repos/ada/closed/issues/1/dependencies/blocked_by", CLASSIC, { issue_id: 1 })).status,
    ).toBe(410);
    const old = await json(await post("/repos/ada/older/issues", CLASSIC, { title: "Old" }));
    expect(
      (
        await post(`/repos/ada/older/issues/${old.number}/dependencies/blocked_by`, CLASSIC, {
          issue_id: setup.id,
        })
      ).status,
    ).toBe(404);
  });

  it("lists issues newest first with Link pagination", async () => {
    for (let n = 1; n <= 5; n++) await post("/repos/ada/paged/issues", CLASSIC, { title: `Task ${n}` });
    const first = await call("/repos/ada/paged/issues?state=all&per_page=2", { token: CLASSIC });
    expect(first.status).toBe(200);
    expect((await json(first)).map((i: any) => i.title)).toEqual(["Task 5", "Task 4"]);
    const link = first.headers.get("link")!;
    const rels = Object.fromEntries(
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], m[1]] as [string, string]),
    );
    expect(Object.keys(rels)).toEqual(["next", "last"]);
    expect(rels.next).toMatch(/\/repositories\/\d+\/issues\?state=all&per_page=2&page=2$/);
    expect(rels.last).toMatch(/page=3$/);

    const titles: string[] = [];
    let next: string | undefined = `${gh.url}/repos/ada/paged/issues?state=all&per_page=2`;
    while (next) {
      const res: Response = await fetch(next, { headers: { Authorization: `Bearer ${CLASSIC}` } });
      titles.push(...(await json(res)).map((i: any) => i.title));
      next = res.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
    }
    expect(titles).toEqual(["Task 5", "Task 4", "Task 3", "Task 2", "Task 1"]);

    const last = await call("/repos/ada/paged/issues?state=all&per_page=2&page=3", { token: CLASSIC });
    expect(last.headers.get("link")).toMatch(/rel="prev".*rel="first"/);
    expect(last.headers.get("link")).not.toMatch(/rel="next"/);
    expect(gh.issues("ada", "paged").map((i) => i.number)).toEqual([1, 2, 3, 4, 5]);
    expect(gh.labels("ada", "paged")).toEqual([]);
  });
});

describe("what the first version's fake let pass", () => {
  it("refuses a request GitHub's OpenAPI description does not allow, and records it", async () => {
    const before = gh.openapiViolations.length;
    const bad = await post("/repos/ada/export/issues", CLASSIC, { title: "x", labels: "not-an-array" });
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toMatch(
      /^Invalid request\.\n\nissues\/create: body \/labels must be array/,
    );
    const unknownParam = await call("/repos/ada/export/labels?colour=red", { token: CLASSIC });
    expect(unknownParam.status).toBe(422);
    expect(gh.openapiViolations.slice(before)).toHaveLength(2);
    gh.openapiViolations.length = before; // the suites that use the fake assert it stays empty
  });

  it("answers volume with a 403 secondary limit and no retry-after", async () => {
    gh.setContentLimits({ perMinute: 2, minuteMs: 60_000 });
    try {
      for (let i = 0; i < 2; i++)
        expect((await post("/repos/ada/export/issues", CLASSIC, { title: `v${i}` })).status).toBe(201);
      const third = await post("/repos/ada/export/issues", CLASSIC, { title: "v2" });
      expect(third.status).toBe(403);
      expect(third.headers.get("retry-after")).toBeNull();
      expect((await json(third)).message).toMatch(/^You have exceeded a secondary rate limit/);
      // Reads are not content-creating.
      expect((await call("/repos/ada/export", { token: CLASSIC })).status).toBe(200);
    } finally {
      gh.setContentLimits({
        perMinute: 80,
        perHour: 500,
        minuteMs: 60_000,
        hourMs: 3_600_000,
        cooldownMs: 60_000,
      });
    }
  });

  it("refuses every write until the wait after a refusal is over, then counts a new minute", async () => {
    gh.setContentLimits({ perMinute: 1, minuteMs: 60_000, cooldownMs: 300 });
    try {
      expect((await post("/repos/ada/export/issues", CLASSIC, { title: "w0" })).status).toBe(201);
      expect((await post("/repos/ada/export/issues", CLASSIC, { title: "w1" })).status).toBe(403);
      // Inside the wait: refused again, however few writes the minute holds.
      expect((await post("/repos/ada/export/issues", CLASSIC, { title: "w2" })).status).toBe(403);
      await new Promise((r) => setTimeout(r, 350));
      expect((await post("/repos/ada/export/issues", CLASSIC, { title: "w3" })).status).toBe(201);
      expect((await post("/repos/ada/export/issues", CLASSIC, { title: "w4" })).status).toBe(403);
    } finally {
      gh.setContentLimits({
        perMinute: 80,
        perHour: 500,
        minuteMs: 60_000,
        hourMs: 3_600_000,
        cooldownMs: 60_000,
      });
    }
  });

  it("redirects a renamed repository: 301 for reads, 307 for writes", async () => {
    gh.addRepo({ owner: "ada", name: "oldname", files: ["x"] });
    gh.renameRepo("ada", "oldname", "newname");
    const read = await call("/repos/ada/oldname", { token: CLASSIC, redirect: "manual" });
    expect(read.status).toBe(301);
    expect(read.headers.get("location")).toMatch(new RegExp(`^${gh.url}/repositories/\\d+$`));
    const write = await call("/repos/ada/oldname/issues", {
      token: CLASSIC,
      method: "POST",
      body: JSON.stringify({ title: "t" }),
      redirect: "manual",
    });
    expect(write.status).toBe(307);
    expect((await json(await call("/repos/ada/newname", { token: CLASSIC }))).full_name).toBe("ada/newname");
  });

  it("names the permission a fine-grained token lacked", async () => {
    gh.addToken({ token: "github_pat_readonly", login: "ada", issues: "read" });
    const res = await post("/repos/ada/export/issues", "github_pat_readonly", { title: "t" });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-accepted-github-permissions")).toBe("issues=write");
  });
});

/** A webhook receiver on 127.0.0.1 that keeps what it was sent. */
async function receiver() {
  const got: Array<{ headers: Record<string, unknown>; body: any }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (chunks.length)
        got.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((r) => server.close(r)) };
}

describe("tracker rules: labels one by one, GitHub's sub-issue text, ids, renames and edits", () => {
  const issue = async (repo: string, labels: string[] = []) =>
    json(await post(`/repos/ada/${repo}/issues`, CLASSIC, { title: "Rules", body: "text", labels }));

  it("replaces the labels on a PATCH, adds with POST .../labels, and removes one with DELETE (404 when absent)", async () => {
    gh.addRepo({ owner: "ada", name: "labels1", files: ["x"] });
    const { number } = await issue("labels1", ["atomize", "sp: 3"]);
    const added = await post(`/repos/ada/labels1/issues/${number}/labels`, CLASSIC, { labels: ["bug"] });
    expect(added.status).toBe(200);
    expect((await json(added)).map((l: { name: string }) => l.name)).toEqual(["atomize", "sp: 3", "bug"]);
    const removed = await call(`/repos/ada/labels1/issues/${number}/labels/${encodeURIComponent("sp: 3")}`, {
      method: "DELETE",
      token: CLASSIC,
    });
    expect(removed.status).toBe(200);
    expect((await json(removed)).map((l: { name: string }) => l.name)).toEqual(["atomize", "bug"]);
    const again = await call(`/repos/ada/labels1/issues/${number}/labels/${encodeURIComponent("sp: 3")}`, {
      method: "DELETE",
      token: CLASSIC,
    });
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ message: "Label does not exist", status: "404" });
    const patched = await call(`/repos/ada/labels1/issues/${number}`, {
      method: "PATCH",
      token: CLASSIC,
      body: JSON.stringify({ labels: ["atomize"] }),
    });
    expect((await json(patched)).labels.map((l: { name: string }) => l.name)).toEqual(["atomize"]);
    // An empty list breaks the description's minItems: 422, and recorded.
    const before = gh.openapiViolations.length;
    expect((await post(`/repos/ada/labels1/issues/${number}/labels`, CLASSIC, { labels: [] })).status).toBe(
      422,
    );
    expect(gh.openapiViolations.length).toBe(before + 1);
    gh.openapiViolations.splice(before);
  });

  it("answers a second link of the same sub-issue with GitHub's own 422 text, and no errors array", async () => {
    gh.addRepo({ owner: "ada", name: "subs2", files: ["x"] });
    const parent = await issue("subs2");
    const other = await issue("subs2");
    const child = await issue("subs2");
    const link = (to: number) =>
      post(`/repos/ada/subs2/issues/${to}/sub_issues`, CLASSIC, { sub_issue_id: child.id });
    expect((await link(parent.number)).status).toBe(201);
    const twice = await link(parent.number);
    expect(twice.status).toBe(422);
    const body = await json(twice);
    expect(body.message).toBe(
      "An error occurred while adding the sub-issue to the parent issue. Issue may not contain duplicate sub-issues and Sub issue may only have one parent",
    );
    expect(body).not.toHaveProperty("errors");
    expect(await json(await link(other.number))).toMatchObject({
      message:
        "An error occurred while adding the sub-issue to the parent issue. Sub issue may only have one parent",
    });
  });

  it("keeps a repository's id through a rename: the old name is a 301, deliveries carry the id and the new name", async () => {
    gh.addRepo({ owner: "ada", name: "before", files: ["x"] });
    const id = gh.repoId("ada", "before");
    expect((await json(await call("/repos/ada/before", { token: CLASSIC }))).id).toBe(id);
    const hook = await receiver();
    try {
      gh.addWebhook("ada", "before", { url: hook.url, secret: "s3cret" });
      const { number } = await issue("before");
      gh.renameRepo("ada", "before", "after");
      expect(gh.repoId("ada", "after")).toBe(id);
      const moved = await call("/repos/ada/before", { token: CLASSIC, redirect: "manual" });
      expect(moved.status).toBe(301);
      expect(moved.headers.get("location")).toBe(`${gh.url}/repositories/${id}`);
      expect((await gh.setIssueState("ada", "after", number, "closed")).map((d) => d.status)).toEqual([200]);
      expect(hook.got[0]!.body.repository).toMatchObject({ id, full_name: "ada/after", name: "after" });
    } finally {
      await hook.close();
    }
  });

  it("delivers `edited` with the old title and body when a person edits an issue, and closes one as a duplicate", async () => {
    gh.addRepo({ owner: "ada", name: "edits", files: ["x"] });
    const hook = await receiver();
    try {
      gh.addWebhook("ada", "edits", { url: hook.url, secret: "s3cret" });
      const { number } = await issue("edits");
      const patch = (body: unknown) =>
        call(`/repos/ada/edits/issues/${number}`, {
          method: "PATCH",
          token: CLASSIC,
          body: JSON.stringify(body),
        });
      expect((await patch({ title: "Renamed by a person" })).status).toBe(200);
      expect((await patch({ body: "rewritten" })).status).toBe(200);
      const closed = await patch({ state: "closed", state_reason: "duplicate" });
      expect((await json(closed)).state_reason).toBe("duplicate");
      await gh.settleDeliveries();
      expect(hook.got.map((d) => d.body.action)).toEqual(["edited", "edited", "closed"]);
      expect(hook.got[0]!.body.changes).toEqual({ title: { from: "Rules" } });
      expect(hook.got[0]!.body.issue.title).toBe("Renamed by a person");
      expect(hook.got[1]!.body.changes).toEqual({ body: { from: "text" } });
      expect(hook.got[2]!.body.issue).toMatchObject({ state: "closed", state_reason: "duplicate" });
      expect(hook.got[0]!.headers["x-github-event"]).toBe("issues");
      expect(gh.deliveries.slice(-3).map((d) => [d.action, d.status])).toEqual([
        ["edited", 200],
        ["edited", 200],
        ["closed", 200],
      ]);
    } finally {
      await hook.close();
    }
  });
});

describe("pull requests (pulls/list) and the issues their descriptions close", () => {
  const titlesOf = async (res: Response) => (await json(res)).map((p: any) => p.title);

  it("lists open pull requests newest first by default, all with state=all, in GitHub's shape, paged", async () => {
    gh.addRepo({ owner: "ada", name: "prs", files: ["x"] });
    const issue = await json(await post("/repos/ada/prs/issues", CLASSIC, { title: "Sign in" }));
    const a = gh.createPullRequest("ada", "prs", { title: "Add sign-in", body: `Closes #${issue.number}` });
    const b = gh.createPullRequest("ada", "prs", { title: "Tidy up", author: "grace" });
    gh.createPullRequest("ada", "prs", { title: "Docs" });
    // Numbers are shared with issues, as on GitHub.
    expect([a.number, b.number]).toEqual([issue.number + 1, issue.number + 2]);
    expect(a.html_url).toBe(`https://github.com/ada/prs/pull/${a.number}`);
    await gh.setPullRequestState("ada", "prs", b.number, "closed");

    const open = await call("/repos/ada/prs/pulls", { token: CLASSIC });
    expect(open.status).toBe(200);
    expect(await titlesOf(open)).toEqual(["Docs", "Add sign-in"]);
    const all = await call("/repos/ada/prs/pulls?state=all&per_page=2", { token: CLASSIC });
    expect(await titlesOf(all)).toEqual(["Docs", "Tidy up"]);
    expect(all.headers.get("link")).toMatch(
      /\/repositories\/\d+\/pulls\?state=all&per_page=2&page=2>; rel="next"/,
    );
    const page2 = await call("/repos/ada/prs/pulls?state=all&per_page=2&page=2", { token: CLASSIC });
    const [first] = await json(page2);
    expect(first).toMatchObject({
      number: a.number,
      state: "open",
      title: "Add sign-in",
      body: `Closes #${issue.number}`,
      html_url: a.html_url,
      merged_at: null,
      closed_at: null,
      draft: false,
      user: { login: "ada" },
      base: { ref: "main", repo: { full_name: "ada/prs", default_branch: "main" } },
      head: { ref: `change-${a.number}` },
    });
    const asc = await call("/repos/ada/prs/pulls?state=closed&direction=asc", { token: CLASSIC });
    expect(await titlesOf(asc)).toEqual(["Tidy up"]);
    expect(await titlesOf(await call("/repos/ada/prs/pulls?base=other", { token: CLASSIC }))).toEqual([]);
    // The issues endpoint lists pull requests too, marked with `pull_request`.
    const issues = await json(await call("/repos/ada/prs/issues?state=all", { token: CLASSIC }));
    expect(issues.map((i: any) => [i.number, Boolean(i.pull_request)])).toEqual([
      [issue.number + 3, true],
      [issue.number + 2, true],
      [issue.number + 1, true],
      [issue.number, false],
    ]);
    // And a pull request's number answers as an issue, marked the same way.
    const one = await json(await call(`/repos/ada/prs/issues/${issue.number + 1}`, { token: CLASSIC }));
    expect(one).toMatchObject({ number: issue.number + 1, pull_request: expect.any(Object) });
  });

  it("merging into the default branch closes the issues a closing keyword names, and only those", async () => {
    gh.addRepo({ owner: "ada", name: "merge", files: ["x"] });
    const hook = await receiver();
    try {
      gh.addWebhook("ada", "merge", { url: hook.url, secret: "s3cret" });
      const n: number[] = [];
      for (let i = 0; i < 5; i++)
        n.push((await json(await post("/repos/ada/merge/issues", CLASSIC, { title: `Issue ${i}` }))).number);
      const pr = gh.createPullRequest("ada", "merge", {
        title: "Everything",
        body: `Fixes: #${n[0]}, resolves ada/merge#${n[1]}\nFixes issue #${n[2]}\nCloses other/repo#${n[3]}`,
      });
      const side = gh.createPullRequest("ada", "merge", {
        title: "Side",
        body: `Closes #${n[4]}`,
        base: "dev",
      });
      await gh.setPullRequestState("ada", "merge", pr.number, "merged");
      await gh.setPullRequestState("ada", "merge", side.number, "merged");
      const states = await json(
        await call("/repos/ada/merge/issues?state=all&per_page=100", { token: CLASSIC }),
      );
      const stateOf = (num: number) => states.find((i: any) => i.number === num);
      expect(n.map((num) => stateOf(num).state)).toEqual(["closed", "closed", "open", "open", "open"]);
      expect(stateOf(n[0]!).state_reason).toBe("completed");
      await gh.settleDeliveries();
      const issueEvents = hook.got.filter((d) => d.headers["x-github-event"] === "issues");
      expect(issueEvents.map((d) => [d.body.action, d.body.issue.number])).toEqual([
        ["closed", n[0]],
        ["closed", n[1]],
      ]);
      // Each pull request was announced when opened, and closed with `merged: true` when merged.
      const pullEvents = hook.got.filter((d) => d.headers["x-github-event"] === "pull_request");
      expect(pullEvents.map((d) => [d.body.action, d.body.number, d.body.pull_request.merged])).toEqual([
        ["opened", pr.number, false],
        ["opened", side.number, false],
        ["closed", pr.number, true],
        ["closed", side.number, true],
      ]);
      expect(pullEvents[2]!.body.pull_request).toMatchObject({
        state: "closed",
        body: expect.stringContaining("Fixes:"),
      });
      expect(pullEvents[2]!.body.repository).toMatchObject({
        full_name: "ada/merge",
        default_branch: "main",
      });
      const merged = (await json(await call("/repos/ada/merge/pulls?state=closed", { token: CLASSIC })))[1];
      expect(merged).toMatchObject({ number: pr.number, state: "closed" });
      expect(merged.merged_at).toEqual(merged.closed_at);
      expect(merged.merged_at).not.toBeNull();
    } finally {
      await hook.close();
    }
  });

  it("delivers a pull request's edits with what changed, and a close without a merge as merged: false", async () => {
    gh.addRepo({ owner: "ada", name: "edits", files: ["x"] });
    const hook = await receiver();
    try {
      gh.addWebhook("ada", "edits", { url: hook.url, secret: "s3cret" });
      const pr = gh.createPullRequest("ada", "edits", { title: "Draft", body: "Work in progress" });
      await gh.editPullRequest("ada", "edits", pr.number, { body: "Closes #1", base: "dev" });
      await gh.editPullRequest("ada", "edits", pr.number, { body: "Closes #1" }); // no change, no event
      await gh.setPullRequestState("ada", "edits", pr.number, "closed");
      await gh.setPullRequestState("ada", "edits", pr.number, "open");
      await gh.settleDeliveries();
      const events = hook.got.filter((d) => d.headers["x-github-event"] === "pull_request");
      expect(events.map((d) => d.body.action)).toEqual(["opened", "edited", "closed", "reopened"]);
      expect(events[1]!.body.changes).toEqual({
        body: { from: "Work in progress" },
        base: { ref: { from: "main" }, sha: { from: expect.any(String) } },
      });
      expect(events[1]!.body.pull_request).toMatchObject({ body: "Closes #1", base: { ref: "dev" } });
      expect(events[2]!.body.pull_request).toMatchObject({ state: "closed", merged: false, merged_at: null });
      expect(events[3]!.body.pull_request).toMatchObject({ state: "open", closed_at: null });
    } finally {
      await hook.close();
    }
  });

  it("checks pulls/list against GitHub's description, and keeps a private repository's pull requests from a token without the permission", async () => {
    const before = gh.openapiViolations.length;
    const bad = await call("/repos/ada/export/pulls?state=merged", { token: CLASSIC });
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toMatch(
      /pulls\/list: query parameter state \(value\) must be equal to one of the allowed values/,
    );
    expect((await call("/repos/ada/export/pulls?labels=x", { token: CLASSIC })).status).toBe(422);
    expect(gh.openapiViolations.length).toBe(before + 2);
    gh.openapiViolations.splice(before);

    gh.addToken({ token: "github_pat_noPulls", login: "ada", pullRequests: "none" });
    const hidden = await call("/repos/ada/secret/pulls", { token: "github_pat_noPulls" });
    expect(hidden.status).toBe(403);
    expect(hidden.headers.get("x-accepted-github-permissions")).toBe("pull_requests=read");
    expect((await call("/repos/ada/export/pulls", { token: "github_pat_noPulls" })).status).toBe(200);
    expect((await call("/repos/ada/secret/pulls", { token: FINE })).status).toBe(200);
    expect((await call("/repos/ada/secret/pulls", { token: CLASSIC_OTHER })).status).toBe(404);
  });
});

describe("POST /graphql", () => {
  const query = (q: string, variables: Record<string, unknown> = {}, token: string | undefined = CLASSIC) =>
    post("/graphql", token, { query: q, variables });

  it("answers a repository's pull requests with what each will close: keywords into the default branch and links by hand", async () => {
    gh.addRepo({ owner: "ada", name: "graph", files: ["x"] });
    const made = await post("/repos/ada/graph/issues", CLASSIC, { title: "One" });
    const issue = (await json(made)).number as number;
    const listed = gh.createPullRequest("ada", "graph", { title: "Listed", body: `- fixes #${issue}` });
    const prose = gh.createPullRequest("ada", "graph", { title: "Prose", body: `Fixes #${issue}` });
    const dev = gh.createPullRequest("ada", "graph", { title: "Dev", body: `Fixes #${issue}`, base: "dev" });
    const byHand = gh.createPullRequest("ada", "graph", { title: "Hand", body: "" });
    gh.linkPullRequest("ada", "graph", byHand.number, issue);
    const res = await query(
      `query ($o: String!, $n: String!) { repository(owner: $o, name: $n) {
        pullRequests(first: 10, orderBy: { field: CREATED_AT, direction: ASC }) {
          pageInfo { hasNextPage } nodes { number state closingIssuesReferences(first: 5) { nodes { number } } } } } }`,
      { o: "ada", n: "graph" },
    );
    expect(res.status).toBe(200);
    const nodes = (await json(res)).data.repository.pullRequests.nodes as Array<{
      number: number;
      closingIssuesReferences: { nodes: Array<{ number: number }> };
    }>;
    const closes = Object.fromEntries(
      nodes.map((n) => [n.number, n.closingIssuesReferences.nodes.map((i) => i.number)]),
    );
    expect(closes).toEqual({
      [listed.number]: [],
      [prose.number]: [issue],
      [dev.number]: [],
      [byHand.number]: [issue],
    });
  });

  it("refuses what GitHub's schema does not have, connections without first or past 100, and callers without a token", async () => {
    const bad = await json(await query('{ repository(owner: "ada", name: "demo") { stars } }'));
    expect(bad.data).toBeUndefined();
    expect(bad.errors[0].message).toMatch(/Cannot query field "stars" on type "Repository"/);
    const unpaged = await json(
      await query('{ repository(owner: "ada", name: "demo") { pullRequests { totalCount } } }'),
    );
    expect(unpaged.errors[0].message).toBe(
      "You must provide a `first` or `last` value to properly paginate the `pullRequests` connection.",
    );
    const many = await json(
      await query('{ repository(owner: "ada", name: "demo") { pullRequests(first: 101) { totalCount } } }'),
    );
    expect(many.errors[0].message).toBe(
      "Requesting 101 records on the `pullRequests` connection exceeds the `first` limit of 100 records.",
    );
    const hidden = await json(
      await query('{ repository(owner: "ada", name: "secret") { name } }', {}, CLASSIC_NO_SCOPES),
    );
    expect(hidden.data.repository).toBeNull();
    expect(hidden.errors[0]).toMatchObject({ type: "NOT_FOUND" });
    expect((await post("/graphql", undefined, { query: "{ rateLimit { cost } }" })).status).toBe(401);
    gh.refuseGraphql("Resource protected by organization SAML enforcement.");
    try {
      expect((await query("{ rateLimit { cost } }")).status).toBe(403);
    } finally {
      gh.refuseGraphql(null);
    }
  });
});
