/**
 * A local, in-process fake of the GitHub REST API (api.github.com) on the fake-server kit (kit.ts), for
 * integration tests. Point GITHUB_API_URL at `fake.url`.
 *
 * It covers what Atomize uses (token check via `GET /user`, repository metadata, README,
 * git trees, issue/label export, sub-issues) and mimics GitHub's observable behaviour where
 * our code could depend on it:
 * - `Authorization: Bearer <t>` or `token <t>`; an unknown token is 401 "Bad credentials" on
 *   every endpoint, even for public data.
 * - Classic tokens get `X-OAuth-Scopes` (+ `X-Accepted-OAuth-Scopes`); fine-grained tokens
 *   (`github_pat_…` or `fineGrained: true`) get neither.
 * - Private repositories are 404 (never 403) to anyone who cannot read them; reading one with a
 *   classic token also needs the `repo` scope. Owner and repo names are case-insensitive.
 * - README `content` is base64 wrapped every 60 characters with a trailing newline (Ruby's
 *   `Base64.encode64`, as GitHub sends it); `sha`s are real git blob/tree hashes.
 * - Trees: `recursive` present with any value (even "0" or "false") recurses; entries come in
 *   git order, pre-order; more entries than `treeLimit` -> first `treeLimit` + `truncated: true`.
 *   An empty repository answers 409 "Git Repository is empty.".
 * - Primary rate limit per user (authenticated) or per client IP (anonymous, and requests with
 *   bad credentials); `x-ratelimit-*` headers on every response; exhausted -> 403 with
 *   `x-ratelimit-remaining: 0`. `GET /rate_limit` does not count, like GitHub.
 * - Issues: anyone who can read a repo may open issues, but labels are silently dropped unless
 *   the caller has push access (here: the token's login owns the repo), and unknown labels are
 *   created on the fly; new repositories start with GitHub's nine default labels.
 *   Creating labels / adding sub-issues needs push access (else 403).
 * - Issue dependencies ("blocked by"), `POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/
 *   blocked_by` with `{ issue_id }` (the blocking issue's numeric id, not its number), per GitHub's REST
 *   reference (https://docs.github.com/rest/issues/issue-dependencies, operation
 *   `issues/add-blocked-by-dependency`: 201 with the blocked issue, or 301/403/404/410/422). Push access
 *   is needed (403); an unknown or unreadable blocking issue is 404; a missing or non-integer `issue_id`,
 *   an issue blocking itself, or a repeated pair is 422 (the wording of these 422s is ours: GitHub's
 *   reference names the status, not the text). A repository created with `dependencies: false` answers
 *   404 there, as a GitHub Enterprise Server without the feature does for a route it does not know.
 * - Writes with a classic token need `public_repo`/`repo` (`repo` for private repos), else 404;
 *   a fine-grained token writing to a repo it was not granted gets 403
 *   "Resource not accessible by personal access token".
 * - List endpoints paginate (`per_page` default 30, max 100) with a `Link` header whose URLs use
 *   the `/repositories/{id}/…` form, as GitHub's do; those URLs are served too.
 * - Requests without a User-Agent are refused (403), as GitHub does (Node's fetch sends one).
 *
 * Deliberate simplifications: every account is a "User"; push access = owning the repository
 * (`canSee` grants read access only); only the default branch exists; files listed without
 * content get the synthetic content `${path}\n`; web URLs (`html_url`, `download_url`) point
 * at github.com / raw.githubusercontent.com while API URLs point at this fake.
 *
 * - Every request is checked against GitHub's official OpenAPI description (github-openapi.ts: the
 *   operations served here, from the `@octokit/openapi` package): a request no operation describes, an
 *   unknown query parameter, or a value or body the schema does not allow is answered 422 "Invalid
 *   request." and recorded in `openapiViolations`, which export tests assert stays empty.
 * - Secondary rate limits triggered by volume, as GitHub documents them ("Rate limits for the REST API",
 *   docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits):
 *   no more than 80 content-creating requests a minute and 500 an hour per user; past either, a
 *   content-creating request (a POST, PATCH, PUT or DELETE) gets 403 with the secondary-limit message and
 *   no `retry-after` (GitHub: then wait at least a minute). Every content-creating request before that
 *   minute has passed is refused too, and the minute's count starts again after it. `setContentLimits`
 *   scales them for tests (`cooldownMs` is the wait).
 * - A write whose answer is lost: `server.faults.loseAnswer({ method: "POST", path })` (the kit's mode).
 * - Labels, per GitHub's REST reference (https://docs.github.com/rest/issues/labels) and its OpenAPI
 *   description: `PATCH .../issues/{n}` with `labels` REPLACES the issue's whole set ("Set labels" semantics);
 *   `POST .../issues/{n}/labels` (issues/add-labels, `{labels: [...]}`) adds to the existing set, creating
 *   unknown labels, and answers 200 with every label the issue now has; `DELETE .../issues/{n}/labels/{name}`
 *   (issues/remove-label) answers 200 with the remaining labels, or 404 "Label does not exist" when the
 *   issue does not carry it ("This endpoint returns a 404 Not Found status if the label does not exist";
 *   the message as github.com sends it, seen in ankidroid/Anki-Android#17548). Both need push access here.
 *   A person adds labels in a test through this API with the owner's token.
 * - Sub-issues: a second add of an issue already under this parent is 422 "An error occurred while adding
 *   the sub-issue to the parent issue. Issue may not contain duplicate sub-issues and Sub issue may only
 *   have one parent" (both validations fail; the two messages joined by Rails' `to_sentence`), an issue
 *   under another parent (without `replace_parent`) is 422 "... Sub issue may only have one parent". The
 *   body is GitHub's plain error (`message`, `documentation_url`, `status`) with no `errors` array: the
 *   text recorded live against github.com (phmatray's wiring tests, 2026-08-31) and in clients' stubs of it.
 * - Repositories have numeric ids that never change, renames included. `renameRepo` renames one as a
 *   person would on github.com: API requests to the old name are redirected to
 *   `/repositories/{id}/...`, 301 for GET/HEAD and 307 for other methods (the REST docs' "HTTP
 *   redirects": follow 301 permanently, 302/307 temporarily); GitHub's API change notice "Repository
 *   redirects are coming" (developer.github.com/changes, 2015) gives 301 for GET and 307 for other verbs.
 * - Webhooks (`addWebhook`, kept by repository id, so they survive a rename) receive `issues` events
 *   signed as GitHub signs them (X-Hub-Signature-256, HMAC-SHA256 of the body), with `repository: {id,
 *   node_id, name, full_name, owner, ...}` under its current name, per GitHub's webhook reference
 *   (https://docs.github.com/webhooks/webhook-events-and-payloads#issues): `edited` with `changes.title.from`
 *   / `changes.body.from` when a PATCH changes the title or body (whoever sends it, Atomize included),
 *   `closed` / `reopened` when it changes the state. `state_reason` takes the OpenAPI's values (completed,
 *   not_planned, duplicate, reopened). Deliveries are sent after the answer, as GitHub's are;
 *   `settleDeliveries()` waits for them and `deliveries` lists them.
 *
 * - Pull requests (`createPullRequest`, `setPullRequestState`), listed by `GET /repos/{owner}/{repo}/pulls`
 *   (pulls/list in GitHub's OpenAPI description: `state` open/closed/all, default open; `head` as
 *   `user:ref`; `base`; `sort` created (default) or updated, popularity and long-running read as created;
 *   `direction` desc by default for created, else asc; paged with `Link` like every list), each in GitHub's
 *   `pull-request-simple` shape (`merged_at` set once merged, whose `state` is then "closed"; `base.repo`
 *   with its `default_branch`). Pull requests share the repository's numbers with issues, and
 *   `GET .../issues` lists them too and `GET .../issues/{n}` answers for them, with a `pull_request` object, as GitHub's REST reference says ("GitHub's
 *   REST API considers every pull request an issue", https://docs.github.com/rest/issues/issues#list-repository-issues).
 *   A fine-grained token without the "Pull requests" permission (`pullRequests: "none"`) gets 403 on a
 *   private repository's pull requests (public ones are readable by any token). Merging a pull request into
 *   the default branch closes the issues of the same repository its description names after a closing
 *   keyword, as "Linking a pull request to an issue" describes
 *   (https://docs.github.com/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue#linking-a-pull-request-to-an-issue-using-a-keyword:
 *   close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved, then `#10` or `owner/repo#10`;
 *   "the PR must be on the default branch"), and delivers their `closed` events; a keyword followed by
 *   anything else ("Fixes issue #615") links nothing, as on github.com; nor does a keyword in a list item
 *   ("- fixes #3", issue 43's reading of GitHub's rule). An issue linked by hand in the Development sidebar
 *   (`linkPullRequest`) is closed too. What a pull request will close is what GraphQL's
 *   `closingIssuesReferences` answers (`POST /graphql`, github-graphql.ts: GitHub's own set of links, which
 *   REST does not show); `refuseGraphql(message)` makes `/graphql` answer 403. Opening, editing (`editPullRequest`),
 *   closing, reopening and merging a pull request deliver `pull_request` events to the repository's
 *   webhooks, per GitHub's webhook reference (https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request):
 *   `number`, the pull request with `merged`, a merge being a `closed` action with `merged: true`, and on
 *   `edited` the `changes` (`title.from`, `body.from`, `base.ref.from`).
 *
 * `setMode` modes apply before anything else (auth, rate limit) and stay until changed, or for
 * the next `times` requests only.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { type GraphRepo, runGraphql } from "./github-graphql";
import { openapiProblems } from "./github-openapi";
import {
  type FakeRequest,
  type FakeServer,
  jsonReply,
  type Reply,
  Router,
  startFakeServer,
  textReply,
  withHeaders,
} from "./kit";

export type FakeGitHubRepo = {
  owner: string;
  name: string;
  private?: boolean;
  /** Defaults to "main". */
  defaultBranch?: string;
  description?: string;
  /**
   * README content. A string adds `README.md` at the root unless `files` already has a README
   * (root, `.github/` or `docs/`, GitHub's search order). `null`: the repo has no README (404).
   */
  readme?: string | null;
  /**
   * File paths, or paths with their text (a path alone holds its own path and a newline); directories are
   * implied. No files and no README: an empty repository.
   */
  files?: (string | { path: string; content: string })[];
  /** Defaults to true; false makes issue endpoints answer 410. */
  hasIssues?: boolean;
  /** Initial labels; defaults to GitHub's default set (bug, documentation, …). */
  labels?: string[];
  /** Defaults to true; false: the issue-dependencies endpoints answer 404 (a server without them). */
  dependencies?: boolean;
};

export type FakeGitHubToken = {
  token: string;
  login: string;
  name?: string;
  /** Classic token scopes, e.g. ["repo", "read:user"]; defaults to none. */
  scopes?: string[];
  /** Defaults to true for tokens starting with "github_pat_". */
  fineGrained?: boolean;
  /** Defaults to the number of public repos added with this owner. */
  publicRepos?: number;
  /** "owner/name" of private repos (owned by others) this token can read. */
  canSee?: string[];
  /** A fine-grained token's "Issues" repository permission (default "write"). */
  issues?: "write" | "read";
  /** A fine-grained token's "Pull requests" repository permission (default "read"). */
  pullRequests?: "read" | "none";
};

export type FakeGitHubMode = "ok" | "server_error" | "secondary_rate_limit" | "slow";

export type FakeGitHub = {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:PORT (our GITHUB_API_URL). */
  url: string;
  /** Adds (or replaces, issues and labels included) a repository. */
  addRepo(repo: FakeGitHubRepo): void;
  addToken(token: FakeGitHubToken): void;
  /** Sets the hourly budgets (defaults 5000 / 60) and resets all counters. */
  setRateLimit(opts: { authenticated?: number; unauthenticated?: number }): void;
  /**
   * "server_error": 502 for every request; "secondary_rate_limit": 429 (or `status` 403, which GitHub
   * also sends) with `retry-after` (`retryAfter` seconds, default 60; null: no header, as GitHub may
   * do); "slow": answers after `delayMs` (default 10 s).
   * With `times`, only the next `times` requests are affected, then the mode reverts to "ok".
   */
  setMode(
    mode: FakeGitHubMode,
    opts?: { times?: number; retryAfter?: number | null; delayMs?: number; status?: 403 | 429 },
  ): void;
  /** Issues in creation order; subIssues are issue numbers. */
  issues(
    owner: string,
    repo: string,
  ): Array<{
    number: number;
    title: string;
    body: string;
    labels: string[];
    subIssues: number[];
    /** Numbers of the issues this one is blocked by. */
    blockedBy: number[];
  }>;
  labels(owner: string, repo: string): string[];
  /**
   * Opens a pull request as a person would on github.com (its number is the repository's next, shared
   * with issues). `base` defaults to the default branch, `head` to "change-{number}", `author` to the owner.
   */
  createPullRequest(
    owner: string,
    repo: string,
    pr: {
      title: string;
      body?: string | null;
      head?: string;
      base?: string;
      author?: string;
      draft?: boolean;
    },
  ): { number: number; html_url: string };
  /**
   * Closes, reopens or merges a pull request. A merge into the default branch closes (as completed) the
   * issues its description closes with a keyword and delivers their `closed` events, as GitHub does.
   */
  setPullRequestState(
    owner: string,
    repo: string,
    number: number,
    state: "open" | "closed" | "merged",
  ): Promise<void>;
  /**
   * Links an issue to a pull request by hand, as the Development sidebar does: the pull request will
   * close it whatever its description says (GraphQL's `closingIssuesReferences`; REST does not show it).
   */
  linkPullRequest(owner: string, repo: string, pullNumber: number, issueNumber: number): void;
  /** `POST /graphql` answers 403 with this message (an organisation's SAML rule, say); null: it answers. */
  refuseGraphql(message: string | null): void;
  /**
   * Edits a pull request's title, description or base branch as a person would, and delivers its
   * `pull_request` `edited` event with `changes` (what each changed field was).
   */
  editPullRequest(
    owner: string,
    repo: string,
    number: number,
    edit: { title?: string; body?: string | null; base?: string },
  ): Promise<void>;
  /**
   * Closes or reopens an issue, as a person would on github.com, and delivers an `issues` event to the
   * repository's webhooks (signed as GitHub signs them: X-Hub-Signature-256, HMAC-SHA256 of the body).
   */
  setIssueState(
    owner: string,
    repo: string,
    number: number,
    state: "open" | "closed",
    reason?: "completed" | "not_planned" | "duplicate",
  ): Promise<Array<{ status: number }>>;
  /** A repository webhook (kept by the repository's id): `issues` events are POSTed to `url`, signed with `secret`. */
  addWebhook(owner: string, repo: string, hook: { url: string; secret: string }): void;
  /** Renames a repository (its id stays): the old name answers 301 (reads) or 307 (writes) to the new location. */
  renameRepo(owner: string, from: string, to: string): void;
  /** The repository's numeric id (GitHub's `id`, which a rename keeps). */
  repoId(owner: string, repo: string): number;
  /** Webhook deliveries sent after API writes (PATCH of an issue), in order, with the answer each got. */
  readonly deliveries: Array<{
    event: string;
    action: string;
    payload: Record<string, unknown>;
    status: number;
  }>;
  /** Waits until every delivery under way has been answered. */
  settleDeliveries(): Promise<void>;
  /** Sub-issues a parent may have (GitHub: 100). */
  setSubIssueLimit(n: number): void;
  /**
   * Content-creating requests allowed per user in a minute and in an hour (GitHub: 80 and 500), and the
   * wait GitHub asks for after refusing one (at least a minute).
   */
  setContentLimits(opts: {
    perMinute?: number;
    perHour?: number;
    minuteMs?: number;
    hourMs?: number;
    cooldownMs?: number;
  }): void;
  /** Requests that broke GitHub's OpenAPI description (each was answered 422). */
  readonly openapiViolations: string[];
  /** Every request received; `path` includes the query string, `auth` is the raw Authorization header. */
  readonly requests: Array<{ method: string; path: string; auth: string | null }>;
  /** The kit underneath: its full request log and failure modes (`setMode` replaces the armed ones). */
  server: FakeServer;
  /** Destroys open sockets and pending "slow" timers. */
  close(): Promise<void>;
};

const DEFAULT_AUTH_LIMIT = 5000;
const DEFAULT_ANON_LIMIT = 60;
const RATE_WINDOW_S = 3600;
const DEFAULT_TREE_LIMIT = 100_000; // GitHub: 100,000 entries (or 7 MB) per recursive tree
const DEFAULT_SLOW_MS = 10_000;
const DEFAULT_RETRY_AFTER_S = 60;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_TITLE = 256;
/** A Markdown list item's line: "- ", "* ", "+ " or "1. " first. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const MAX_ISSUE_BODY = 65_536;
const MAX_SUB_ISSUES = 100;
const CREATED_AT = "2024-01-15T09:30:00Z";

const DOCS = {
  root: "https://docs.github.com/rest",
  user: "https://docs.github.com/rest/users/users#get-the-authenticated-user",
  repo: "https://docs.github.com/rest/repos/repos#get-a-repository",
  readme: "https://docs.github.com/rest/repos/contents#get-a-repository-readme",
  tree: "https://docs.github.com/rest/git/trees#get-a-tree",
  blob: "https://docs.github.com/rest/git/blobs#get-a-blob",
  createIssue: "https://docs.github.com/rest/issues/issues#create-an-issue",
  listIssues: "https://docs.github.com/rest/issues/issues#list-repository-issues",
  getIssue: "https://docs.github.com/rest/issues/issues#get-an-issue",
  updateIssue: "https://docs.github.com/rest/issues/issues#update-an-issue",
  issuesDisabled: "https://docs.github.com/v3/issues/",
  createLabel: "https://docs.github.com/rest/issues/labels#create-a-label",
  listLabels: "https://docs.github.com/rest/issues/labels#list-labels-for-a-repository",
  addSubIssue: "https://docs.github.com/rest/issues/sub-issues#add-sub-issue",
  addBlockedBy:
    "https://docs.github.com/rest/issues/issue-dependencies#add-a-dependency-an-issue-is-blocked-by",
  listSubIssues: "https://docs.github.com/rest/issues/sub-issues#list-sub-issues",
  listPulls: "https://docs.github.com/rest/pulls/pulls#list-pull-requests",
  graphql: "https://docs.github.com/graphql",
  addLabels: "https://docs.github.com/rest/issues/labels#add-labels-to-an-issue",
  removeLabel: "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue",
  rateLimitAuth: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
  rateLimitAnon: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
  secondary:
    "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
} as const;

const GITHUB_DEFAULT_LABELS: Array<{ name: string; color: string; description: string }> = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
  { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "invalid", color: "e4e669", description: "This doesn't seem right" },
  { name: "question", color: "d876e3", description: "Further information is requested" },
  { name: "wontfix", color: "ffffff", description: "This will not be worked on" },
];

// ---------------------------------------------------------------------------------------------
// Git objects

type TreeEntry = { name: string; type: "blob" | "tree"; sha: string; size?: number; node?: TreeNode };
type TreeNode = { sha: string; entries: TreeEntry[] };
type Blob = { sha: string; content: Buffer };

const sha1 = (...parts: Buffer[]) => createHash("sha1").update(Buffer.concat(parts)).digest("hex");
const gitBlobSha = (content: Buffer) => sha1(Buffer.from(`blob ${content.length}\0`), content);

/** Git's tree order: byte-wise by name, directories compared as if their name ended in "/". */
const gitOrder = (a: TreeEntry, b: TreeEntry) =>
  Buffer.compare(
    Buffer.from(a.type === "tree" ? `${a.name}/` : a.name),
    Buffer.from(b.type === "tree" ? `${b.name}/` : b.name),
  );

type DirBuilder = Map<string, DirBuilder | Buffer>;

function buildTree(dir: DirBuilder, blobs: Map<string, Blob>, trees: Map<string, TreeNode>): TreeNode {
  const entries: TreeEntry[] = [];
  for (const [name, child] of dir) {
    if (child instanceof Map) {
      const node = buildTree(child, blobs, trees);
      entries.push({ name, type: "tree", sha: node.sha, node });
    } else {
      const sha = gitBlobSha(child);
      blobs.set(sha, { sha, content: child });
      entries.push({ name, type: "blob", sha, size: child.length });
    }
  }
  entries.sort(gitOrder);
  const body = Buffer.concat(
    entries.flatMap((e) => [
      Buffer.from(`${e.type === "tree" ? "40000" : "100644"} ${e.name}\0`),
      Buffer.from(e.sha, "hex"),
    ]),
  );
  const node: TreeNode = { sha: sha1(Buffer.from(`tree ${body.length}\0`), body), entries };
  trees.set(node.sha, node);
  return node;
}

/** Ruby's Base64.encode64, which GitHub uses for `content`: lines of 60 chars, each ending in "\n". */
function githubBase64(content: Buffer): string {
  const b64 = content.toString("base64");
  let out = "";
  for (let i = 0; i < b64.length; i += 60) out += `${b64.slice(i, i + 60)}\n`;
  return out;
}

// ---------------------------------------------------------------------------------------------
// State

type User = { id: number; login: string; name: string | null };
type Label = { id: number; name: string; color: string; description: string | null; isDefault: boolean };
type Issue = {
  id: number;
  number: number;
  title: string;
  body: string | null;
  labels: Label[];
  author: User;
  createdAt: string;
  parentId: number | null;
  subIssueIds: number[];
  /** Ids of the issues blocking this one. */
  blockedByIds: number[];
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "duplicate" | "reopened" | null;
};
type PullRequest = {
  id: number;
  number: number;
  title: string;
  body: string | null;
  author: User;
  head: string;
  base: string;
  draft: boolean;
  /** A merged pull request is "closed" with `mergedAt` set, as GitHub reports it. */
  state: "open" | "closed";
  mergedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Issues linked by hand in the pull request's Development sidebar: it closes them too. */
  manualLinks: number[];
};
type Repo = {
  id: number;
  owner: User;
  name: string;
  private: boolean;
  defaultBranch: string;
  description: string | null;
  hasIssues: boolean;
  dependencies: boolean;
  root: TreeNode | null;
  trees: Map<string, TreeNode>;
  blobs: Map<string, Blob>;
  readme: { path: string; sha: string; content: Buffer } | null;
  labels: Label[];
  issues: Issue[];
  pulls: PullRequest[];
  /** Issues and pull requests share one sequence of numbers, as on GitHub. */
  nextNumber: number;
};
type Token = {
  user: User;
  fineGrained: boolean;
  issues: "write" | "read";
  pullRequests: "read" | "none";
  scopes: string[];
  publicRepos: number | undefined;
  canSee: Set<string>;
};
type Bucket = { used: number; resetAt: number };

type Ctx = {
  req: FakeRequest;
  token: Token | null;
  /** Headers of the answer, errors included: GitHub's, then scopes and rate limits as they are known. */
  headers: Record<string, string>;
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly docs: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const notFound = (docs: string, message = "Not Found") => new HttpError(404, message, docs);
const validationFailed = (docs: string, ...errors: Array<Record<string, unknown>>) =>
  new HttpError(422, "Validation Failed", docs, { errors });

const key = (owner: string, name: string) => `${owner}/${name}`.toLowerCase();
const nowS = () => Math.floor(Date.now() / 1000);
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const nodeId = (prefix: string, id: number) =>
  `${prefix}_kwDO${Buffer.from(`fake:${id}`).toString("base64url")}`;
const README_RE = /^readme(\.[^/]*)?$/i;

/** GitHub's error body (a 502 from its edge is just the message). */
const errorJson = (err: HttpError) =>
  err.status === 502
    ? { message: err.message }
    : { message: err.message, ...err.extra, documentation_url: err.docs, status: String(err.status) };

/** A JSON object body; an empty one is `{}`, as GitHub takes it. */
function readJsonObject(req: FakeRequest, docs: string): Record<string, unknown> {
  if (req.text().trim() === "") return {};
  const data = req.json(() => new HttpError(400, "Problems parsing JSON", docs));
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new HttpError(400, "Problems parsing JSON", docs);
  return data as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------

export async function startFakeGitHub(
  opts: {
    host?: string;
    port?: number /** entries per tree response before truncation */;
    treeLimit?: number;
  } = {},
): Promise<FakeGitHub> {
  const treeLimit = opts.treeLimit ?? DEFAULT_TREE_LIMIT;
  let base = ""; // known once listening

  const users = new Map<string, User>();
  const tokens = new Map<string, Token>();
  const repos = new Map<string, Repo>();
  const reposById = new Map<number, Repo>();
  const issuesById = new Map<number, { repo: Repo; issue: Issue }>();
  const buckets = new Map<string, Bucket>();
  const limits = { authenticated: DEFAULT_AUTH_LIMIT, unauthenticated: DEFAULT_ANON_LIMIT };
  let nextUserId = 583_231;
  let nextRepoId = 712_345_001;
  let nextIssueId = 2_845_000_001;
  let nextLabelId = 6_100_000_001;

  const userFor = (login: string, name?: string): User => {
    const existing = users.get(login.toLowerCase());
    if (existing) {
      if (name !== undefined) existing.name = name;
      return existing;
    }
    const user: User = { id: nextUserId++, login, name: name ?? null };
    users.set(login.toLowerCase(), user);
    return user;
  };

  const makeLabel = (
    name: string,
    color = "ededed",
    description: string | null = null,
    isDefault = false,
  ) => ({
    id: nextLabelId++,
    name,
    color,
    description,
    isDefault,
  });

  // ----- JSON shapes ---------------------------------------------------------------------------

  const userJson = (u: User) => ({
    login: u.login,
    id: u.id,
    node_id: nodeId("U", u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: "",
    url: `${base}/users/${u.login}`,
    html_url: `https://github.com/${u.login}`,
    type: "User",
    user_view_type: "public",
    site_admin: false,
  });

  const repoApi = (r: Repo) => `${base}/repos/${r.owner.login}/${r.name}`;

  const isOwner = (r: Repo, t: Token | null) => t !== null && t.user.id === r.owner.id;

  const repoJson = (r: Repo, t: Token | null) => {
    const api = repoApi(r);
    const push = isOwner(r, t);
    return {
      id: r.id,
      node_id: nodeId("R", r.id),
      name: r.name,
      full_name: `${r.owner.login}/${r.name}`,
      private: r.private,
      owner: userJson(r.owner),
      html_url: `https://github.com/${r.owner.login}/${r.name}`,
      description: r.description,
      fork: false,
      url: api,
      issues_url: `${api}/issues{/number}`,
      labels_url: `${api}/labels{/name}`,
      trees_url: `${api}/git/trees{/sha}`,
      contents_url: `${api}/contents/{+path}`,
      created_at: CREATED_AT,
      updated_at: CREATED_AT,
      pushed_at: CREATED_AT,
      git_url: `git://github.com/${r.owner.login}/${r.name}.git`,
      clone_url: `https://github.com/${r.owner.login}/${r.name}.git`,
      homepage: null,
      size: [...r.blobs.values()].reduce((n, b) => n + b.content.length, 0) >> 10,
      stargazers_count: 0,
      watchers_count: 0,
      language: null,
      has_issues: r.hasIssues,
      has_projects: true,
      has_wiki: true,
      archived: false,
      disabled: false,
      open_issues_count: r.issues.length,
      license: null,
      topics: [],
      visibility: r.private ? "private" : "public",
      forks: 0,
      open_issues: r.issues.length,
      watchers: 0,
      default_branch: r.defaultBranch,
      ...(t ? { permissions: { admin: push, maintain: push, push, triage: push, pull: true } } : {}),
      network_count: 0,
      subscribers_count: 0,
    };
  };

  const labelJson = (r: Repo, l: Label) => ({
    id: l.id,
    node_id: nodeId("LA", l.id),
    url: `${repoApi(r)}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: l.isDefault,
    description: l.description,
  });

  const issueJson = (r: Repo, i: Issue) => {
    const api = `${repoApi(r)}/issues/${i.number}`;
    return {
      url: api,
      repository_url: repoApi(r),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: `https://github.com/${r.owner.login}/${r.name}/issues/${i.number}`,
      id: i.id,
      node_id: nodeId("I", i.id),
      number: i.number,
      title: i.title,
      user: userJson(i.author),
      labels: i.labels.map((l) => labelJson(r, l)),
      state: i.state,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: 0,
      created_at: i.createdAt,
      updated_at: i.createdAt,
      closed_at: null,
      author_association: i.author.id === r.owner.id ? "OWNER" : "NONE",
      type: null,
      active_lock_reason: null,
      sub_issues_summary: { total: i.subIssueIds.length, completed: 0, percent_completed: 0 },
      body: i.body,
      closed_by: null,
      timeline_url: `${api}/timeline`,
      performed_via_github_app: null,
      state_reason: i.stateReason,
    };
  };

  const pullHtml = (r: Repo, p: PullRequest) =>
    `https://github.com/${r.owner.login}/${r.name}/pull/${p.number}`;
  const branchSha = (r: Repo, ref: string) => sha1(Buffer.from(`fake branch ${r.id} ${ref}`));

  /** GitHub's `pull-request-simple`, what `GET .../pulls` lists. */
  const pullJson = (r: Repo, p: PullRequest, t: Token | null) => {
    const api = `${repoApi(r)}/pulls/${p.number}`;
    const issue = `${repoApi(r)}/issues/${p.number}`;
    const html = pullHtml(r, p);
    const headSha = branchSha(r, p.head);
    const branch = (ref: string) => ({
      label: `${r.owner.login}:${ref}`,
      ref,
      sha: branchSha(r, ref),
      user: userJson(r.owner),
      repo: repoJson(r, t),
    });
    const href = (h: string) => ({ href: h });
    return {
      url: api,
      id: p.id,
      node_id: nodeId("PR", p.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: `${repoApi(r)}/pulls/comments{/number}`,
      comments_url: `${issue}/comments`,
      statuses_url: `${repoApi(r)}/statuses/${headSha}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user: userJson(p.author),
      body: p.body,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
      closed_at: p.closedAt,
      merged_at: p.mergedAt,
      merge_commit_sha: p.mergedAt ? sha1(Buffer.from(`fake merge ${p.id}`)) : null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: { ...branch(p.head), sha: headSha },
      base: branch(p.base),
      _links: {
        self: href(api),
        html: href(html),
        issue: href(issue),
        comments: href(`${issue}/comments`),
        review_comments: href(`${api}/comments`),
        review_comment: href(`${repoApi(r)}/pulls/comments{/number}`),
        commits: href(`${api}/commits`),
        statuses: href(`${repoApi(r)}/statuses/${headSha}`),
      },
      author_association: p.author.id === r.owner.id ? "OWNER" : "NONE",
      auto_merge: null,
      draft: p.draft,
    };
  };

  /** A pull request as `GET .../issues` lists it: an issue with a `pull_request` object. */
  const pullAsIssueJson = (r: Repo, p: PullRequest) => {
    const api = `${repoApi(r)}/issues/${p.number}`;
    const html = pullHtml(r, p);
    return {
      url: api,
      repository_url: repoApi(r),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: html,
      id: p.id,
      node_id: nodeId("PR", p.id),
      number: p.number,
      title: p.title,
      user: userJson(p.author),
      labels: [],
      state: p.state,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: 0,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
      closed_at: p.closedAt,
      author_association: p.author.id === r.owner.id ? "OWNER" : "NONE",
      active_lock_reason: null,
      draft: p.draft,
      pull_request: {
        url: `${repoApi(r)}/pulls/${p.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: p.mergedAt,
      },
      body: p.body,
      timeline_url: `${api}/timeline`,
      performed_via_github_app: null,
      state_reason: null,
    };
  };

  // ----- Access control ------------------------------------------------------------------------

  const hasScope = (t: Token, scope: "repo" | "public_repo") =>
    t.scopes.includes("repo") || (scope === "public_repo" && t.scopes.includes("public_repo"));

  const grantedExplicitly = (r: Repo, t: Token) => isOwner(r, t) || t.canSee.has(key(r.owner.login, r.name));

  const canRead = (r: Repo, t: Token | null) => {
    if (!r.private) return true;
    if (!t || !grantedExplicitly(r, t)) return false;
    return t.fineGrained || hasScope(t, "repo");
  };

  /** Look up a visible repository; hidden ones are indistinguishable from missing ones. */
  const findRepo = (ctx: Ctx, ref: { owner: string; name: string } | { id: number }, docs: string): Repo => {
    const repo = "id" in ref ? reposById.get(ref.id) : repos.get(key(ref.owner, ref.name));
    if (!repo && !("id" in ref)) {
      const moved = renamed.get(key(ref.owner, ref.name));
      if (moved && canRead(moved, ctx.token)) {
        // A renamed repository: GitHub answers 301 for a read and 307 for a write, to the new location.
        const rest = ctx.req.url.pathname.replace(/^\/repos\/[^/]+\/[^/]+/, "");
        throw new HttpError(["GET", "HEAD"].includes(ctx.req.method) ? 301 : 307, "Moved Permanently", docs, {
          url: `${base}/repositories/${moved.id}${rest}${ctx.req.url.search}`,
        });
      }
    }
    if (!repo || !canRead(repo, ctx.token)) throw notFound(docs);
    if (ctx.token && !ctx.token.fineGrained) ctx.headers["X-Accepted-OAuth-Scopes"] = "repo";
    return repo;
  };

  /** Gate for writes: the caller must be signed in and hold a token allowed to write here. */
  const requireWriter = (ctx: Ctx, r: Repo, docs: string, needPush: boolean): Token => {
    const t = ctx.token;
    if (!t) throw new HttpError(401, "Requires authentication", docs);
    if (t.fineGrained) {
      if (!grantedExplicitly(r, t) || t.issues !== "write") {
        // GitHub names the permission the request needed.
        ctx.headers["X-Accepted-GitHub-Permissions"] = "issues=write";
        throw new HttpError(403, "Resource not accessible by personal access token", docs);
      }
    } else if (!hasScope(t, r.private ? "repo" : "public_repo")) {
      throw notFound(docs);
    }
    if (needPush && !isOwner(r, t)) throw new HttpError(403, "Must have admin rights to Repository.", docs);
    return t;
  };

  const ensureIssuesEnabled = (r: Repo) => {
    if (!r.hasIssues) throw new HttpError(410, "Issues are disabled for this repo", DOCS.issuesDisabled);
  };

  // ----- Rate limiting -------------------------------------------------------------------------

  const bucketFor = (ctx: Ctx) => {
    const id = ctx.token ? `user:${ctx.token.user.id}` : `ip:${ctx.req.remoteAddress}`;
    const limit = ctx.token ? limits.authenticated : limits.unauthenticated;
    let bucket = buckets.get(id);
    if (!bucket || bucket.resetAt <= nowS()) {
      bucket = { used: 0, resetAt: nowS() + RATE_WINDOW_S };
      buckets.set(id, bucket);
    }
    return { bucket, limit };
  };

  const setRateHeaders = (ctx: Ctx, bucket: Bucket, limit: number) => {
    ctx.headers["x-ratelimit-limit"] = String(limit);
    ctx.headers["x-ratelimit-remaining"] = String(Math.max(0, limit - bucket.used));
    ctx.headers["x-ratelimit-reset"] = String(bucket.resetAt);
    ctx.headers["x-ratelimit-used"] = String(Math.min(bucket.used, limit));
    ctx.headers["x-ratelimit-resource"] = "core";
  };

  /** Spend one request from the caller's budget, or throw the primary rate-limit error. */
  const spend = (ctx: Ctx) => {
    const { bucket, limit } = bucketFor(ctx);
    if (bucket.used >= limit) {
      setRateHeaders(ctx, bucket, limit);
      const message = ctx.token
        ? `API rate limit exceeded for user ID ${ctx.token.user.id}.`
        : `API rate limit exceeded for ${ctx.req.remoteAddress}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`;
      throw new HttpError(403, message, ctx.token ? DOCS.rateLimitAuth : DOCS.rateLimitAnon);
    }
    bucket.used++;
    setRateHeaders(ctx, bucket, limit);
  };

  // ----- Handlers ------------------------------------------------------------------------------

  function paginate<T>(ctx: Ctx, items: T[], linkBase: string): T[] {
    const q = ctx.req.url.searchParams;
    const perPageRaw = Number.parseInt(q.get("per_page") ?? "", 10);
    const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
    const pageRaw = Number.parseInt(q.get("page") ?? "", 10);
    const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number, rel: string) => {
      const params = new URLSearchParams(q);
      params.set("page", String(p));
      return `<${linkBase}?${params.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(Math.min(page - 1, last), "prev"));
    if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
    if (page > 1) links.push(link(1, "first"));
    if (links.length > 0) ctx.headers.Link = links.join(", ");
    return items.slice((page - 1) * perPage, page * perPage);
  }

  function handleUser(ctx: Ctx) {
    if (!ctx.token) throw new HttpError(401, "Requires authentication", DOCS.user);
    const u = ctx.token.user;
    const publicRepos =
      ctx.token.publicRepos ?? [...repos.values()].filter((r) => r.owner.id === u.id && !r.private).length;
    return jsonReply(200, {
      ...userJson(u),
      name: u.name,
      company: null,
      blog: "",
      location: null,
      email: null,
      hireable: null,
      bio: null,
      twitter_username: null,
      notification_email: null,
      public_repos: publicRepos,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: CREATED_AT,
      updated_at: CREATED_AT,
    });
  }

  function handleRateLimit(ctx: Ctx) {
    const { bucket, limit } = bucketFor(ctx);
    setRateHeaders(ctx, bucket, limit);
    const core = {
      limit,
      used: Math.min(bucket.used, limit),
      remaining: Math.max(0, limit - bucket.used),
      reset: bucket.resetAt,
    };
    return jsonReply(200, { resources: { core }, rate: core });
  }

  function handleReadme(ctx: Ctx, r: Repo) {
    const ref = ctx.req.url.searchParams.get("ref");
    if (ref !== null && ref !== r.defaultBranch && ref !== "HEAD" && ref !== `refs/heads/${r.defaultBranch}`)
      throw notFound(DOCS.readme, `No commit found for the ref ${ref}`);
    if (!r.readme) throw notFound(DOCS.readme);
    const { path, sha, content } = r.readme;
    const accept = ctx.req.headers.accept ?? "";
    if (/application\/vnd\.github(\.v3)?\.raw/i.test(accept)) {
      return {
        status: 200,
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "x-github-media-type": "github.v3; param=raw",
        },
        body: content,
      };
    }
    const api = `${repoApi(r)}/contents/${path}?ref=${r.defaultBranch}`;
    const html = `https://github.com/${r.owner.login}/${r.name}/blob/${r.defaultBranch}/${path}`;
    const gitUrl = `${repoApi(r)}/git/blobs/${sha}`;
    return jsonReply(200, {
      name: path.split("/").pop(),
      path,
      sha,
      size: content.length,
      url: api,
      html_url: html,
      git_url: gitUrl,
      download_url: `https://raw.githubusercontent.com/${r.owner.login}/${r.name}/${r.defaultBranch}/${path}`,
      type: "file",
      content: githubBase64(content),
      encoding: "base64",
      _links: { self: api, git: gitUrl, html },
    });
  }

  function handleTree(ctx: Ctx, r: Repo, treeish: string) {
    if (!r.root) throw new HttpError(409, "Git Repository is empty.", DOCS.tree);
    const isBranch =
      treeish === r.defaultBranch || treeish === "HEAD" || treeish === `refs/heads/${r.defaultBranch}`;
    const node = isBranch ? r.root : r.trees.get(treeish.toLowerCase());
    if (!node) throw notFound(DOCS.tree);
    const recursive = ctx.req.url.searchParams.has("recursive");
    const out: Array<Record<string, unknown>> = [];
    let truncated = false;
    const walk = (n: TreeNode, prefix: string): boolean => {
      for (const e of n.entries) {
        if (out.length >= treeLimit) {
          truncated = true;
          return false;
        }
        const path = `${prefix}${e.name}`;
        out.push(
          e.type === "tree"
            ? { path, mode: "040000", type: "tree", sha: e.sha, url: `${repoApi(r)}/git/trees/${e.sha}` }
            : {
                path,
                mode: "100644",
                type: "blob",
                sha: e.sha,
                size: e.size,
                url: `${repoApi(r)}/git/blobs/${e.sha}`,
              },
        );
        if (recursive && e.node && !walk(e.node, `${path}/`)) return false;
      }
      return true;
    };
    walk(node, "");
    return jsonReply(200, {
      sha: node.sha,
      url: `${repoApi(r)}/git/trees/${node.sha}`,
      tree: out,
      truncated,
    });
  }

  function handleBlob(r: Repo, sha: string) {
    const blob = r.blobs.get(sha.toLowerCase());
    if (!blob) throw notFound(DOCS.blob);
    return jsonReply(200, {
      sha: blob.sha,
      node_id: nodeId("B", r.id),
      size: blob.content.length,
      url: `${repoApi(r)}/git/blobs/${blob.sha}`,
      content: githubBase64(blob.content),
      encoding: "base64",
    });
  }

  /** Existing labels by name (case-insensitive); missing ones are created, as GitHub does. */
  function labelsFor(r: Repo, raw: unknown): Label[] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw))
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/labels', ${JSON.stringify(raw)} is not an array.`,
        DOCS.createIssue,
      );
    const names = raw.map((x: unknown) =>
      typeof x === "string"
        ? x
        : typeof x === "object" && x !== null && typeof (x as { name?: unknown }).name === "string"
          ? (x as { name: string }).name
          : undefined,
    );
    if (names.some((n) => n === undefined))
      throw new HttpError(
        400,
        `Invalid Labels: ${JSON.stringify(raw)}.  Must be an Array of strings: ['bug', 'ui']`,
        "https://docs.github.com/v3/issues/labels/",
      );
    if (names.some((n) => !n?.trim()))
      throw validationFailed(DOCS.createIssue, { resource: "Label", code: "missing_field", field: "name" });
    const result: Label[] = [];
    for (const name of names as string[]) {
      let label = r.labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
      if (!label) {
        label = makeLabel(name);
        r.labels.push(label);
      }
      if (!result.includes(label)) result.push(label);
    }
    return result;
  }

  /** `PATCH /repos/{owner}/{repo}/issues/{issue_number}` (issues/update): title, body, labels, state. */
  function handleUpdateIssue(ctx: Ctx, r: Repo, numberRaw: string) {
    const t = requireWriter(ctx, r, DOCS.updateIssue, false);
    ensureIssuesEnabled(r);
    const issue = issueByNumber(r, numberRaw, DOCS.updateIssue);
    const data = readJsonObject(ctx.req, DOCS.updateIssue);
    const before = { title: issue.title, body: issue.body, state: issue.state };
    if (data.title !== undefined) {
      const title = String(data.title);
      if (title.trim() === "" || title.length > MAX_TITLE)
        throw validationFailed(DOCS.updateIssue, { resource: "Issue", field: "title", code: "invalid" });
      issue.title = title;
    }
    if (data.body !== undefined) {
      if (typeof data.body === "string" && data.body.length > MAX_ISSUE_BODY)
        throw validationFailed(DOCS.updateIssue, { resource: "Issue", field: "body", code: "custom" });
      issue.body = (data.body as string | null) ?? null;
    }
    // Labels, like on create, only from someone with push access.
    if (data.labels !== undefined && isOwner(r, t)) issue.labels = labelsFor(r, data.labels);
    if (data.state === "open" || data.state === "closed") {
      issue.state = data.state;
      issue.stateReason =
        data.state === "closed" ? ((data.state_reason as Issue["stateReason"]) ?? "completed") : "reopened";
    } else if (issue.state === "closed" && typeof data.state_reason === "string") {
      issue.stateReason = data.state_reason as Issue["stateReason"];
    }
    // What GitHub delivers for it: `edited` with the old values under `changes`, then `closed`/`reopened`.
    const changes: Record<string, { from: string }> = {};
    if (issue.title !== before.title) changes.title = { from: before.title };
    if (issue.body !== before.body) changes.body = { from: before.body ?? "" };
    if (Object.keys(changes).length) queueDelivery(r, "edited", issue, t.user, { changes });
    if (issue.state !== before.state)
      queueDelivery(r, issue.state === "closed" ? "closed" : "reopened", issue, t.user);
    return jsonReply(200, issueJson(r, issue));
  }

  /** `POST .../issues/{issue_number}/labels` (issues/add-labels): adds to the labels the issue has. */
  function handleAddLabels(ctx: Ctx, r: Repo, numberRaw: string) {
    requireWriter(ctx, r, DOCS.addLabels, true);
    ensureIssuesEnabled(r);
    const issue = issueByNumber(r, numberRaw, DOCS.addLabels);
    const data = ctx.req.text().trim() === "" ? {} : (ctx.req.json() as unknown);
    // GitHub takes `{labels: [...]}` (recommended), a bare array, or one name as a string.
    const raw =
      typeof data === "string" ? [data] : Array.isArray(data) ? data : (data as { labels?: unknown }).labels;
    for (const label of labelsFor(r, raw ?? [])) if (!issue.labels.includes(label)) issue.labels.push(label);
    return jsonReply(
      200,
      issue.labels.map((l) => labelJson(r, l)),
    );
  }

  /** `DELETE .../issues/{issue_number}/labels/{name}` (issues/remove-label): 404 when the issue lacks it. */
  function handleRemoveLabel(ctx: Ctx, r: Repo, numberRaw: string, name: string) {
    requireWriter(ctx, r, DOCS.removeLabel, true);
    ensureIssuesEnabled(r);
    const issue = issueByNumber(r, numberRaw, DOCS.removeLabel);
    const at = issue.labels.findIndex((l) => l.name.toLowerCase() === name.toLowerCase());
    if (at < 0) throw notFound(DOCS.removeLabel, "Label does not exist");
    issue.labels.splice(at, 1);
    return jsonReply(
      200,
      issue.labels.map((l) => labelJson(r, l)),
    );
  }

  function handleCreateIssue(ctx: Ctx, r: Repo) {
    const t = requireWriter(ctx, r, DOCS.createIssue, false);
    ensureIssuesEnabled(r);
    const data = readJsonObject(ctx.req, DOCS.createIssue);
    const rawTitle = data.title;
    if (rawTitle === undefined || rawTitle === null)
      throw new HttpError(422, 'Invalid request.\n\n"title" wasn\'t supplied.', DOCS.createIssue);
    if (typeof rawTitle !== "string" && typeof rawTitle !== "number")
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/title', ${JSON.stringify(rawTitle)} is not a string or integer.`,
        DOCS.createIssue,
      );
    const title = String(rawTitle);
    if (data.body !== undefined && data.body !== null && typeof data.body !== "string")
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/body', ${JSON.stringify(data.body)} is not a string or null.`,
        DOCS.createIssue,
      );
    const body = (data.body as string | null | undefined) ?? null;
    if (title.trim() === "")
      throw validationFailed(DOCS.createIssue, {
        value: title,
        resource: "Issue",
        field: "title",
        code: "missing_field",
      });
    if (title.length > MAX_TITLE)
      throw validationFailed(DOCS.createIssue, {
        resource: "Issue",
        code: "custom",
        field: "title",
        message: `title is too long (maximum is ${MAX_TITLE} characters)`,
      });
    if (body !== null && body.length > MAX_ISSUE_BODY)
      throw validationFailed(DOCS.createIssue, {
        resource: "Issue",
        code: "custom",
        field: "body",
        message: `body is too long (maximum is ${MAX_ISSUE_BODY} characters)`,
      });
    // Labels (like assignees and milestones) are silently ignored for non-collaborators.
    const labels = isOwner(r, t) ? labelsFor(r, data.labels) : [];
    const issue: Issue = {
      id: nextIssueId++,
      number: r.nextNumber++,
      title,
      body,
      labels,
      author: t.user,
      createdAt: isoNow(),
      parentId: null,
      subIssueIds: [],
      blockedByIds: [],
      state: "open",
      stateReason: null,
    };
    r.issues.push(issue);
    issuesById.set(issue.id, { repo: r, issue });
    return jsonReply(201, issueJson(r, issue), { Location: `${repoApi(r)}/issues/${issue.number}` });
  }

  function handleListIssues(ctx: Ctx, r: Repo) {
    const q = ctx.req.url.searchParams;
    const state = q.get("state") ?? "open";
    // With issues disabled GitHub lists pull requests only: none here.
    // Pull requests are issues to this endpoint (they carry a `pull_request` object).
    type Listed = { number: number; state: string; labels: Label[]; json: () => unknown };
    let items: Listed[] = [
      ...(r.hasIssues ? r.issues : []).map((i) => ({ ...i, json: () => issueJson(r, i) })),
      ...r.pulls.map((p) => ({
        number: p.number,
        state: p.state,
        labels: [],
        json: () => pullAsIssueJson(r, p),
      })),
    ].filter((i) => state === "all" || i.state === state);
    const wanted = (q.get("labels") ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    if (wanted.length > 0)
      items = items.filter((i) => wanted.every((w) => i.labels.some((l) => l.name.toLowerCase() === w)));
    items.sort((a, b) => (q.get("direction") === "asc" ? a.number - b.number : b.number - a.number));
    const page = paginate(ctx, items, `${base}/repositories/${r.id}/issues`);
    return jsonReply(
      200,
      page.map((i) => i.json()),
    );
  }

  const issueByNumber = (r: Repo, raw: string, docs: string) => {
    const issue = /^\d+$/.test(raw) ? r.issues.find((i) => i.number === Number(raw)) : undefined;
    if (!issue) throw notFound(docs);
    return issue;
  };

  function handleAddSubIssue(ctx: Ctx, r: Repo, numberRaw: string) {
    requireWriter(ctx, r, DOCS.addSubIssue, true);
    ensureIssuesEnabled(r);
    const parent = issueByNumber(r, numberRaw, DOCS.addSubIssue);
    const data = readJsonObject(ctx.req, DOCS.addSubIssue);
    const subId = data.sub_issue_id;
    if (subId === undefined)
      throw new HttpError(422, 'Invalid request.\n\n"sub_issue_id" wasn\'t supplied.', DOCS.addSubIssue);
    if (typeof subId !== "number" || !Number.isInteger(subId))
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/sub_issue_id', ${JSON.stringify(subId)} is not an integer.`,
        DOCS.addSubIssue,
      );
    const found = issuesById.get(subId);
    if (!found || !canRead(found.repo, ctx.token))
      throw notFound(DOCS.addSubIssue, "The provided sub-issue does not exist");
    const child = found.issue;
    const fail = (why: string) =>
      new HttpError(
        422,
        `An error occurred while adding the sub-issue to the parent issue. ${why}`,
        DOCS.addSubIssue,
      );
    if (found.repo.owner.id !== r.owner.id)
      throw fail("Sub issue must belong to the same repository owner as the parent issue");
    if (child.id === parent.id) throw fail("Sub issue cannot be its own parent");
    for (let a: Issue | undefined = parent; a; a = a.parentId ? issuesById.get(a.parentId)?.issue : undefined)
      if (a.id === child.id) throw fail("Sub issue cannot be an ancestor of its parent");
    // Already under this parent: both of GitHub's validations fail, and it names both.
    if (parent.subIssueIds.includes(child.id))
      throw fail("Issue may not contain duplicate sub-issues and Sub issue may only have one parent");
    if (child.parentId !== null && data.replace_parent !== true)
      throw fail("Sub issue may only have one parent");
    if (parent.subIssueIds.length >= subIssueLimit)
      throw fail(`Parent issue cannot have more than ${subIssueLimit} sub-issues`);
    if (child.parentId !== null) {
      const old = issuesById.get(child.parentId)?.issue;
      if (old) old.subIssueIds = old.subIssueIds.filter((id) => id !== child.id);
    }
    child.parentId = parent.id;
    parent.subIssueIds.push(child.id);
    return jsonReply(201, issueJson(r, parent));
  }

  function handleAddBlockedBy(ctx: Ctx, r: Repo, numberRaw: string) {
    if (!r.dependencies) throw notFound(DOCS.root);
    requireWriter(ctx, r, DOCS.addBlockedBy, true);
    ensureIssuesEnabled(r);
    const issue = issueByNumber(r, numberRaw, DOCS.addBlockedBy);
    const data = readJsonObject(ctx.req, DOCS.addBlockedBy);
    const blockingId = data.issue_id;
    if (blockingId === undefined)
      throw new HttpError(422, 'Invalid request.\n\n"issue_id" wasn\'t supplied.', DOCS.addBlockedBy);
    if (typeof blockingId !== "number" || !Number.isInteger(blockingId))
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/issue_id', ${JSON.stringify(blockingId)} is not an integer.`,
        DOCS.addBlockedBy,
      );
    const found = issuesById.get(blockingId);
    if (!found || !canRead(found.repo, ctx.token)) throw notFound(DOCS.addBlockedBy);
    if (found.issue.id === issue.id)
      throw new HttpError(422, "An issue cannot be blocked by itself", DOCS.addBlockedBy);
    if (issue.blockedByIds.includes(blockingId))
      throw new HttpError(422, "This issue is already blocked by that issue", DOCS.addBlockedBy);
    issue.blockedByIds.push(blockingId);
    return jsonReply(201, issueJson(r, issue));
  }

  function handleListSubIssues(ctx: Ctx, r: Repo, numberRaw: string) {
    ensureIssuesEnabled(r);
    const parent = issueByNumber(r, numberRaw, DOCS.listSubIssues);
    const children = parent.subIssueIds.flatMap((id) => {
      const f = issuesById.get(id);
      return f && canRead(f.repo, ctx.token) ? [issueJson(f.repo, f.issue)] : [];
    });
    const page = paginate(ctx, children, `${base}/repositories/${r.id}/issues/${parent.number}/sub_issues`);
    return jsonReply(200, page);
  }

  function handleCreateLabel(ctx: Ctx, r: Repo) {
    requireWriter(ctx, r, DOCS.createLabel, true);
    const data = readJsonObject(ctx.req, DOCS.createLabel);
    const name = data.name;
    if (name === undefined)
      throw new HttpError(422, 'Invalid request.\n\n"name" wasn\'t supplied.', DOCS.createLabel);
    if (typeof name !== "string" || name.trim() === "")
      throw validationFailed(DOCS.createLabel, { resource: "Label", code: "missing_field", field: "name" });
    const color = data.color ?? "ededed";
    if (typeof color !== "string" || !/^[0-9a-f]{6}$/i.test(color))
      throw validationFailed(DOCS.createLabel, {
        resource: "Label",
        code: "invalid",
        field: "color",
        ...(typeof color === "string" ? { value: color } : {}),
      });
    const description = data.description ?? null;
    if (description !== null && typeof description !== "string")
      throw new HttpError(
        422,
        `Invalid request.\n\nFor 'properties/description', ${JSON.stringify(description)} is not a string or null.`,
        DOCS.createLabel,
      );
    if (r.labels.some((l) => l.name.toLowerCase() === name.toLowerCase()))
      throw validationFailed(DOCS.createLabel, { resource: "Label", code: "already_exists", field: "name" });
    const label = makeLabel(name, color.toLowerCase(), description);
    r.labels.push(label);
    return jsonReply(201, labelJson(r, label), {
      Location: `${repoApi(r)}/labels/${encodeURIComponent(name)}`,
    });
  }

  /** `GET /repos/{owner}/{repo}/pulls` (pulls/list): filtered by state, head and base, sorted, paged. */
  function handleListPulls(ctx: Ctx, r: Repo) {
    const t = ctx.token;
    if (r.private && t?.fineGrained && t.pullRequests === "none") {
      ctx.headers["X-Accepted-GitHub-Permissions"] = "pull_requests=read";
      throw new HttpError(403, "Resource not accessible by personal access token", DOCS.listPulls);
    }
    const q = ctx.req.url.searchParams;
    const state = q.get("state") ?? "open";
    const head = q.get("head");
    const baseRef = q.get("base");
    const sort = q.get("sort") ?? "created";
    const direction = q.get("direction") ?? (sort === "created" ? "desc" : "asc");
    const items = r.pulls.filter(
      (p) =>
        (state === "all" || p.state === state) &&
        (head === null || head === `${r.owner.login}:${p.head}` || head === p.head) &&
        (baseRef === null || baseRef === p.base),
    );
    // Creation order is number order; "updated" by the last change (ties by number).
    const updated = (p: PullRequest) => `${p.updatedAt}|${String(p.number).padStart(9, "0")}`;
    items.sort((a, b) => {
      const order = sort === "updated" ? updated(a).localeCompare(updated(b)) : a.number - b.number;
      return direction === "asc" ? order : -order;
    });
    const page = paginate(ctx, items, `${base}/repositories/${r.id}/pulls`);
    return jsonReply(
      200,
      page.map((p) => pullJson(r, p, t)),
    );
  }

  /**
   * The issues of this repository a pull request's description closes with a keyword, by GitHub's
   * "Linking a pull request to an issue": the keyword, then `#n` or `owner/repo#n` (this repository).
   */
  function closedByKeyword(r: Repo, body: string | null): Issue[] {
    const out: Issue[] = [];
    const re =
      /(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:([\w.-]+)\/([\w.-]+))?#(\d+)(?!\w)/gi;
    // A keyword in a list item links nothing (issue 43's reading of GitHub's linking).
    const prose = (body ?? "")
      .split("\n")
      .filter((l) => !LIST_ITEM.test(l))
      .join("\n");
    for (const m of prose.matchAll(re)) {
      if (m[1] !== undefined && key(m[1], m[2] ?? "") !== key(r.owner.login, r.name)) continue;
      const issue = r.issues.find((i) => i.number === Number(m[3]));
      if (issue && !out.includes(issue)) out.push(issue);
    }
    return out;
  }

  /** What a pull request will close: keyword links when it targets the default branch, and links by hand. */
  function closingIssues(r: Repo, p: PullRequest) {
    const byKeyword = p.base === r.defaultBranch ? closedByKeyword(r, p.body) : [];
    const byHand = p.manualLinks.flatMap((n) => r.issues.filter((i) => i.number === n));
    return [
      ...byKeyword.map((i) => ({ issue: i, byHand: false })),
      ...byHand.filter((i) => !byKeyword.includes(i)).map((i) => ({ issue: i, byHand: true })),
    ];
  }

  function graphRepo(r: Repo, t: Token | null): GraphRepo {
    return {
      owner: r.owner.login,
      name: r.name,
      defaultBranch: r.defaultBranch,
      pullsForbidden: Boolean(r.private && t?.fineGrained && t.pullRequests === "none"),
      pulls: () =>
        r.pulls.map((p) => ({
          number: p.number,
          title: p.title,
          body: p.body,
          url: pullHtml(r, p),
          state: p.state,
          merged: p.mergedAt !== null,
          updatedAt: p.updatedAt,
          createdAt: p.createdAt,
          base: p.base,
          closes: () =>
            closingIssues(r, p).map(({ issue, byHand }) => ({
              number: issue.number,
              title: issue.title,
              url: `https://github.com/${r.owner.login}/${r.name}/issues/${issue.number}`,
              repository: graphRepo(r, t),
              byHand,
            })),
        })),
    };
  }

  /** `POST /graphql`: signed in only; the answer is 200 with `data` and/or `errors`, as GitHub's is. */
  async function handleGraphql(ctx: Ctx) {
    if (!ctx.token) throw new HttpError(401, "This endpoint requires you to be authenticated.", DOCS.graphql);
    if (graphqlRefusal) throw new HttpError(403, graphqlRefusal, DOCS.graphql);
    const body = ctx.req.json();
    return jsonReply(
      200,
      await runGraphql(body, (owner, name) => {
        const r = repos.get(key(owner, name));
        return r && canRead(r, ctx.token) ? graphRepo(r, ctx.token) : null;
      }),
    );
  }

  // ----- Routes --------------------------------------------------------------------------------

  type RepoRef = { owner: string; name: string } | { id: number };
  const routes = new Router<Ctx>()
    .get("/user", handleUser)
    .get("/rate_limit", handleRateLimit)
    .on("POST", "/graphql", handleGraphql);
  /** A repository route, under `/repos/{owner}/{repo}` and the `/repositories/{id}` form of GitHub's Link URLs. */
  const repoRoute = (
    method: string,
    rest: string,
    handler: (ctx: Ctx, ref: RepoRef, params: Record<string, string>) => Reply | Promise<Reply>,
  ) => {
    routes.on(method, `/repos/:owner/:repo${rest}`, (ctx, p) =>
      handler(ctx, { owner: p.owner ?? "", name: p.repo ?? "" }, p),
    );
    routes.on(method, `/repositories/:id(\\d+)${rest}`, (ctx, p) => handler(ctx, { id: Number(p.id) }, p));
  };
  repoRoute("GET", "", (ctx, ref) => jsonReply(200, repoJson(findRepo(ctx, ref, DOCS.repo), ctx.token)));
  repoRoute("GET", "/readme", (ctx, ref) => handleReadme(ctx, findRepo(ctx, ref, DOCS.readme)));
  repoRoute("GET", "/git/trees/:tree(.+)", (ctx, ref, p) =>
    handleTree(ctx, findRepo(ctx, ref, DOCS.tree), p.tree ?? ""),
  );
  repoRoute("GET", "/git/blobs/:sha", (ctx, ref, p) =>
    handleBlob(findRepo(ctx, ref, DOCS.blob), p.sha ?? ""),
  );
  repoRoute("GET", "/issues", (ctx, ref) => handleListIssues(ctx, findRepo(ctx, ref, DOCS.listIssues)));
  repoRoute("GET", "/pulls", (ctx, ref) => handleListPulls(ctx, findRepo(ctx, ref, DOCS.listPulls)));
  repoRoute("POST", "/issues", (ctx, ref) => handleCreateIssue(ctx, findRepo(ctx, ref, DOCS.createIssue)));
  repoRoute("GET", "/issues/:number", (ctx, ref, p) => {
    const r = findRepo(ctx, ref, DOCS.getIssue);
    ensureIssuesEnabled(r);
    // A pull request's number is an issue too ("GitHub's REST API considers every pull request an issue").
    const pull = /^\d+$/.test(p.number ?? "")
      ? r.pulls.find((x) => x.number === Number(p.number))
      : undefined;
    if (pull) return jsonReply(200, pullAsIssueJson(r, pull));
    return jsonReply(200, issueJson(r, issueByNumber(r, p.number ?? "", DOCS.getIssue)));
  });
  repoRoute("PATCH", "/issues/:number", (ctx, ref, p) =>
    handleUpdateIssue(ctx, findRepo(ctx, ref, DOCS.updateIssue), p.number ?? ""),
  );
  repoRoute("POST", "/issues/:number/labels", (ctx, ref, p) =>
    handleAddLabels(ctx, findRepo(ctx, ref, DOCS.addLabels), p.number ?? ""),
  );
  repoRoute("DELETE", "/issues/:number/labels/:name", (ctx, ref, p) =>
    handleRemoveLabel(ctx, findRepo(ctx, ref, DOCS.removeLabel), p.number ?? "", p.name ?? ""),
  );
  repoRoute("POST", "/issues/:number/sub_issues", (ctx, ref, p) =>
    handleAddSubIssue(ctx, findRepo(ctx, ref, DOCS.addSubIssue), p.number ?? ""),
  );
  repoRoute("POST", "/issues/:number/dependencies/blocked_by", (ctx, ref, p) =>
    handleAddBlockedBy(ctx, findRepo(ctx, ref, DOCS.addBlockedBy), p.number ?? ""),
  );
  repoRoute("GET", "/issues/:number/dependencies/blocked_by", (ctx, ref, p) => {
    const r = findRepo(ctx, ref, DOCS.addBlockedBy);
    if (!r.dependencies) throw notFound(DOCS.root);
    ensureIssuesEnabled(r);
    const issue = issueByNumber(r, p.number ?? "", DOCS.addBlockedBy);
    const blockers = issue.blockedByIds.flatMap((id) => {
      const f = issuesById.get(id);
      return f && canRead(f.repo, ctx.token) ? [issueJson(f.repo, f.issue)] : [];
    });
    return jsonReply(
      200,
      paginate(ctx, blockers, `${base}/repositories/${r.id}/issues/${issue.number}/dependencies/blocked_by`),
    );
  });
  repoRoute("DELETE", "/issues/:number/dependencies/blocked_by/:issueId", (ctx, ref, p) => {
    const r = findRepo(ctx, ref, DOCS.addBlockedBy);
    if (!r.dependencies) throw notFound(DOCS.root);
    requireWriter(ctx, r, DOCS.addBlockedBy, true);
    const issue = issueByNumber(r, p.number ?? "", DOCS.addBlockedBy);
    const id = Number(p.issueId);
    if (!issue.blockedByIds.includes(id)) throw notFound(DOCS.addBlockedBy);
    issue.blockedByIds = issue.blockedByIds.filter((b) => b !== id);
    return jsonReply(200, issueJson(r, issue));
  });
  repoRoute("GET", "/issues/:number/sub_issues", (ctx, ref, p) =>
    handleListSubIssues(ctx, findRepo(ctx, ref, DOCS.listSubIssues), p.number ?? ""),
  );
  repoRoute("GET", "/labels", (ctx, ref) => {
    const r = findRepo(ctx, ref, DOCS.listLabels);
    const page = paginate(ctx, r.labels, `${base}/repositories/${r.id}/labels`);
    return jsonReply(
      200,
      page.map((l) => labelJson(r, l)),
    );
  });
  repoRoute("POST", "/labels", (ctx, ref) => handleCreateLabel(ctx, findRepo(ctx, ref, DOCS.createLabel)));

  // ----- Dispatch ------------------------------------------------------------------------------

  const newCtx = (req: FakeRequest): Ctx => ({
    req,
    token: null,
    headers: {
      "x-github-api-version-selected": "2022-11-28",
      "x-github-media-type": "github.v3; format=json",
      "x-github-request-id": `${randomBytes(2).toString("hex").toUpperCase()}:${randomBytes(4).toString("hex").toUpperCase()}`,
    },
  });

  /** Every response carries the rate-limit headers, errors included. */
  function errorReply(ctx: Ctx, err: unknown): Reply {
    if (!ctx.headers["x-ratelimit-limit"]) {
      const { bucket, limit } = bucketFor(ctx);
      setRateHeaders(ctx, bucket, limit);
    }
    if (
      err instanceof HttpError &&
      (err.status === 301 || err.status === 307) &&
      typeof err.extra.url === "string"
    )
      ctx.headers.location = err.extra.url;
    const reply =
      err instanceof HttpError
        ? jsonReply(err.status, errorJson(err))
        : jsonReply(500, { message: "Server Error", detail: String(err) });
    return withHeaders(reply, ctx.headers);
  }

  /** Spend from the budget but never fail (the caller answers with its own error). */
  const spendQuietly = (ctx: Ctx) => {
    const { bucket, limit } = bucketFor(ctx);
    if (bucket.used < limit) bucket.used++;
    setRateHeaders(ctx, bucket, limit);
  };

  const openapiViolations: string[] = [];
  let graphqlRefusal: string | null = null;
  let subIssueLimit = MAX_SUB_ISSUES;
  /** Repository id -> its webhooks (a rename keeps them, as GitHub's do). */
  const hooks = new Map<number, Array<{ url: string; secret: string }>>();
  const deliveries: FakeGitHub["deliveries"] = [];
  const pending = new Set<Promise<unknown>>();

  /** The `repository` object of a webhook payload: its id and its current name. */
  const hookRepoJson = (r: Repo) => ({
    id: r.id,
    node_id: nodeId("R", r.id),
    name: r.name,
    full_name: `${r.owner.login}/${r.name}`,
    private: r.private,
    owner: userJson(r.owner),
    html_url: `https://github.com/${r.owner.login}/${r.name}`,
    url: repoApi(r),
    default_branch: r.defaultBranch,
  });

  /** Posts an event (`issues` unless named) to the repository's webhooks, signed as GitHub signs them. */
  async function deliver(r: Repo, payload: Record<string, unknown>, event = "issues") {
    const body = JSON.stringify(payload);
    const out: Array<{ status: number }> = [];
    for (const hook of hooks.get(r.id) ?? []) {
      const signature = createHmac("sha256", hook.secret).update(body).digest("hex");
      const status = await fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "GitHub-Hookshot/fake",
          "x-github-event": event,
          "x-github-delivery": randomBytes(16).toString("hex"),
          "x-github-hook-installation-target-id": String(r.id),
          "x-github-hook-installation-target-type": "repository",
          "x-hub-signature-256": `sha256=${signature}`,
        },
        body,
      }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status;
        },
        () => 0, // nobody listening
      );
      deliveries.push({ event, action: String(payload.action), payload, status });
      out.push({ status });
    }
    return out;
  }

  const issuesPayload = (
    r: Repo,
    action: string,
    issue: Issue,
    sender: User,
    extra: Record<string, unknown> = {},
  ) => ({
    action,
    issue: issueJson(r, issue),
    ...extra,
    repository: hookRepoJson(r),
    sender: userJson(sender),
  });

  /** A delivery sent after the answer (GitHub's are asynchronous), in order. */
  let chain: Promise<unknown> = Promise.resolve();
  function queueDelivery(
    r: Repo,
    action: string,
    issue: Issue,
    sender: User,
    extra?: Record<string, unknown>,
  ) {
    if (!(hooks.get(r.id) ?? []).length) return;
    const payload = issuesPayload(r, action, issue, sender, extra);
    const next = chain.then(() => deliver(r, payload));
    chain = next.catch(() => {});
    pending.add(next);
    void next.finally(() => pending.delete(next)).catch(() => {});
  }
  /**
   * A `pull_request` event ("Webhook events and payloads", pull_request): `action` (opened, edited,
   * closed, reopened, ...), `number`, the pull request in its full shape with `merged` (a merge is a
   * `closed` action with `merged: true`), `changes` on `edited` (`title.from`, `body.from`,
   * `base.ref.from`), the repository and the sender.
   */
  const pullPayload = (
    r: Repo,
    action: string,
    pull: PullRequest,
    sender: User,
    extra: Record<string, unknown> = {},
  ) => ({
    action,
    number: pull.number,
    pull_request: { ...pullJson(r, pull, null), merged: pull.mergedAt !== null },
    ...extra,
    repository: hookRepoJson(r),
    sender: userJson(sender),
  });
  /** Sends a pull request's event after the answer, in order with the others. */
  function queuePullDelivery(r: Repo, payload: Record<string, unknown>): Promise<unknown> {
    if (!(hooks.get(r.id) ?? []).length) return Promise.resolve();
    const next = chain.then(() => deliver(r, payload, "pull_request"));
    chain = next.catch(() => {});
    pending.add(next);
    void next.finally(() => pending.delete(next)).catch(() => {});
    return next;
  }
  /** Old "owner/name" -> the repository it was renamed to (GitHub redirects the old name). */
  const renamed = new Map<string, Repo>();
  const content = { perMinute: 80, perHour: 500, minuteMs: 60_000, hourMs: 3_600_000, cooldownMs: 60_000 };
  const writes = new Map<string, number[]>(); // per login: times of content-creating requests
  const refusedUntil = new Map<string, number>(); // per login: the end of the wait after a refusal

  /** GitHub's volume-triggered secondary limit: 403, no retry-after, past 80 a minute or 500 an hour. */
  function contentLimit(ctx: Ctx) {
    if (ctx.req.method === "GET" || ctx.req.method === "HEAD" || !ctx.token) return;
    const now = Date.now();
    const login = ctx.token.user.login;
    const list = (writes.get(login) ?? []).filter((t) => now - t < content.hourMs);
    const waitEnd = refusedUntil.get(login) ?? 0;
    // The minute's count starts again once a refusal's wait is over.
    const lastMinute = list.filter((t) => now - t < content.minuteMs && t >= waitEnd).length;
    if (now < waitEnd || lastMinute >= content.perMinute || list.length >= content.perHour) {
      writes.set(login, list);
      if (now >= waitEnd) refusedUntil.set(login, now + content.cooldownMs);
      throw new HttpError(
        403,
        `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${ctx.headers["x-github-request-id"]}.`,
        DOCS.secondary,
      );
    }
    list.push(now);
    writes.set(ctx.token.user.login, list);
  }

  /** GitHub's rules for the request, from its OpenAPI description; a breach is a 422 and is recorded. */
  function checkOpenapi(req: FakeRequest) {
    let raw: Buffer;
    try {
      raw = req.raw();
    } catch {
      return;
    }
    let body: unknown = null;
    if (raw.length) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return; // malformed JSON has its own answer
      }
    }
    const problems = openapiProblems({
      method: req.method,
      path: req.path,
      query: req.url.searchParams,
      body,
      hasBody: raw.length > 0,
    });
    if (problems.length === 0) return;
    openapiViolations.push(...problems.map((p) => `${req.method} ${req.path}${req.url.search}: ${p}`));
    if (problems.some((p) => p.includes("is no operation"))) return; // the router's 404
    throw new HttpError(422, `Invalid request.\n\n${problems.join("\n")}`, DOCS.root);
  }

  async function handle(req: FakeRequest, route: (ctx: Ctx) => Promise<Reply | undefined>) {
    const ctx = newCtx(req);
    try {
      if (!req.headers["user-agent"]) {
        const { bucket, limit } = bucketFor(ctx);
        setRateHeaders(ctx, bucket, limit);
        return withHeaders(
          textReply(
            403,
            "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.\n",
          ),
          ctx.headers,
        );
      }

      const authHeader = req.headers.authorization;
      if (authHeader !== undefined) {
        const value = authHeader.match(/^(?:bearer|token)\s+(\S+)\s*$/i)?.[1];
        const token = value ? tokens.get(value) : undefined;
        if (!token) {
          spendQuietly(ctx); // counted against the anonymous (per-IP) budget
          throw new HttpError(401, "Bad credentials", DOCS.root);
        }
        ctx.token = token;
        if (!token.fineGrained) {
          ctx.headers["X-OAuth-Scopes"] = token.scopes.join(", ");
          ctx.headers["X-Accepted-OAuth-Scopes"] = "";
        }
      }

      // GET /rate_limit does not count, like GitHub.
      if (!(req.method === "GET" && req.path === "/rate_limit")) spend(ctx);
      // GraphQL is not in the REST description: its own schema checks it (github-graphql.ts).
      if (req.path !== "/graphql") checkOpenapi(req);
      contentLimit(ctx);
      const reply = await route(ctx);
      return reply && withHeaders(reply, ctx.headers);
    } catch (err) {
      return errorReply(ctx, err);
    }
  }

  const server = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    bodyLimit: MAX_BODY_BYTES,
    handle,
    notFound: () => jsonReply(404, errorJson(notFound(DOCS.root))),
    tooLarge: () => new HttpError(413, "Request body too large", DOCS.root),
  });
  base = server.url;

  return {
    url: base,
    addRepo(input) {
      const owner = userFor(input.owner);
      const k = key(input.owner, input.name);
      const previous = repos.get(k);
      if (previous) {
        reposById.delete(previous.id);
        for (const i of previous.issues) issuesById.delete(i.id);
      }

      // Normalise paths, then build the directory structure.
      const clean = (p: string) => p.replace(/^(\.\/|\/)+/, "").replace(/\/+$/, "");
      const contents = new Map<string, string>();
      for (const f of input.files ?? []) if (typeof f !== "string") contents.set(clean(f.path), f.content);
      const paths = [
        ...new Set(
          (input.files ?? []).map((f) => clean(typeof f === "string" ? f : f.path)).filter((p) => p !== ""),
        ),
      ];
      const readmeCandidates = ["", ".github/", "docs/"].flatMap((dir) =>
        paths.filter((p) => p.startsWith(dir) && README_RE.test(p.slice(dir.length))).sort(),
      );
      let readmePath = readmeCandidates[0] ?? null;
      if (typeof input.readme === "string" && readmePath === null) {
        readmePath = "README.md";
        paths.push(readmePath);
      }
      const root: DirBuilder = new Map();
      for (const path of paths) {
        const parts = path.split("/");
        let dir = root;
        parts.forEach((part, index) => {
          const existing = dir.get(part);
          if (index === parts.length - 1) {
            if (existing instanceof Map)
              throw new Error(`fake GitHub: "${path}" is both a file and a directory`);
            const content =
              path === readmePath && typeof input.readme === "string"
                ? input.readme
                : (contents.get(path) ?? `${path}\n`);
            dir.set(part, Buffer.from(content, "utf8"));
          } else {
            if (existing !== undefined && !(existing instanceof Map))
              throw new Error(
                `fake GitHub: "${parts.slice(0, index + 1).join("/")}" is both a file and a directory`,
              );
            const next: DirBuilder = existing ?? new Map();
            dir.set(part, next);
            dir = next;
          }
        });
      }
      const trees = new Map<string, TreeNode>();
      const blobs = new Map<string, Blob>();
      const rootNode = paths.length > 0 ? buildTree(root, blobs, trees) : null;
      let readme: Repo["readme"] = null;
      if (readmePath !== null && input.readme !== null) {
        const content = Buffer.from(
          typeof input.readme === "string" ? input.readme : `${readmePath}\n`,
          "utf8",
        );
        readme = { path: readmePath, sha: gitBlobSha(content), content };
      }

      const repo: Repo = {
        id: previous?.id ?? nextRepoId++,
        owner,
        name: input.name,
        private: input.private ?? false,
        defaultBranch: input.defaultBranch ?? "main",
        description: input.description ?? null,
        hasIssues: input.hasIssues ?? true,
        dependencies: input.dependencies ?? true,
        root: rootNode,
        trees,
        blobs,
        readme,
        labels:
          input.labels === undefined
            ? GITHUB_DEFAULT_LABELS.map((l) => makeLabel(l.name, l.color, l.description, true))
            : input.labels.map((name) => makeLabel(name)),
        issues: [],
        pulls: [],
        nextNumber: 1,
      };
      repos.set(k, repo);
      reposById.set(repo.id, repo);
    },
    addToken(input) {
      tokens.set(input.token, {
        user: userFor(input.login, input.name),
        fineGrained: input.fineGrained ?? input.token.startsWith("github_pat_"),
        scopes: [...(input.scopes ?? [])],
        publicRepos: input.publicRepos,
        canSee: new Set((input.canSee ?? []).map((s) => s.toLowerCase())),
        issues: input.issues ?? "write",
        pullRequests: input.pullRequests ?? "read",
      });
    },
    setRateLimit(next) {
      if (next.authenticated !== undefined) limits.authenticated = next.authenticated;
      if (next.unauthenticated !== undefined) limits.unauthenticated = next.unauthenticated;
      buckets.clear();
    },
    setMode(next, modeOpts = {}) {
      server.faults.clear();
      const target = { times: modeOpts.times };
      if (next === "server_error")
        server.faults.fail(target, (req) =>
          errorReply(newCtx(req), new HttpError(502, "Server Error", DOCS.root)),
        );
      if (next === "secondary_rate_limit")
        server.faults.fail(target, (req) => {
          const ctx = newCtx(req);
          const retryAfter = modeOpts.retryAfter === undefined ? DEFAULT_RETRY_AFTER_S : modeOpts.retryAfter;
          if (retryAfter !== null) ctx.headers["retry-after"] = String(retryAfter);
          return errorReply(
            ctx,
            new HttpError(
              modeOpts.status ?? 429,
              `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${ctx.headers["x-github-request-id"]}.`,
              DOCS.secondary,
            ),
          );
        });
      if (next === "slow") server.faults.delay(target, modeOpts.delayMs ?? DEFAULT_SLOW_MS);
    },
    issues(owner, name) {
      const r = repos.get(key(owner, name));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${name}`);
      return r.issues.map((i) => ({
        number: i.number,
        title: i.title,
        body: i.body ?? "",
        labels: i.labels.map((l) => l.name),
        subIssues: i.subIssueIds.map((id) => issuesById.get(id)?.issue.number ?? -1),
        blockedBy: i.blockedByIds.map((id) => issuesById.get(id)?.issue.number ?? -1),
      }));
    },
    async setIssueState(owner, name, number, state, reason) {
      const r = repos.get(key(owner, name));
      const issue = r?.issues.find((i) => i.number === number);
      if (!r || !issue) throw new Error(`fake GitHub: no issue ${owner}/${name}#${number}`);
      issue.state = state;
      issue.stateReason = state === "closed" ? (reason ?? "completed") : "reopened";
      return deliver(r, issuesPayload(r, state === "closed" ? "closed" : "reopened", issue, r.owner));
    },
    createPullRequest(owner, name, pr) {
      const r = repos.get(key(owner, name));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${name}`);
      if (pr.title.trim() === "" || pr.title.length > MAX_TITLE)
        throw new Error("fake GitHub: a pull request needs a title of at most 256 characters");
      const number = r.nextNumber++;
      const now = isoNow();
      const pull: PullRequest = {
        id: nextIssueId++,
        number,
        title: pr.title,
        body: pr.body ?? null,
        author: pr.author ? userFor(pr.author) : r.owner,
        head: pr.head ?? `change-${number}`,
        base: pr.base ?? r.defaultBranch,
        draft: pr.draft ?? false,
        state: "open",
        mergedAt: null,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
        manualLinks: [],
      };
      r.pulls.push(pull);
      void queuePullDelivery(r, pullPayload(r, "opened", pull, pull.author)).catch(() => {});
      return { number, html_url: pullHtml(r, pull) };
    },
    linkPullRequest(owner, name, pullNumber, issueNumber) {
      const r = repos.get(key(owner, name));
      const pull = r?.pulls.find((p) => p.number === pullNumber);
      if (!r || !pull) throw new Error(`fake GitHub: no pull request ${owner}/${name}#${pullNumber}`);
      if (!r.issues.some((i) => i.number === issueNumber))
        throw new Error(`fake GitHub: no issue ${owner}/${name}#${issueNumber}`);
      if (!pull.manualLinks.includes(issueNumber)) pull.manualLinks.push(issueNumber);
    },
    refuseGraphql(message) {
      graphqlRefusal = message;
    },
    async setPullRequestState(owner, name, number, state) {
      const r = repos.get(key(owner, name));
      const pull = r?.pulls.find((p) => p.number === number);
      if (!r || !pull) throw new Error(`fake GitHub: no pull request ${owner}/${name}#${number}`);
      if (pull.mergedAt) throw new Error(`fake GitHub: ${owner}/${name}#${number} is merged already`);
      const now = isoNow();
      pull.updatedAt = now;
      pull.state = state === "open" ? "open" : "closed";
      pull.closedAt = state === "open" ? null : now;
      if (state === "merged") pull.mergedAt = now;
      await queuePullDelivery(r, pullPayload(r, state === "open" ? "reopened" : "closed", pull, pull.author));
      if (state !== "merged") return;
      // Keywords are honoured only when the pull request targets the default branch; links by hand always.
      for (const { issue } of closingIssues(r, pull)) {
        if (issue.state === "closed") continue;
        issue.state = "closed";
        issue.stateReason = "completed";
        await deliver(r, issuesPayload(r, "closed", issue, pull.author));
      }
    },
    async editPullRequest(owner, name, number, edit) {
      const r = repos.get(key(owner, name));
      const pull = r?.pulls.find((p) => p.number === number);
      if (!r || !pull) throw new Error(`fake GitHub: no pull request ${owner}/${name}#${number}`);
      const changes: Record<string, unknown> = {};
      if (edit.title !== undefined && edit.title !== pull.title) {
        changes.title = { from: pull.title };
        pull.title = edit.title;
      }
      if (edit.body !== undefined && edit.body !== pull.body) {
        changes.body = { from: pull.body ?? "" };
        pull.body = edit.body;
      }
      if (edit.base !== undefined && edit.base !== pull.base) {
        changes.base = { ref: { from: pull.base }, sha: { from: branchSha(r, pull.base) } };
        pull.base = edit.base;
      }
      if (Object.keys(changes).length === 0) return;
      pull.updatedAt = isoNow();
      await queuePullDelivery(r, pullPayload(r, "edited", pull, pull.author, { changes }));
    },
    addWebhook(owner, name, hook) {
      const r = repos.get(key(owner, name));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${name}`);
      hooks.set(r.id, [...(hooks.get(r.id) ?? []), hook]);
    },
    repoId(owner, name) {
      const r = repos.get(key(owner, name));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${name}`);
      return r.id;
    },
    get deliveries() {
      return deliveries;
    },
    async settleDeliveries() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    renameRepo(owner, from, to) {
      const r = repos.get(key(owner, from));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${from}`);
      repos.delete(key(owner, from));
      r.name = to;
      repos.set(key(owner, to), r);
      renamed.delete(key(owner, to));
      renamed.set(key(owner, from), r);
    },
    setSubIssueLimit(n) {
      subIssueLimit = n;
    },
    setContentLimits(next) {
      Object.assign(content, Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)));
      writes.clear();
      refusedUntil.clear();
    },
    get openapiViolations() {
      return openapiViolations;
    },
    labels(owner, name) {
      const r = repos.get(key(owner, name));
      if (!r) throw new Error(`fake GitHub: no repository ${owner}/${name}`);
      return r.labels.map((l) => l.name);
    },
    get requests() {
      return server.log.map((e) => ({
        method: e.method,
        path: `${e.path}${e.search}`,
        auth: e.headers.authorization ?? null,
      }));
    },
    server,
    close: server.close,
  };
}
