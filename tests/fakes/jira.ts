/**
 * A local, in-process fake of JIRA Cloud REST v3 + Confluence Cloud REST v2 on one origin (what
 * `https://your-site.atlassian.net` serves), on the fake-server kit (kit.ts), for integration tests.
 *
 * Issue links (`GET /rest/api/3/issueLinkType`, `POST /rest/api/3/issueLink` → 201 with no body): the
 * site's link types are JIRA Cloud's defaults (Blocks "is blocked by"/"blocks", Cloners, Duplicate,
 * Relates; `setLinkTypes` removes some, as a site admin can); an unknown type is 404 "No issue link type
 * with name '…' found.", an unknown issue 404 as elsewhere. Direction, as the real service behaves: the
 * `inwardIssue` is the one that blocks and the `outwardIssue` the one blocked (its page reads "is blocked
 * by"), which is the reverse of what Atlassian's reference suggests (the linking model,
 * developer.atlassian.com/cloud/jira/platform/issue-linking-model; observed on Jira Cloud in
 * atlassian/atlassian-mcp-server#112 and fixed for it in mozilla/jira-bugzilla-integration#1285).
 *
 * It covers what an exporter needs and mimics Atlassian's observable behaviour where a client
 * could depend on it:
 * - Basic auth `base64(email:api_token)` (email case-insensitive). JIRA answers a missing or wrong
 *   credential with 401 `{"errorMessages":["Client must be authenticated to access this resource."],"errors":{}}`
 *   (+ `X-Seraph-LoginReason: AUTHENTICATED_FAILED` when credentials were sent); Confluence answers a
 *   wrong credential with a text/plain 401 ("Basic authentication with passwords is deprecated…", as
 *   Atlassian does since it cannot tell a bad token from a password) and a missing one with a JSON 401.
 * - Writes must be `Content-Type: application/json`: a "simple" type (text/plain — what fetch sends for a
 *   string body without headers —, form, multipart) is 403 "XSRF check failed" unless
 *   `X-Atlassian-Token: no-check`; any other type is 415.
 * - Projects: key rules (uppercase letter then ≥ 1 uppercase alphanumerics, ≤ 10 chars), duplicate
 *   key/name, lead must be a known account. Create answers `{ id: <number>, key, self }` (a number, as
 *   JIRA's ProjectIdentifiers does); GET answers `id` as a string. Creating a project also creates a
 *   Confluence space with the same key and name (the fake's convenience, not JIRA's).
 * - Issue types Epic (hierarchyLevel 1), Story/Task/Bug (0), Subtask (-1), with ids that do not follow
 *   the hierarchy; names are translatable (`setIssueTypeNames`), `issuetype: { name }` matches the
 *   current names only, so clients should pick types by `hierarchyLevel`/`subtask`.
 * - Fields: "Story point estimate" (`com.pyxis.greenhopper.jira:jsw-story-points`, id configurable) and,
 *   as on many real sites, a classic "Story Points" float field that is NOT on the create/edit screens
 *   (setting it: "Field '…' cannot be set. It is not on the appropriate screen, or unknown."). Story
 *   points cannot be set on subtasks either.
 * - Bulk create: ≤ 50 issueUpdates; each issue is validated against the state *before* the request
 *   (a parent created in the same bulk call is not visible yet); 201 `{ issues, errors }` when any
 *   succeeded, 400 `{ issues: [], errors }` when all failed. Descriptions must be ADF (a plain string
 *   is "Operation value must be an Atlassian Document…", malformed ADF — unknown node/mark types, empty
 *   text nodes, bad heading levels — is "INVALID_INPUT"). Summary required, ≤ 255, single line.
 *   Labels without spaces. Hierarchy: Epic has no parent, Story/Task/Bug parent must be an Epic,
 *   Subtask needs a Story/Task/Bug parent in the same project.
 * - Search (`/rest/api/3/search/jql`, GET or POST) is the enhanced search: without `fields` each issue
 *   is only `{ id }`; pages via `nextPageToken` (absent on the last page) + `isLast`; an empty (unbounded)
 *   JQL is 400. JQL subset: project, key/issuekey/id, labels, summary/text (`~` only, word match),
 *   issuetype/type, parent, status; `= != ~ !~ in, not in, is [not] EMPTY`, AND/OR/NOT, parentheses,
 *   ORDER BY key|id|created|summary; default order is newest first. Unknown fields/values are JIRA's
 *   400s. Unlike JIRA, results are immediately consistent.
 * - Confluence v2: spaces (with a homepage titled "<name> Home"), pages with storage-format bodies
 *   checked for XML well-formedness ("Error parsing xhtml: …"), unique titles per space
 *   (case-insensitive, current pages only), versioned updates (409 unless `version.number` is current
 *   + 1), cursor pagination via `_links.next`. Pages created without `parentId` go under the homepage.
 *
 * Stricter than the first version, after checking Atlassian's own descriptions:
 * - JIRA does not create a Confluence space with a project: a space exists only when added (`addSpace`)
 *   or created through Confluence's v1 API (`POST /wiki/rest/api/space` {key, name, description}; v2
 *   reads spaces but creates them only on role-based tenants: confluence.js "Spaces" recipe,
 *   developer.atlassian.com/cloud/confluence/rest/v1/api-group-space/#api-wiki-rest-api-space-post),
 *   which needs the "Create Space(s)" global permission (`canCreateSpaces`). `setConfluence(false)` is a
 *   site without Confluence: every /wiki path is 404.
 * - Creating a project needs the Administer Jira global permission (`admin`; 403 otherwise), readable
 *   through `GET /rest/api/3/mypermissions?permissions=ADMINISTER` (the parameter is required). A
 *   duplicate key is JIRA's `errors.projectKey` "Project '<name>' uses this project key.". Projects are
 *   listed by `GET /rest/api/3/project/search` (paged: values, startAt, maxResults, total, isLast).
 * - Fields a project accepts come from its create screens, per issue type (createmeta,
 *   `GET /rest/api/3/issue/createmeta/{project}/issuetypes/{id}`): `setCreateScreen(kind, …)` takes the
 *   story-points field off a screen (then setting it is "cannot be set"), or adds a required custom
 *   field without a default (then omitting it is "<Name> is required."), of a type given by `custom`:
 *   Epic Name (`com.pyxis.greenhopper.jira:gh-epic-label`, customfield_10011 on most sites) is one that
 *   company-managed projects created before the 2023 epic changes still require on Epics.
 * - A sub-task's parent cannot be set by an edit (`PUT …/issue/{key}` with `fields.parent`, even to the
 *   same parent, is errors.parent "Field 'parent' cannot be set. …"): JIRA moves a sub-task to another
 *   parent through its Move action only.
 * - A description over 32,767 characters is refused: errors.description "The entered text is too long.
 *   It exceeds the allowed limit of 32,767 characters." (JRACLOUD-59124; seen in
 *   prometheus-community/jiralert#41 and mozilla/jira-bugzilla-integration#1134). The fake measures the
 *   ADF document as sent (its JSON), the strictest reading of where the limit applies.
 * - Search is eventually consistent: with `setSearchLag(ms)` an issue appears in JQL results only `ms`
 *   after it was created (JIRA's search index lags behind writes).
 * - Scoped API tokens (`addUser({ scoped: true })`) work only through the platform gateway,
 *   `/ex/jira/{cloudId}/rest/...` and `/ex/confluence/{cloudId}/wiki/...` (here on the same origin, which
 *   stands for https://api.atlassian.com); classic tokens only on the site. The site's cloud id is at
 *   `GET /_edge/tenant_info` without credentials (pchuri/jira-cli#29 documents both).
 * - A write whose answer is lost: `server.faults.loseAnswer({ method, path })` (the kit's mode).
 *
 * Issue events, edits and deletes (issue 31):
 * - `jira:issue_updated` is delivered on every change of an issue's fields, whoever makes it: an edit through
 *   `PUT /rest/api/3/issue/{key}` (so an exporter's own re-export triggers it), a person's edit (`editIssue`) or
 *   a transition (`setIssueStatus`). The body carries `timestamp`, `webhookEvent`, `issue_event_type_name`
 *   ("issue_updated" for edits, "issue_generic" for transitions), `user`, `issue` and `changelog`. The issue
 *   is in the REST **v2** representation, as real deliveries are (whatever version the receiver reads
 *   elsewhere): `self` is `/rest/api/2/issue/{id}` on the site and the description is a wiki-markup string,
 *   not ADF (the "Webhooks" page shows v2 payloads; the issue's fields otherwise as v3: summary, labels,
 *   parent, status, updated, …). The changelog is `{ id, items }` with one
 *   item per changed field: `{ field, fieldtype, fieldId, from, fromString, to, toString }` (JIRA's
 *   ChangeDetails model, Jira Cloud platform REST v3 OpenAPI; the webhook shape as in
 *   developer.atlassian.com/cloud/jira/platform/webhooks). Labels are listed space-separated in
 *   from/toString, story points under the field's name with fieldtype "custom", a status change as field
 *   "Status" with fieldId "status" and the status ids in from/to. An edit that changes nothing delivers nothing (fake's choice).
 *   Deliveries of API edits are asynchronous, as JIRA's are: `settleWebhooks()` waits for them; `deliveries`
 *   lists them all. Signed with X-Hub-Signature `sha256=<HMAC of the body>` and numbered by
 *   X-Atlassian-Webhook-Identifier.
 * - Edit: `fields` sets, `update` applies verbs; a field may not be in both ("Fields included in here cannot
 *   be included in update", IssueUpdateDetails in the v3 OpenAPI). `update.labels` takes `add`, `remove`
 *   and `set` (developer.atlassian.com "Updating an Issue via the JIRA REST APIs"; dev.classmethod.jp
 *   "Adding and Removing Jira Labels via the REST API Without a Prior GET"): add/remove touch only the
 *   named label, so labels people added stay.
 * - `DELETE /rest/api/3/issue/{key}` (204; 400 when it has sub-tasks and `deleteSubtasks` is not "true"), or
 *   `deleteIssue(key)`: the issue, its sub-tasks and its links are gone; children of a deleted epic lose
 *   their parent; `jira:issue_deleted` is delivered.
 * - JQL naming an issue key that does not exist (or was deleted) is 400 "An issue with key 'X' does not
 *   exist for field 'key'."; a string that is not a key at all is "The issue key 'x' for field 'key' is
 *   invalid." (both as seen in hygieia/hygieia#1376). Enhanced search pages hold at most 100 issues when
 *   fields are asked for, 5000 when only ids are (search/jql `maxResults` in the v3 OpenAPI).
 * - Scoped API tokens are made for one app (`addUser({ scope: "jira" })`): through the gateway the other app
 *   answers 401 `{"code":401,"message":"Unauthorized; scope does not match"}` (Atlassian Community
 *   "OAuth 2.0: Unauthorized; scope does not match", atlassian-api/atlassian-python-api#1618; Atlassian's
 *   "Manage API tokens for your Atlassian account": a token with scopes is created for Jira or Confluence).
 * - Confluence stores storage-format bodies re-serialised, so what is read back is not byte for byte what
 *   was sent (sphinx-contrib/confluencebuilder#801: closing tags added or removed, attributes injected into
 *   macros, encoded characters read back decoded; pchuri/confluence-cli#183: self-closing elements
 *   expanded). The fake: text entities other than &amp; &lt; &gt; are decoded (`&quot;` → `"`, `&#39;` →
 *   `'`, numeric references → the character), attributes are double-quoted and single-spaced, empty
 *   elements are written `<br />` for HTML void elements and `<x></x>` otherwise, and a structured macro
 *   without `ac:macro-id` gets one. A page keeps its version unless updated; `pages()` shows it.
 *
 * `setMode` modes apply before auth and routing, to every request or only those whose pathname starts
 * with `path`, and stay until changed or for the next `times` matching requests. Error messages marked
 * "(fake)" in the source are ours; the others are Atlassian's.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import {
  type FakeRequest,
  type FakeServer,
  type FaultTarget,
  jsonReply,
  mediaType,
  type Reply,
  Router,
  startFakeServer,
  textReply,
} from "./kit";

/** JIRA's default workflow: each status with its category (new, indeterminate, done). */
export type FakeJiraStatus = "To Do" | "In Progress" | "Done";
const STATUSES: Record<
  FakeJiraStatus,
  { id: string; category: { id: number; key: string; colorName: string } }
> = {
  "To Do": { id: "10000", category: { id: 2, key: "new", colorName: "blue-gray" } },
  "In Progress": { id: "3", category: { id: 4, key: "indeterminate", colorName: "yellow" } },
  Done: { id: "10001", category: { id: 3, key: "done", colorName: "green" } },
};

export type FakeJiraMode = "ok" | "rate_limit" | "unavailable" | "server_error" | "slow";
export type FakeJiraIssueType = "epic" | "story" | "task" | "bug" | "subtask";

export type FakeJira = {
  /** The site origin without trailing slash, e.g. http://127.0.0.1:PORT (JIRA at /rest, Confluence at /wiki). */
  url: string;
  /** Account ids look like "5b10ac8d82e05b22cc7d4ef5" (24 hex) or "712020:<uuid>"; anything else throws. */
  addUser(u: {
    email: string;
    apiToken: string;
    accountId: string;
    displayName?: string;
    /** Administer Jira (may create projects); default true. */
    admin?: boolean;
    /** Create Space(s) in Confluence; default true. */
    canCreateSpaces?: boolean;
    /** A scoped API token: accepted only through the gateway paths; default false. */
    scoped?: boolean;
    /** A scoped token made for one app only (implies `scoped`): the other app answers 401 on the gateway. */
    scope?: "jira" | "confluence";
  }): void;
  /** The id of the "Story point estimate" field (default customfield_10016). */
  setStoryPointsField(id: string): void;
  /** Renames issue types (e.g. `{ epic: "Épica" }`); ids and hierarchy levels do not change. */
  setIssueTypeNames(names: Partial<Record<"epic" | "story" | "task" | "bug" | "subtask", string>>): void;
  /**
   * "rate_limit": 429 + `Retry-After` (`retryAfter` s, default 1); "unavailable": 503 + `Retry-After`;
   * "server_error": 500; "slow": answers normally after `delayMs` (default 10 s). `path`: only requests
   * whose pathname starts with it are affected (and counted); `times`: only the next N of them.
   */
  setMode(
    mode: FakeJiraMode,
    opts?: { times?: number; after?: number; path?: string; delayMs?: number; retryAfter?: number },
  ): void;
  /** The site's cloud id (what `/_edge/tenant_info` answers). */
  readonly cloudId: string;
  /** false: a site without Confluence (every /wiki path is 404). */
  setConfluence(enabled: boolean): void;
  /** Issues appear in search results only this long after they are created (default 0). */
  setSearchLag(ms: number): void;
  /**
   * The create screen of an issue type in every project: without the story-points field, and/or with
   * required custom fields that have no default value.
   */
  setCreateScreen(
    kind: FakeJiraIssueType,
    screen: { storyPoints?: boolean; required?: Array<{ fieldId: string; name: string; custom?: string }> },
  ): void;
  /** Creates a Confluence space. Throws if the key exists. */
  addSpace(space: { key: string; name?: string }): { id: string; homepageId: string };
  projects(): Array<{ key: string; name: string; leadAccountId: string }>;
  /** Issues in creation order. Throws for an unknown project. */
  issues(projectKey: string): Array<{
    key: string;
    type: FakeJiraIssueType;
    summary: string;
    parentKey: string | null;
    labels: string[];
    storyPoints: number | null;
    description: unknown;
    /** Keys of the issues that block this one ("Blocks" links where this is the outward issue). */
    blockedBy: string[];
  }>;
  /**
   * Moves an issue to a status, as a person would on the board, and delivers `jira:issue_updated` to the
   * registered webhooks (signed with X-Hub-Signature: sha256=HMAC of the body, for webhooks with a secret).
   */
  setIssueStatus(key: string, status: FakeJiraStatus): Promise<Array<{ status: number }>>;
  /**
   * Edits an issue as a person would in JIRA's UI (description as plain text, one paragraph a line, stored
   * as ADF; labels as the whole new list) and delivers `jira:issue_updated` with the changed fields in its
   * changelog. `by`: the account id of who edits (default the reporter). Throws for an unknown issue.
   */
  editIssue(
    key: string,
    fields: { summary?: string; description?: string; labels?: string[]; storyPoints?: number | null },
    opts?: { by?: string },
  ): Promise<Array<{ status: number }>>;
  /** Deletes an issue (and its sub-tasks) as a person would, and delivers `jira:issue_deleted`. */
  deleteIssue(key: string): Promise<Array<{ status: number }>>;
  /** Waits for the webhook deliveries still under way (API edits deliver asynchronously). */
  settleWebhooks(): Promise<void>;
  /** Every webhook delivery: event, issue key, the changelog's field ids, the receiver's status (0: no answer). */
  readonly deliveries: Array<{ event: string; key: string; fields: string[]; status: number; body: string }>;
  /** An admin webhook for issue events, with its secret. */
  addWebhook(hook: { url: string; secret: string }): void;
  /** Keeps only the named link types (JIRA Cloud's defaults: Blocks, Cloners, Duplicate, Relates). */
  setLinkTypes(names: string[]): void;
  /** Current pages of a space in creation order, without the homepage; body = storage value. Throws for an unknown space. */
  pages(
    spaceKey: string,
  ): Array<{ id: string; title: string; body: string; parentId: string | null; version: number }>;
  /** Every request; `path` includes the query string, `status` is 0 until answered (or if never answered). */
  readonly requests: Array<{ method: string; path: string; status: number; at: number }>;
  /** The highest number of requests being handled at once since start. */
  readonly maxInFlight: number;
  /** The kit underneath: its full request log and failure modes (`setMode` replaces the armed ones). */
  server: FakeServer;
  /** Destroys open sockets and pending "slow" timers. */
  close(): Promise<void>;
};

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_BULK = 50;
const MAX_SUMMARY = 255;
const MAX_TITLE = 255;
const DEFAULT_SLOW_MS = 10_000;
const DEFAULT_RETRY_AFTER_S = 1;
const DEFAULT_SP_FIELD = "customfield_10016";
const ACCOUNT_ID_RE = /^([0-9a-f]{24}|\d+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const PROJECT_KEY_RE = /^[A-Z][A-Z0-9]+$/;
const SOFTWARE_TEMPLATES = new Set([
  "com.pyxis.greenhopper.jira:gh-simplified-agility-kanban",
  "com.pyxis.greenhopper.jira:gh-simplified-agility-scrum",
  "com.pyxis.greenhopper.jira:gh-simplified-basic",
  "com.pyxis.greenhopper.jira:gh-simplified-kanban-classic",
  "com.pyxis.greenhopper.jira:gh-simplified-scrum-classic",
]);
const PROJECT_TYPES = new Set(["software", "business", "service_desk", "product_discovery"]);

const MSG = {
  unauthenticated: "Client must be authenticated to access this resource.",
  confluenceBasic:
    "Basic authentication with passwords is deprecated.  For more information, see: https://developer.atlassian.com/cloud/confluence/deprecation-notice-basic-auth/\n",
  badKey:
    "Project keys must start with an uppercase letter, followed by one or more uppercase alphanumeric characters.",
  keyTooLong: "The project key must not exceed 10 characters in length.",
  keyExists: (name: string) => `Project '${name}' uses this project key.`,
  notAdmin: "You must have global administrator rights in order to create a project.", // (fake) wording
  descriptionTooLong: "The entered text is too long. It exceeds the allowed limit of 32,767 characters.",
  required: (name: string) => `${name} is required.`,
  nameExists: "A project with that name already exists.",
  nameMissing: "You must specify a valid project name.",
  nameTooLong: "The project name must not exceed 80 characters in length.",
  badLead: "You must specify a valid project lead.",
  noProject: (k: string) => `No project could be found with key '${k}'.`,
  noProjectId: (id: string) => `No project could be found with id '${id}'.`,
  noIssue: "Issue does not exist or you do not have permission to see it.",
  summaryMissing: "You must specify a summary of the issue.",
  summaryTooLong: "Summary must be less than 255 characters.",
  summaryNewline: "The summary is invalid because it contains newline characters.",
  labelSpaces: (l: string) => `The label '${l}' contains spaces which is invalid.`,
  notAdf: "Operation value must be an Atlassian Document (see the Atlassian Document Format)",
  invalidInput: "INVALID_INPUT",
  projectInvalid: "Specify a valid project ID or key",
  issueTypeMissing: "Specify an issue type",
  issueTypeInvalid: "Specify a valid issue type",
  cannotSet: (f: string) => `Field '${f}' cannot be set. It is not on the appropriate screen, or unknown.`,
  parentNotFound: "Could not find issue by id or key.",
  parentHierarchy: "Given parent work item does not belong to appropriate hierarchy.",
  subtaskNoParent: "Issue type is a sub-task but parent issue key or id not specified.",
  notANumber: "Operation value must be a number.", // (fake) wording
  labelsNotArray: "Operation value must be an array of strings.", // (fake) wording
  tooMany: (n: number) => `The number of issues to create (${n}) exceeds the maximum of ${MAX_BULK}.`, // (fake)
  unbounded: "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
  jqlNoField: (f: string) => `Field '${f}' does not exist or you do not have permission to view it.`,
  jqlNoValue: (v: string, f: string) => `The value '${v}' does not exist for the field '${f}'.`,
  jqlNoIssue: (v: string, f: string) => `An issue with key '${v}' does not exist for field '${f}'.`,
  jqlOperator: (op: string, f: string) => `The operator '${op}' is not supported by the '${f}' field.`,
  pageExists:
    "A page with this title already exists: A page already exists with the same TITLE in this space",
  jqlBadKey: (v: string, f: string) => `The issue key '${v}' for field '${f}' is invalid.`,
  fieldsAndUpdate: (f: string) => `Field '${f}' cannot be in both 'fields' and 'update'.`, // (fake) wording
  unknownVerb: (v: string) => `Operation '${v}' is not supported by the labels field.`, // (fake) wording
  hasSubtasks: "The issue has subtasks; set the deleteSubtasks parameter to true to delete it with them.", // (fake) wording
  scopeMismatch: "Unauthorized; scope does not match",
} as const;

// ---------------------------------------------------------------------------------------------
// State

type User = {
  email: string;
  apiToken: string;
  accountId: string;
  displayName: string;
  admin: boolean;
  canCreateSpaces: boolean;
  scoped: boolean;
  /** The one app a scoped token was made for; null: every app. */
  scope: "jira" | "confluence" | null;
};
type TypeDef = { kind: FakeJiraIssueType; id: string; level: number; description: string; name: string };
type Project = {
  id: string;
  key: string;
  name: string;
  description: string;
  lead: User;
  projectTypeKey: string;
  templateKey: string | null;
  nextNumber: number;
};
type Issue = {
  id: string;
  key: string;
  project: Project;
  kind: FakeJiraIssueType;
  summary: string;
  description: unknown;
  labels: string[];
  parent: Issue | null;
  storyPoints: number | null;
  reporter: User;
  created: string;
  /** Date.now() at creation: search sees it only once `searchLagMs` has passed. */
  createdMs: number;
  status: FakeJiraStatus;
  updated: string;
  seq: number;
};
type Space = { id: string; key: string; name: string; homepageId: string; createdAt: string };
type Page = {
  id: string;
  space: Space;
  title: string;
  status: "current" | "draft";
  parentId: string | null;
  representation: string;
  body: string;
  version: number;
  authorId: string;
  createdAt: string;
  seq: number;
};
type Ctx = { req: FakeRequest; wiki: boolean; user: User };

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly text?: string,
  ) {
    super(`HTTP ${status}`);
  }
}

const jiraError = (status: number, messages: string[], errors: Record<string, string> = {}) =>
  new ApiError(status, { errorMessages: messages, errors });
const wikiError = (status: number, code: string, title: string) =>
  new ApiError(status, { errors: [{ status, code, title, detail: null }] });

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const nowJira = () => new Date().toISOString().replace("Z", "+0000");

// ---------------------------------------------------------------------------------------------
// Atlassian Document Format (a structural check, not the full JSON schema)

const ADF_NODES = new Set([
  "paragraph",
  "heading",
  "bulletList",
  "orderedList",
  "listItem",
  "codeBlock",
  "blockquote",
  "rule",
  "panel",
  "table",
  "tableRow",
  "tableHeader",
  "tableCell",
  "mediaSingle",
  "mediaGroup",
  "media",
  "expand",
  "nestedExpand",
  "taskList",
  "taskItem",
  "decisionList",
  "decisionItem",
  "blockCard",
  "embedCard",
  "layoutSection",
  "layoutColumn",
  "text",
  "hardBreak",
  "mention",
  "emoji",
  "inlineCard",
  "date",
  "status",
  "mediaInline",
]);
const ADF_MARKS = new Set([
  "strong",
  "em",
  "code",
  "link",
  "strike",
  "underline",
  "subsup",
  "textColor",
  "backgroundColor",
  "alignment",
  "indentation",
  "border",
  "annotation",
  "breakout",
]);

function validAdfNode(node: unknown, depth: number): boolean {
  if (!isRecord(node) || typeof node.type !== "string" || depth > 50) return false;
  if (!ADF_NODES.has(node.type)) return false;
  if (node.type === "text") {
    if (typeof node.text !== "string" || node.text.length === 0) return false;
    if (node.marks !== undefined) {
      if (!Array.isArray(node.marks)) return false;
      for (const m of node.marks) {
        if (!isRecord(m) || typeof m.type !== "string" || !ADF_MARKS.has(m.type)) return false;
        if (m.type === "link" && !(isRecord(m.attrs) && typeof m.attrs.href === "string")) return false;
      }
    }
  }
  if (node.type === "heading") {
    const level = isRecord(node.attrs) ? node.attrs.level : undefined;
    if (typeof level !== "number" || !Number.isInteger(level) || level < 1 || level > 6) return false;
  }
  if (node.content !== undefined) {
    if (!Array.isArray(node.content)) return false;
    if (node.type === "text") return false;
    for (const child of node.content) if (!validAdfNode(child, depth + 1)) return false;
  }
  return true;
}

/** null when fine, else JIRA's per-field message. */
function adfProblem(value: unknown): string | null {
  if (value === null) return null;
  if (!isRecord(value)) return MSG.notAdf;
  if (value.type !== "doc" || value.version !== 1 || !Array.isArray(value.content)) return MSG.invalidInput;
  for (const child of value.content) if (!validAdfNode(child, 1)) return MSG.invalidInput;
  return null;
}

/** An ADF document as a person reads it: one line a paragraph (or other block), as the changelog shows it. */
/**
 * ADF as JIRA's REST v2 gives it, in wiki markup: paragraphs apart by a blank line, `hN. ` headings, `* ` and
 * `# ` list items, `*strong*`, `_em_`, `{{code}}`, `[text|url]` links, `{code}` blocks, `\\` for a break,
 * and markup characters in text escaped with a backslash (the "Text Formatting Notation" help).
 */
function adfWiki(value: unknown): string {
  const marked = (n: Record<string, unknown>): string => {
    let t = String(n.text ?? "").replace(/([*_{}[\]|!+^~-])/g, "\\$1");
    for (const m of Array.isArray(n.marks) ? n.marks : []) {
      if (!isRecord(m)) continue;
      if (m.type === "strong") t = `*${t}*`;
      else if (m.type === "em") t = `_${t}_`;
      else if (m.type === "code") t = `{{${t}}}`;
      else if (m.type === "link" && isRecord(m.attrs)) t = `[${t}|${String(m.attrs.href ?? "")}]`;
    }
    return t;
  };
  const inline = (n: unknown): string =>
    !isRecord(n)
      ? ""
      : n.type === "text"
        ? marked(n)
        : n.type === "hardBreak"
          ? "\\\\\n"
          : Array.isArray(n.content)
            ? n.content.map(inline).join("")
            : "";
  const block = (n: unknown, bullet = ""): string[] => {
    if (!isRecord(n)) return [];
    const content = Array.isArray(n.content) ? n.content : [];
    switch (n.type) {
      case "paragraph":
        return [`${bullet}${content.map(inline).join("")}`];
      case "heading":
        return [`h${isRecord(n.attrs) ? Number(n.attrs.level ?? 1) : 1}. ${content.map(inline).join("")}`];
      case "codeBlock":
        return [`{code}\n${content.map((c) => (isRecord(c) ? String(c.text ?? "") : "")).join("")}\n{code}`];
      case "bulletList":
      case "orderedList": {
        const mark = `${bullet.trim()}${n.type === "bulletList" ? "*" : "#"} `;
        return content.flatMap((item) =>
          isRecord(item) && Array.isArray(item.content) ? item.content.flatMap((c) => block(c, mark)) : [],
        );
      }
      default:
        return content.flatMap((c) => block(c, bullet));
    }
  };
  if (!isRecord(value) || !Array.isArray(value.content)) return "";
  return value.content.map((c) => block(c).join("\n")).join("\n\n");
}

function adfPlain(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const lines: string[] = [];
  const inline = (n: unknown): string =>
    !isRecord(n)
      ? ""
      : n.type === "text"
        ? String(n.text ?? "")
        : n.type === "hardBreak"
          ? "\n"
          : Array.isArray(n.content)
            ? n.content.map(inline).join("")
            : "";
  const block = (n: unknown) => {
    if (!isRecord(n) || !Array.isArray(n.content)) return;
    if (n.content.some((c) => isRecord(c) && (c.type === "text" || c.type === "hardBreak")))
      lines.push(inline(n));
    else for (const c of n.content) block(c);
  };
  block(value);
  return lines.join("\n");
}

/** Plain text typed into JIRA's editor, as the ADF it stores: one paragraph a non-empty line. */
function plainToAdf(text: string) {
  const content = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => ({ type: "paragraph", content: [{ type: "text", text: l }] }));
  return { type: "doc", version: 1, content };
}

function adfText(value: unknown): string {
  if (!isRecord(value)) return "";
  const own = typeof value.text === "string" ? value.text : "";
  const children = Array.isArray(value.content) ? value.content.map(adfText).join(" ") : "";
  return `${own} ${children}`.trim();
}

// ---------------------------------------------------------------------------------------------
// Confluence storage format: an XML well-formedness check (Confluence parses it with a StAX parser)

const NAME_RE = /^[A-Za-z_][\w.:-]*/;

function xhtmlProblem(src: string): string | null {
  const stack: string[] = [];
  let i = 0;
  const entity = (at: number): number | string => {
    const m = /^&(#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/.exec(src.slice(at, at + 40));
    if (m) return at + m[0].length;
    const next = src[at + 1] ?? "EOF";
    return `Unexpected character '${next}' (code ${next === "EOF" ? -1 : next.charCodeAt(0)}); expected a semi-colon after the reference for entity`;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "&") {
      const r = entity(i);
      if (typeof r === "string") return r;
      i = r;
      continue;
    }
    if (c !== "<") {
      i++;
      continue;
    }
    if (src.startsWith("<!--", i)) {
      const end = src.indexOf("-->", i + 4);
      if (end < 0) return "Unexpected EOF in comment";
      i = end + 3;
      continue;
    }
    if (src.startsWith("<![CDATA[", i)) {
      const end = src.indexOf("]]>", i + 9);
      if (end < 0) return "Unexpected EOF in CDATA section";
      i = end + 3;
      continue;
    }
    if (src[i + 1] === "/") {
      const name = NAME_RE.exec(src.slice(i + 2))?.[0];
      if (!name) return `Unexpected character '${src[i + 2] ?? "EOF"}' after '</'`;
      const close = src.indexOf(">", i);
      if (close < 0 || src.slice(i + 2 + name.length, close).trim() !== "")
        return `Unexpected character in close tag </${name}>`;
      const open = stack.pop();
      if (open === undefined) return `Unexpected close tag </${name}>; no open element`;
      if (open !== name) return `Unexpected close tag </${name}>; expecting </${open}>.`;
      i = close + 1;
      continue;
    }
    const name = NAME_RE.exec(src.slice(i + 1))?.[0];
    if (!name) {
      const next = src[i + 1] ?? "EOF";
      return `Unexpected character '${next}' (code ${next === "EOF" ? -1 : next.charCodeAt(0)}) in content after '<' (malformed start element?).`;
    }
    i += 1 + name.length;
    // attributes
    for (;;) {
      while (/\s/.test(src[i] ?? "")) i++;
      if (src.startsWith("/>", i)) {
        i += 2;
        break;
      }
      if (src[i] === ">") {
        stack.push(name);
        i++;
        break;
      }
      const attr = NAME_RE.exec(src.slice(i))?.[0];
      if (!attr) return `Unexpected character '${src[i] ?? "EOF"}' in start tag <${name}>`;
      i += attr.length;
      while (/\s/.test(src[i] ?? "")) i++;
      if (src[i] !== "=")
        return `Unexpected character '${src[i] ?? "EOF"}': expected '=' after attribute '${attr}'`;
      i++;
      while (/\s/.test(src[i] ?? "")) i++;
      const quote = src[i];
      if (quote !== '"' && quote !== "'") return `Unexpected character '${quote ?? "EOF"}': expected a quote`;
      i++;
      while (i < src.length && src[i] !== quote) {
        if (src[i] === "<") return `Unexpected '<' in attribute value of '${attr}'`;
        if (src[i] === "&") {
          const r = entity(i);
          if (typeof r === "string") return r;
          i = r;
        } else i++;
      }
      if (i >= src.length) return "Unexpected EOF in attribute value";
      i++;
    }
  }
  if (stack.length > 0) return `Unexpected EOF; was expecting a close tag for element <${stack.at(-1)}>`;
  return null;
}

/** HTML void elements: Confluence writes them empty-tagged (`<br />`). */
const VOID_ELEMENTS = new Set(["br", "hr", "img", "col", "area", "wbr", "input", "source", "embed", "param"]);
const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

const escapeChars = (t: string, attr: boolean) =>
  t
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\u00a0/g, "&nbsp;")
    .replace(/"/g, attr ? "&quot;" : '"');

/** Text or an attribute value re-encoded: references decoded and only what must be escaped escaped. */
function reencode(text: string, attr = false): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(/&(#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g)) {
    out += escapeChars(text.slice(last, m.index), attr);
    const ref = m[1]!;
    if (ref.startsWith("#x"))
      out += escapeChars(String.fromCodePoint(Number.parseInt(ref.slice(2), 16)), attr);
    else if (ref.startsWith("#")) out += escapeChars(String.fromCodePoint(Number(ref.slice(1))), attr);
    else if (NAMED_ENTITIES[ref] !== undefined) out += escapeChars(NAMED_ENTITIES[ref]!, attr);
    else out += m[0]; // HTML's other named entities are kept as written
    last = m.index + m[0].length;
  }
  return out + escapeChars(text.slice(last), attr);
}

/**
 * A well-formed storage body as Confluence keeps it (see the header for the sources): entities decoded
 * where XML does not need them, attributes double-quoted, empty elements in one form, macros given an id.
 */
function normalizeStorage(src: string): string {
  let out = "";
  let i = 0;
  const text = (t: string) => reencode(t);
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    if (lt < 0) {
      out += text(src.slice(i));
      break;
    }
    out += text(src.slice(i, lt));
    if (src.startsWith("<!--", lt)) {
      const end = src.indexOf("-->", lt) + 3;
      out += src.slice(lt, end);
      i = end;
      continue;
    }
    if (src.startsWith("<![CDATA[", lt)) {
      const end = src.indexOf("]]>", lt) + 3;
      out += src.slice(lt, end);
      i = end;
      continue;
    }
    const gt = (() => {
      // The tag's end: the first '>' outside a quoted attribute value.
      let quote: string | null = null;
      for (let j = lt + 1; j < src.length; j++) {
        const c = src[j];
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === ">") return j;
      }
      return src.length - 1;
    })();
    const raw = src.slice(lt + 1, gt);
    i = gt + 1;
    if (raw.startsWith("/")) {
      const name = raw.slice(1).trim();
      out += VOID_ELEMENTS.has(name.toLowerCase()) ? "" : `</${name}>`;
      continue;
    }
    const selfClosing = raw.trimEnd().endsWith("/");
    const body = selfClosing ? raw.trimEnd().slice(0, -1) : raw;
    const name = NAME_RE.exec(body)?.[0] ?? body;
    const attrs: Array<[string, string]> = [];
    const attrRe = /([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g;
    for (const m of body.slice(name.length).matchAll(attrRe)) attrs.push([m[1]!, m[3] ?? m[4] ?? ""]);
    if (name === "ac:structured-macro" && !attrs.some(([a]) => a === "ac:macro-id"))
      attrs.push(["ac:macro-id", randomUUID()]);
    const open = `<${name}${attrs.map(([a, v]) => ` ${a}="${reencode(v, true)}"`).join("")}`;
    if (VOID_ELEMENTS.has(name.toLowerCase())) out += `${open} />`;
    else out += selfClosing ? `${open}></${name}>` : `${open}>`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JQL (a subset)

type Tok =
  | { t: "word"; v: string }
  | { t: "str"; v: string }
  | { t: "op"; v: string }
  | { t: "lp" }
  | { t: "rp" }
  | { t: "comma" };
type Value = { v: string; kind: "word" | "str" };
type Cond =
  | { k: "and"; a: Cond; b: Cond }
  | { k: "or"; a: Cond; b: Cond }
  | { k: "not"; a: Cond }
  | { k: "clause"; field: string; op: string; values: Value[] | "EMPTY" };

function tokenizeJql(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(") {
      out.push({ t: "lp" });
      i++;
    } else if (c === ")") {
      out.push({ t: "rp" });
      i++;
    } else if (c === ",") {
      out.push({ t: "comma" });
      i++;
    } else if (c === '"' || c === "'") {
      let v = "";
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === "\\" && i + 1 < src.length) i++;
        v += src[i];
        i++;
      }
      if (i >= src.length)
        throw jqlError(`Error in the JQL Query: The quoted string '${v}' has not been completed.`);
      i++;
      out.push({ t: "str", v });
    } else if (/[=!~<>]/.test(c)) {
      const m = /^(!=|!~|>=|<=|=|~|>|<)/.exec(src.slice(i));
      if (!m) throw jqlError(`Error in the JQL Query: The character '${c}' is a reserved JQL character.`);
      out.push({ t: "op", v: m[0] });
      i += m[0].length;
    } else {
      const m = /^[^\s()=!~<>,"']+/.exec(src.slice(i));
      out.push({ t: "word", v: m![0] });
      i += m![0].length;
    }
  }
  return out;
}

const jqlError = (message: string) => jiraError(400, [message]);

function parseJql(src: string): { where: Cond | null; order: Array<{ field: string; desc: boolean }> } {
  const toks = tokenizeJql(src);
  let p = 0;
  const peekWord = (w: string) => {
    const t = toks[p];
    return t?.t === "word" && t.v.toUpperCase() === w;
  };
  const fail = (): never => {
    const t = toks[p];
    const near = t === undefined ? "the end of the query" : "t" in t && "v" in t ? `'${t.v}'` : "a symbol";
    throw jqlError(`Error in the JQL Query: Expecting a field name, operator or value near ${near}.`);
  };
  const value = (): Value => {
    const t = toks[p];
    if (t?.t === "word" || t?.t === "str") {
      p++;
      return { v: t.v, kind: t.t };
    }
    return fail();
  };
  const clause = (): Cond => {
    const f = toks[p];
    if (f?.t !== "word" && f?.t !== "str") return fail();
    p++;
    const field = f.v;
    let op: string;
    const t = toks[p];
    if (t?.t === "op") {
      op = t.v;
      p++;
    } else if (peekWord("IN")) {
      op = "in";
      p++;
    } else if (
      peekWord("NOT") &&
      toks[p + 1]?.t === "word" &&
      (toks[p + 1] as { v: string }).v.toUpperCase() === "IN"
    ) {
      op = "not in";
      p += 2;
    } else if (peekWord("IS")) {
      p++;
      if (peekWord("NOT")) {
        p++;
        op = "is not";
      } else op = "is";
      if (!peekWord("EMPTY") && !peekWord("NULL")) return fail();
      p++;
      return { k: "clause", field, op, values: "EMPTY" };
    } else return fail();
    if (op === "in" || op === "not in") {
      if (toks[p]?.t !== "lp") return fail();
      p++;
      const values = [value()];
      while (toks[p]?.t === "comma") {
        p++;
        values.push(value());
      }
      if (toks[p]?.t !== "rp") return fail();
      p++;
      return { k: "clause", field, op, values };
    }
    if ((op === "=" || op === "!=") && (peekWord("EMPTY") || peekWord("NULL"))) {
      p++;
      return { k: "clause", field, op: op === "=" ? "is" : "is not", values: "EMPTY" };
    }
    return { k: "clause", field, op, values: [value()] };
  };
  const unary = (): Cond => {
    if (peekWord("NOT")) {
      p++;
      return { k: "not", a: unary() };
    }
    if (toks[p]?.t === "lp") {
      p++;
      const inner = orExpr();
      if (toks[p]?.t !== "rp") return fail();
      p++;
      return inner;
    }
    return clause();
  };
  const andExpr = (): Cond => {
    let a = unary();
    while (peekWord("AND")) {
      p++;
      a = { k: "and", a, b: unary() };
    }
    return a;
  };
  const orExpr = (): Cond => {
    let a = andExpr();
    while (peekWord("OR")) {
      p++;
      a = { k: "or", a, b: andExpr() };
    }
    return a;
  };
  let where: Cond | null = null;
  if (p < toks.length && !peekWord("ORDER")) where = orExpr();
  const order: Array<{ field: string; desc: boolean }> = [];
  if (peekWord("ORDER")) {
    p++;
    if (!peekWord("BY")) return fail();
    p++;
    do {
      if (toks[p]?.t === "comma") p++;
      const f = toks[p];
      if (f?.t !== "word" && f?.t !== "str") return fail();
      p++;
      let desc = false;
      if (peekWord("ASC")) p++;
      else if (peekWord("DESC")) {
        desc = true;
        p++;
      }
      order.push({ field: f.v, desc });
    } while (toks[p]?.t === "comma");
  }
  if (p < toks.length) fail();
  return { where, order };
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

// ---------------------------------------------------------------------------------------------

export async function startFakeJira(opts: { host?: string; port?: number } = {}): Promise<FakeJira> {
  const users = new Map<string, User>(); // by lowercased email
  const usersById = new Map<string, User>();
  const projects = new Map<string, Project>(); // by key
  const issues: Issue[] = [];
  const issuesByKey = new Map<string, Issue>();
  const DEFAULT_LINK_TYPES = [
    { id: "10000", name: "Blocks", inward: "is blocked by", outward: "blocks" },
    { id: "10001", name: "Cloners", inward: "is cloned by", outward: "clones" },
    { id: "10002", name: "Duplicate", inward: "is duplicated by", outward: "duplicates" },
    { id: "10003", name: "Relates", inward: "relates to", outward: "relates to" },
  ];
  let linkTypes = [...DEFAULT_LINK_TYPES];
  const links: Array<{ id: string; type: string; inward: Issue; outward: Issue }> = [];
  let nextLinkId = 10000;
  const issuesById = new Map<string, Issue>();
  const spaces = new Map<string, Space>(); // by key
  const spacesById = new Map<string, Space>();
  const pages = new Map<string, Page>();
  let storyPointsField = DEFAULT_SP_FIELD;
  const cloudId = randomUUID();
  const webhooks: Array<{ url: string; secret: string }> = [];
  let nextChangelogId = 10100;
  let nextDeliveryId = 1;
  let confluence = true;
  let searchLagMs = 0;
  const screens: Record<
    FakeJiraIssueType,
    { storyPoints: boolean; required: Array<{ fieldId: string; name: string; custom?: string }> }
  > = {
    epic: { storyPoints: true, required: [] },
    story: { storyPoints: true, required: [] },
    task: { storyPoints: true, required: [] },
    bug: { storyPoints: true, required: [] },
    subtask: { storyPoints: false, required: [] },
  };
  const requiredFields = () => Object.values(screens).flatMap((sc) => sc.required);
  let nextProjectId = 10000;
  let nextIssueId = 10000;
  let nextSpaceId = 98305;
  let nextPageId = 65537;
  let seq = 0;
  let base = ""; // known once listening

  // Ids deliberately not in hierarchy order.
  const types: Record<FakeJiraIssueType, TypeDef> = {
    epic: {
      kind: "epic",
      id: "10000",
      level: 1,
      name: "Epic",
      description: "Epics track collections of related bugs, stories, and tasks.",
    },
    task: {
      kind: "task",
      id: "10001",
      level: 0,
      name: "Task",
      description: "Tasks track small, distinct pieces of work.",
    },
    subtask: {
      kind: "subtask",
      id: "10002",
      level: -1,
      name: "Subtask",
      description: "Subtasks track small pieces of work that are part of a larger task.",
    },
    story: {
      kind: "story",
      id: "10004",
      level: 0,
      name: "Story",
      description: "Stories track functionality or features expressed as user goals.",
    },
    bug: { kind: "bug", id: "10005", level: 0, name: "Bug", description: "Bugs track problems or errors." },
  };
  const typeList = () => [types.epic, types.task, types.subtask, types.story, types.bug];

  const classicStoryPointsField = () =>
    storyPointsField === "customfield_10026" ? "customfield_10027" : "customfield_10026";

  // ----- JSON shapes -----------------------------------------------------------------------------

  const avatarUrls = (kind: string, id: string) => ({
    "48x48": `${base}/rest/api/3/universal_avatar/view/type/${kind}/avatar/${id}`,
    "24x24": `${base}/rest/api/3/universal_avatar/view/type/${kind}/avatar/${id}?size=small`,
    "16x16": `${base}/rest/api/3/universal_avatar/view/type/${kind}/avatar/${id}?size=xsmall`,
    "32x32": `${base}/rest/api/3/universal_avatar/view/type/${kind}/avatar/${id}?size=medium`,
  });
  const userJson = (u: User) => ({
    self: `${base}/rest/api/3/user?accountId=${u.accountId}`,
    accountId: u.accountId,
    accountType: "atlassian",
    emailAddress: u.email,
    avatarUrls: avatarUrls("user", "10122"),
    displayName: u.displayName,
    active: true,
    timeZone: "Etc/UTC",
  });
  const typeJson = (t: TypeDef) => ({
    self: `${base}/rest/api/3/issuetype/${t.id}`,
    id: t.id,
    description: t.description,
    iconUrl: `${base}/rest/api/2/universal_avatar/view/type/issuetype/avatar/${Number(t.id) + 300}?size=medium`,
    name: t.name,
    untranslatedName: { epic: "Epic", story: "Story", task: "Task", bug: "Bug", subtask: "Subtask" }[t.kind],
    subtask: t.level < 0,
    avatarId: Number(t.id) + 300,
    hierarchyLevel: t.level,
  });
  const projectRef = (p: Project) => ({
    self: `${base}/rest/api/3/project/${p.id}`,
    id: p.id,
    key: p.key,
    name: p.name,
    projectTypeKey: p.projectTypeKey,
    simplified: false,
    avatarUrls: avatarUrls("project", "10400"),
  });
  const projectJson = (p: Project) => ({
    expand: "description,lead,issueTypes,url,projectKeys,permissions,insight",
    self: `${base}/rest/api/3/project/${p.id}`,
    id: p.id,
    key: p.key,
    description: p.description,
    lead: { ...userJson(p.lead), emailAddress: undefined },
    components: [],
    issueTypes: typeList().map(typeJson),
    assigneeType: "UNASSIGNED",
    versions: [],
    name: p.name,
    roles: {},
    avatarUrls: avatarUrls("project", "10400"),
    projectTypeKey: p.projectTypeKey,
    simplified: false,
    style: "classic",
    isPrivate: false,
    properties: {},
  });
  const statusJson = (name: FakeJiraStatus = "To Do") => {
    const st = STATUSES[name];
    return {
      self: `${base}/rest/api/3/status/${st.id}`,
      description: "",
      name,
      id: st.id,
      statusCategory: {
        self: `${base}/rest/api/3/statuscategory/${st.category.id}`,
        id: st.category.id,
        key: st.category.key,
        colorName: st.category.colorName,
        name: name === "In Progress" ? "In Progress" : name,
      },
    };
  };
  const issueRef = (i: Issue) => ({
    id: i.id,
    key: i.key,
    self: `${base}/rest/api/3/issue/${i.id}`,
    fields: { summary: i.summary, status: statusJson(i.status), issuetype: typeJson(types[i.kind]) },
  });
  const allFields = (i: Issue): Record<string, unknown> => {
    const fields: Record<string, unknown> = {
      summary: i.summary,
      issuetype: typeJson(types[i.kind]),
      project: projectRef(i.project),
      description: i.description ?? null,
      labels: [...i.labels],
      status: statusJson(i.status),
      priority: { self: `${base}/rest/api/3/priority/3`, id: "3", name: "Medium" },
      reporter: { ...userJson(i.reporter), emailAddress: undefined },
      creator: { ...userJson(i.reporter), emailAddress: undefined },
      assignee: null,
      created: i.created,
      updated: i.updated,
      subtasks: issues.filter((c) => c.parent === i && c.kind === "subtask").map(issueRef),
      // Each link as this issue sees it: the other side, under its role (JIRA's issuelinks field).
      issuelinks: links
        .filter((l) => l.inward === i || l.outward === i)
        .map((l) => {
          const t = linkTypes.find((x) => x.name === l.type) ?? {
            id: "?",
            name: l.type,
            inward: "",
            outward: "",
          };
          return {
            id: l.id,
            type: { id: t.id, name: t.name, inward: t.inward, outward: t.outward },
            ...(l.outward === i
              ? { inwardIssue: issueRef(l.inward) }
              : { outwardIssue: issueRef(l.outward) }),
          };
        }),
      [storyPointsField]: i.storyPoints,
      [classicStoryPointsField()]: null,
    };
    if (i.parent) fields.parent = issueRef(i.parent);
    return fields;
  };
  /** `requested`: null = all fields; else JIRA's `fields` list (`*all`, `*navigable`, `-x`, ids). */
  const issueJson = (i: Issue, requested: string[] | null) => {
    const all = allFields(i);
    let fields: Record<string, unknown> = all;
    if (requested !== null) {
      const wantAll = requested.some((f) => f === "*all" || f === "*navigable");
      const excluded = new Set(requested.filter((f) => f.startsWith("-")).map((f) => f.slice(1)));
      fields = {};
      for (const [k, v] of Object.entries(all))
        if ((wantAll || requested.includes(k)) && !excluded.has(k)) fields[k] = v;
    }
    return {
      expand: "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations",
      id: i.id,
      self: `${base}/rest/api/3/issue/${i.id}`,
      key: i.key,
      fields,
    };
  };

  const fieldList = () => {
    const sys = (id: string, name: string, schema: Record<string, unknown>, clause = id) => ({
      id,
      key: id,
      name,
      custom: false,
      orderable: true,
      navigable: true,
      searchable: true,
      clauseNames: [clause],
      schema,
    });
    const custom = (id: string, name: string, customType: string) => {
      const n = Number(id.replace("customfield_", ""));
      return {
        id,
        key: id,
        name,
        untranslatedName: name,
        custom: true,
        orderable: true,
        navigable: true,
        searchable: true,
        clauseNames: [`cf[${n}]`, name],
        schema: { type: "number", custom: customType, customId: n },
      };
    };
    return [
      sys("summary", "Summary", { type: "string", system: "summary" }),
      sys("description", "Description", { type: "string", system: "description" }),
      sys("issuetype", "Issue Type", { type: "issuetype", system: "issuetype" }, "type"),
      sys("project", "Project", { type: "project", system: "project" }),
      sys("labels", "Labels", { type: "array", items: "string", system: "labels" }),
      sys("parent", "Parent", { type: "issuelink", system: "parent" }),
      sys("status", "Status", { type: "status", system: "status" }),
      sys("reporter", "Reporter", { type: "user", system: "reporter" }),
      sys("assignee", "Assignee", { type: "user", system: "assignee" }),
      sys("priority", "Priority", { type: "priority", system: "priority" }),
      custom(
        classicStoryPointsField(),
        "Story Points",
        "com.atlassian.jira.plugin.system.customfieldtypes:float",
      ),
      custom(storyPointsField, "Story point estimate", "com.pyxis.greenhopper.jira:jsw-story-points"),
      ...requiredFields().map((r) => {
        const type = r.custom ?? "com.atlassian.jira.plugin.system.customfieldtypes:textfield";
        return {
          ...custom(r.fieldId, r.name, type),
          schema: { type: "string", custom: type, customId: Number(r.fieldId.replace(/\D/g, "")) },
        };
      }),
    ];
  };

  const spaceJson = (s: Space) => ({
    id: s.id,
    key: s.key,
    name: s.name,
    type: "global",
    status: "current",
    authorId: usersById.values().next().value?.accountId ?? null,
    createdAt: s.createdAt,
    homepageId: s.homepageId,
    description: null,
    icon: null,
    _links: { webui: `/spaces/${s.key}` },
  });
  const webTitle = (t: string) => encodeURIComponent(t).replace(/%20/g, "+");
  const pageJson = (pg: Page, withBody: boolean) => ({
    parentType: pg.parentId ? "page" : null,
    parentId: pg.parentId,
    spaceId: pg.space.id,
    ownerId: pg.authorId,
    lastOwnerId: null,
    createdAt: pg.createdAt,
    authorId: pg.authorId,
    position: pg.seq,
    version: {
      createdAt: pg.createdAt,
      message: "",
      number: pg.version,
      minorEdit: false,
      authorId: pg.authorId,
    },
    body: withBody ? { [pg.representation]: { representation: pg.representation, value: pg.body } } : {},
    status: pg.status,
    title: pg.title,
    id: pg.id,
    _links: {
      editui: `/pages/resumedraft.action?draftId=${pg.id}`,
      webui: `/spaces/${pg.space.key}/pages/${pg.id}/${webTitle(pg.title)}`,
      edituiv2: `/spaces/${pg.space.key}/pages/edit-v2/${pg.id}`,
      tinyui: `/x/${Buffer.from(pg.id).toString("base64url")}`,
      base: `${base}/wiki`,
    },
  });

  // ----- helpers ---------------------------------------------------------------------------------

  /** Writes must be JSON; JIRA's XSRF check refuses "simple" content types first. */
  function readJson(ctx: Ctx): Record<string, unknown> {
    const type = mediaType(ctx.req.headers["content-type"]);
    const simple =
      type === "" ||
      type === "text/plain" ||
      type === "application/x-www-form-urlencoded" ||
      type === "multipart/form-data";
    if (type !== "application/json") {
      const noCheck = String(ctx.req.headers["x-atlassian-token"] ?? "").toLowerCase() === "no-check";
      if (simple && type !== "" && !noCheck) throw new ApiError(403, null, {}, "XSRF check failed");
      throw ctx.wiki
        ? wikiError(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type")
        : new ApiError(415, null, {}, "");
    }
    const data = ctx.req.json();
    if (!isRecord(data))
      throw ctx.wiki
        ? wikiError(400, "INVALID_REQUEST_PARAMETER", "Request body must be a JSON object")
        : jiraError(400, ["Can not deserialize instance of object out of the request body"]); // (fake)
    return data;
  }

  /** JSON as Atlassian sends it; no body (a 204) without `body`. */
  const reply = (status: number, body?: unknown, headers: Record<string, string> = {}): Reply =>
    body === undefined
      ? { status, headers }
      : jsonReply(status, body, { "Content-Type": "application/json;charset=UTF-8", ...headers });

  const errorReply = (err: unknown): Reply => {
    if (!(err instanceof ApiError))
      return reply(500, { errorMessages: [`fake JIRA crashed: ${String(err)}`], errors: {} });
    if (err.text !== undefined)
      return textReply(err.status, err.text, { "Content-Type": "text/plain;charset=UTF-8", ...err.headers });
    return reply(err.status, err.body, err.headers);
  };

  const findProject = (ref: string): Project | undefined => {
    if (/^\d+$/.test(ref)) return [...projects.values()].find((p) => p.id === ref);
    return projects.get(ref.toUpperCase());
  };
  const projectOr404 = (ref: string) => {
    const p = findProject(ref);
    if (!p) throw jiraError(404, [/^\d+$/.test(ref) ? MSG.noProjectId(ref) : MSG.noProject(ref)]);
    return p;
  };
  const findIssue = (ref: string): Issue | undefined =>
    /^\d+$/.test(ref) ? issuesById.get(ref) : issuesByKey.get(ref.toUpperCase());
  const issueOr404 = (ref: string) => {
    const i = findIssue(ref);
    if (!i) throw jiraError(404, [MSG.noIssue]);
    return i;
  };

  const createSpace = (key: string, name: string): Space => {
    if (spaces.has(key)) throw new Error(`fake JIRA: space ${key} already exists`);
    const space: Space = {
      id: String(nextSpaceId++),
      key,
      name,
      homepageId: String(nextPageId++),
      createdAt: new Date().toISOString(),
    };
    spaces.set(key, space);
    spacesById.set(space.id, space);
    pages.set(space.homepageId, {
      id: space.homepageId,
      space,
      title: `${name} Home`,
      status: "current",
      parentId: null,
      representation: "storage",
      body: `<p>Welcome to ${name.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</p>`,
      version: 1,
      authorId: usersById.values().next().value?.accountId ?? "",
      createdAt: space.createdAt,
      seq: seq++,
    });
    return space;
  };

  // ----- JIRA: projects --------------------------------------------------------------------------

  function createProject(ctx: Ctx) {
    if (!ctx.user.admin) throw jiraError(403, [MSG.notAdmin]);
    const body = readJson(ctx);
    const errors: Record<string, string> = {};
    const key = body.key;
    const name = typeof body.name === "string" ? body.name.trim() : "";
    if (typeof key !== "string" || !PROJECT_KEY_RE.test(key)) errors.projectKey = MSG.badKey;
    else if (key.length > 10) errors.projectKey = MSG.keyTooLong;
    else if (projects.has(key)) errors.projectKey = MSG.keyExists(projects.get(key)!.name);
    if (name === "") errors.projectName = MSG.nameMissing;
    else if (name.length > 80) errors.projectName = MSG.nameTooLong;
    else if ([...projects.values()].some((p) => p.name.toLowerCase() === name.toLowerCase()))
      errors.projectName = MSG.nameExists;
    const lead = typeof body.leadAccountId === "string" ? usersById.get(body.leadAccountId) : undefined;
    if (!lead) errors.projectLead = MSG.badLead;
    const typeKey = body.projectTypeKey;
    if (typeof typeKey !== "string" || !PROJECT_TYPES.has(typeKey))
      errors.projectTypeKey = "You must specify a valid project type."; // (fake) wording
    else if (typeKey !== "software")
      errors.projectTypeKey = `The fake only emulates software projects, not '${typeKey}'.`; // (fake)
    const template = body.projectTemplateKey;
    if (template !== undefined && (typeof template !== "string" || !SOFTWARE_TEMPLATES.has(template)))
      errors.projectTemplateKey = "You must specify a valid project template."; // (fake) wording
    if (body.description !== undefined && body.description !== null && typeof body.description !== "string")
      errors.description = "The project description must be a string."; // (fake)
    if (Object.keys(errors).length > 0) throw jiraError(400, [], errors);
    const project: Project = {
      id: String(nextProjectId++),
      key: key as string,
      name,
      description: typeof body.description === "string" ? body.description : "",
      lead: lead!,
      projectTypeKey: "software",
      templateKey: (template as string | undefined) ?? null,
      nextNumber: 1,
    };
    projects.set(project.key, project);
    return reply(201, {
      self: `${base}/rest/api/3/project/${project.id}`,
      id: Number(project.id),
      key: project.key,
    });
  }

  function createmeta(ctx: Ctx, projectRef: string, typeId: string | undefined) {
    const p = findProject(projectRef);
    if (!p) throw jiraError(404, [MSG.noProject(projectRef)]);
    const startAt = Math.max(0, Number(ctx.req.url.searchParams.get("startAt") ?? 0) || 0);
    const maxResults = Math.min(
      200,
      Math.max(1, Number(ctx.req.url.searchParams.get("maxResults") ?? 50) || 50),
    );
    if (typeId === undefined) {
      const all = typeList().map(typeJson);
      return reply(200, {
        maxResults,
        startAt,
        total: all.length,
        issueTypes: all.slice(startAt, startAt + maxResults),
      });
    }
    const t = typeList().find((x) => x.id === typeId);
    if (!t) throw jiraError(404, [`Issue type with id '${typeId}' does not exist or is not available.`]); // (fake)
    const all = fieldList();
    const meta = (id: string, required: boolean, ops: string[]) => {
      const f = all.find((x) => x.id === id)!;
      return {
        required,
        schema: f.schema,
        name: f.name,
        key: f.key,
        fieldId: f.id,
        hasDefaultValue: false,
        operations: ops,
      };
    };
    const fields = [
      meta("issuetype", true, []),
      meta("project", true, ["set"]),
      meta("summary", true, ["set"]),
      meta("description", false, ["set"]),
      meta("labels", false, ["add", "set", "remove"]),
      meta("reporter", true, ["set"]),
      meta("assignee", false, ["set"]),
      meta("priority", false, ["set"]),
      meta("parent", t.level < 0, ["set"]),
      ...(t.level >= 0 && screens[t.kind].storyPoints ? [meta(storyPointsField, false, ["set"])] : []),
      ...screens[t.kind].required.map((r) => meta(r.fieldId, true, ["set"])),
    ];
    return reply(200, {
      maxResults,
      startAt,
      total: fields.length,
      fields: fields.slice(startAt, startAt + maxResults),
      results: fields.slice(startAt, startAt + maxResults),
    });
  }

  // ----- JIRA: issues ----------------------------------------------------------------------------

  /** What the create screen of an issue type lets a request set (all types' fields when the type is unknown). */
  const settable = (type: TypeDef | null) =>
    new Set([
      "project",
      "issuetype",
      "summary",
      "description",
      "labels",
      "parent",
      "reporter",
      "assignee",
      "priority",
      ...(type === null || screens[type.kind].storyPoints ? [storyPointsField] : []),
      ...(type === null ? requiredFields() : screens[type.kind].required).map((r) => r.fieldId),
    ]);

  const resolveType = (v: unknown): TypeDef | null => {
    if (!isRecord(v)) return null;
    if (typeof v.id === "string" || typeof v.id === "number")
      return typeList().find((t) => t.id === String(v.id)) ?? null;
    if (typeof v.name === "string") return typeList().find((t) => t.name === v.name) ?? null;
    return null;
  };

  const labelProblem = (labels: unknown): string | null => {
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string")) return MSG.labelsNotArray;
    for (const l of labels as string[]) if (/\s/.test(l) || l === "") return MSG.labelSpaces(l);
    return null;
  };

  const summaryProblem = (s: unknown): string | null => {
    if (typeof s !== "string" || s.trim() === "") return MSG.summaryMissing;
    if (/[\r\n]/.test(s)) return MSG.summaryNewline;
    if (s.length > MAX_SUMMARY) return MSG.summaryTooLong;
    return null;
  };

  const parentProblem = (kind: FakeJiraIssueType, project: Project, parent: Issue | null): string | null => {
    const level = types[kind].level;
    if (parent === null) return kind === "subtask" ? MSG.subtaskNoParent : null;
    const pl = types[parent.kind].level;
    if (level === -1) return pl === 0 && parent.project === project ? null : MSG.parentHierarchy;
    if (level === 0) return pl === 1 ? null : MSG.parentHierarchy;
    return MSG.parentHierarchy;
  };

  const resolveParent = (v: unknown): Issue | "missing" | "bad" => {
    if (!isRecord(v)) return "bad";
    const ref =
      typeof v.key === "string"
        ? v.key
        : typeof v.id === "string" || typeof v.id === "number"
          ? String(v.id)
          : null;
    if (ref === null) return "bad";
    return findIssue(ref) ?? "missing";
  };

  type Draft = {
    project: Project;
    type: TypeDef;
    summary: string;
    description: unknown;
    labels: string[];
    parent: Issue | null;
    storyPoints: number | null;
  };

  /** Validates one create payload; returns the draft or JIRA's per-field errors. */
  function validateCreate(entry: unknown): Draft | { errors: Record<string, string>; messages: string[] } {
    const errors: Record<string, string> = {};
    if (!isRecord(entry) || !isRecord(entry.fields))
      return { errors: {}, messages: ["Issue must contain a 'fields' object."] }; // (fake)
    const f = entry.fields;
    let project: Project | undefined;
    if (isRecord(f.project)) {
      const ref =
        typeof f.project.key === "string"
          ? f.project.key
          : f.project.id !== undefined
            ? String(f.project.id)
            : "";
      project = ref ? findProject(ref) : undefined;
    }
    if (!project) errors.project = MSG.projectInvalid;
    let type: TypeDef | null = null;
    if (f.issuetype === undefined) errors.issuetype = MSG.issueTypeMissing;
    else {
      type = resolveType(f.issuetype);
      if (!type) errors.issuetype = MSG.issueTypeInvalid;
    }
    for (const k of Object.keys(f))
      if (!settable(type).has(k) || (k === storyPointsField && type?.level === -1))
        errors[k] = MSG.cannotSet(k);
    if (type) {
      for (const r of screens[type.kind].required) {
        const v = f[r.fieldId];
        if (typeof v !== "string" || v.trim() === "") errors[r.fieldId] = MSG.required(r.name);
      }
    }
    const summary = summaryProblem(f.summary);
    if (summary) errors.summary = summary;
    if (f.description !== undefined) {
      const d = adfProblem(f.description);
      if (d) errors.description = d;
      else if (JSON.stringify(f.description).length > 32_767) errors.description = MSG.descriptionTooLong;
    }
    let labels: string[] = [];
    if (f.labels !== undefined) {
      const l = labelProblem(f.labels);
      if (l) errors.labels = l;
      else labels = [...new Set(f.labels as string[])];
    }
    const sp = f[storyPointsField];
    if (
      sp !== undefined &&
      sp !== null &&
      !errors[storyPointsField] &&
      (typeof sp !== "number" || !Number.isFinite(sp))
    )
      errors[storyPointsField] = MSG.notANumber;
    let parent: Issue | null = null;
    if (f.parent !== undefined && f.parent !== null) {
      const r = resolveParent(f.parent);
      if (r === "missing" || r === "bad") errors.parent = MSG.parentNotFound;
      else parent = r;
    }
    if (type && project && !errors.parent) {
      const problem = parentProblem(type.kind, project, parent);
      if (problem) errors[problem === MSG.subtaskNoParent ? "issuetype" : "parent"] = problem;
    }
    if (Object.keys(errors).length > 0) return { errors, messages: [] };
    return {
      project: project!,
      type: type!,
      summary: f.summary as string,
      description: f.description ?? null,
      labels,
      parent,
      storyPoints: typeof sp === "number" ? sp : null,
    };
  }

  function commit(draft: Draft, reporter: User): Issue {
    const created = nowJira();
    const issue: Issue = {
      id: String(nextIssueId++),
      key: `${draft.project.key}-${draft.project.nextNumber++}`,
      project: draft.project,
      kind: draft.type.kind,
      summary: draft.summary,
      description: draft.description,
      labels: draft.labels,
      parent: draft.parent,
      storyPoints: draft.storyPoints,
      reporter,
      created,
      createdMs: Date.now(),
      status: "To Do",
      updated: created,
      seq: seq++,
    };
    issues.push(issue);
    issuesByKey.set(issue.key, issue);
    issuesById.set(issue.id, issue);
    return issue;
  }

  const createdJson = (i: Issue) => ({ id: i.id, key: i.key, self: `${base}/rest/api/3/issue/${i.id}` });

  function createOne(ctx: Ctx) {
    const body = readJson(ctx);
    const r = validateCreate(body);
    if ("errors" in r) throw jiraError(400, r.messages, r.errors);
    return reply(201, createdJson(commit(r, ctx.user)));
  }

  function createBulk(ctx: Ctx) {
    const body = readJson(ctx);
    const updates = body.issueUpdates;
    if (!Array.isArray(updates)) throw jiraError(400, ["Field 'issueUpdates' is required."]); // (fake)
    if (updates.length > MAX_BULK) throw jiraError(400, [MSG.tooMany(updates.length)]);
    // Validate everything against the state before the request, then create the valid ones.
    const results = updates.map((u) => validateCreate(u));
    const created: Issue[] = [];
    const errors: unknown[] = [];
    results.forEach((r, index) => {
      if ("errors" in r)
        errors.push({
          status: 400,
          elementErrors: { errorMessages: r.messages, errors: r.errors, status: 400 },
          failedElementNumber: index,
        });
      else created.push(commit(r, ctx.user));
    });
    const status = created.length === 0 && errors.length > 0 ? 400 : 201;
    return reply(status, { issues: created.map(createdJson), errors });
  }

  function editIssue(ctx: Ctx, ref: string) {
    const issue = issueOr404(ref);
    const body = readJson(ctx);
    const errors: Record<string, string> = {};
    const f = isRecord(body.fields) ? body.fields : {};
    const update = isRecord(body.update) ? body.update : {};
    const editable = new Set([
      "summary",
      "description",
      "labels",
      "parent",
      "assignee",
      "priority",
      storyPointsField,
    ]);
    for (const k of [...Object.keys(f), ...Object.keys(update)])
      if (!editable.has(k) || (k === storyPointsField && issue.kind === "subtask"))
        errors[k] = MSG.cannotSet(k);
    for (const k of Object.keys(update)) if (k in f) errors[k] = MSG.fieldsAndUpdate(k);
    const next = {
      summary: issue.summary,
      description: issue.description,
      labels: [...issue.labels],
      parent: issue.parent,
      storyPoints: issue.storyPoints,
    };
    if ("summary" in f) {
      const p = summaryProblem(f.summary);
      if (p) errors.summary = p;
      else next.summary = f.summary as string;
    }
    if ("description" in f) {
      const p = adfProblem(f.description);
      if (p) errors.description = p;
      else next.description = f.description;
    }
    if ("labels" in f) {
      const p = labelProblem(f.labels);
      if (p) errors.labels = p;
      else next.labels = [...new Set(f.labels as string[])];
    }
    if (Array.isArray(update.labels)) {
      for (const op of update.labels) {
        if (!isRecord(op)) continue;
        const [verb = "", value] = Object.entries(op)[0] ?? [];
        if (!["add", "remove", "set"].includes(verb)) {
          errors.labels = MSG.unknownVerb(verb);
          continue;
        }
        const list = verb === "set" ? value : [value];
        const p = labelProblem(list);
        if (p) {
          errors.labels = p;
          continue;
        }
        const vals = list as string[];
        if (verb === "add") for (const v of vals) if (!next.labels.includes(v)) next.labels.push(v);
        if (verb === "remove") next.labels = next.labels.filter((l) => !vals.includes(l));
        if (verb === "set") next.labels = [...new Set(vals)];
      }
    }
    if (storyPointsField in f && !errors[storyPointsField]) {
      const sp = f[storyPointsField];
      if (sp !== null && (typeof sp !== "number" || !Number.isFinite(sp)))
        errors[storyPointsField] = MSG.notANumber;
      else next.storyPoints = sp as number | null;
    }
    // A sub-task's parent is not on its edit screen: it moves only through the Move action.
    if ("parent" in f && issue.kind === "subtask") errors.parent = MSG.cannotSet("parent");
    else if ("parent" in f) {
      if (f.parent === null) next.parent = null;
      else {
        const r = resolveParent(f.parent);
        if (r === "missing" || r === "bad") errors.parent = MSG.parentNotFound;
        else next.parent = r;
      }
      if (!errors.parent) {
        const p = parentProblem(issue.kind, issue.project, next.parent);
        if (p || next.parent === issue) errors.parent = p ?? MSG.parentHierarchy;
      }
    }
    if (Object.keys(errors).length > 0) throw jiraError(400, [], errors);
    const items = applyEdit(issue, next);
    // JIRA answers first and delivers the event afterwards.
    if (items.length > 0) void deliver(issue, "jira:issue_updated", "issue_updated", items, ctx.user);
    if (ctx.req.url.searchParams.get("returnIssue") === "true") return reply(200, issueJson(issue, null));
    return reply(204);
  }

  type Change = {
    field: string;
    fieldtype: string;
    fieldId: string;
    from: string | null;
    fromString: string | null;
    to: string | null;
    toString: string | null;
  };

  /** Applies an edit; the changelog items of what actually changed (JIRA's ChangeDetails). */
  function applyEdit(issue: Issue, next: Omit<Draft, "project" | "type">): Change[] {
    const items: Change[] = [];
    const item = (field: string, fieldId: string, fieldtype: string, a: unknown, b: unknown): Change => ({
      field,
      fieldtype,
      fieldId,
      from: null,
      fromString: a === null || a === undefined ? null : String(a),
      to: null,
      toString: b === null || b === undefined ? null : String(b),
    });
    if (next.summary !== issue.summary)
      items.push(item("summary", "summary", "jira", issue.summary, next.summary));
    if (JSON.stringify(next.description) !== JSON.stringify(issue.description))
      items.push(
        item("description", "description", "jira", adfPlain(issue.description), adfPlain(next.description)),
      );
    if (next.labels.join(" ") !== issue.labels.join(" "))
      items.push(item("labels", "labels", "jira", issue.labels.join(" "), next.labels.join(" ")));
    if (next.storyPoints !== issue.storyPoints)
      items.push(
        item("Story point estimate", storyPointsField, "custom", issue.storyPoints, next.storyPoints),
      );
    if (next.parent !== issue.parent)
      items.push({
        ...item("IssueParentAssociation", "parent", "jira", issue.parent?.key, next.parent?.key),
        from: issue.parent?.id ?? null,
        to: next.parent?.id ?? null,
      });
    if (items.length > 0) Object.assign(issue, next, { updated: nowJira() });
    return items;
  }

  // ----- Webhooks --------------------------------------------------------------------------------

  const pendingDeliveries = new Set<Promise<unknown>>();
  const deliveries: FakeJira["deliveries"] = [];

  /** Delivers an issue event to every registered webhook; resolves with each receiver's status. */
  function deliver(
    issue: Issue,
    event: string,
    typeName: string,
    items: Change[] | null,
    actor: User,
  ): Promise<Array<{ status: number }>> {
    const payload: Record<string, unknown> = {
      timestamp: Date.now(),
      webhookEvent: event,
      issue_event_type_name: typeName,
      user: { ...userJson(actor), emailAddress: undefined },
      // Webhooks carry the REST v2 representation: v2 self links, the description as wiki markup.
      issue: {
        id: issue.id,
        key: issue.key,
        self: `${base}/rest/api/2/issue/${issue.id}`,
        fields: { ...allFields(issue), description: issue.description ? adfWiki(issue.description) : null },
      },
    };
    if (items) payload.changelog = { id: String(nextChangelogId++), items };
    const body = JSON.stringify(payload);
    const run = Promise.all(
      webhooks.map(async (hook) => {
        const entry = { event, key: issue.key, fields: (items ?? []).map((x) => x.fieldId), status: 0, body };
        deliveries.push(entry);
        try {
          const res = await fetch(hook.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-hub-signature": `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`,
              "x-atlassian-webhook-identifier": String(nextDeliveryId++),
            },
            body,
          });
          await res.arrayBuffer();
          entry.status = res.status;
        } catch {
          entry.status = 0;
        }
        return { status: entry.status };
      }),
    );
    pendingDeliveries.add(run);
    void run.finally(() => pendingDeliveries.delete(run));
    return run;
  }

  /** Removes an issue, its sub-tasks and its links; a deleted epic's children keep living without it. */
  function removeIssue(issue: Issue): Issue[] {
    const gone = [issue, ...issues.filter((c) => c.parent === issue && c.kind === "subtask")];
    for (const g of gone) {
      issues.splice(issues.indexOf(g), 1);
      issuesByKey.delete(g.key);
      issuesById.delete(g.id);
      for (let k = links.length - 1; k >= 0; k--)
        if (links[k]!.inward === g || links[k]!.outward === g) links.splice(k, 1);
    }
    for (const c of issues) if (c.parent && gone.includes(c.parent)) c.parent = null;
    return gone;
  }

  const fieldsParam = (raw: unknown): string[] | null => {
    if (Array.isArray(raw))
      return raw.filter((x): x is string => typeof x === "string").flatMap((s) => s.split(","));
    if (typeof raw === "string") return raw.split(",");
    return null;
  };

  // ----- JIRA: search ----------------------------------------------------------------------------

  function evalCond(c: Cond, i: Issue): boolean {
    if (c.k === "and") return evalCond(c.a, i) && evalCond(c.b, i);
    if (c.k === "or") return evalCond(c.a, i) || evalCond(c.b, i);
    if (c.k === "not") return !evalCond(c.a, i);
    const field = c.field.toLowerCase();
    const values = c.values;
    const set = (xs: string[]) => {
      if (values === "EMPTY") return c.op === "is" ? xs.length === 0 : xs.length > 0;
      const hit = values.some((v) => xs.includes(v.v.toLowerCase()));
      return c.op === "=" || c.op === "in" ? hit : !hit;
    };
    const text = (haystack: string) => {
      if (values === "EMPTY") return c.op === "is" ? haystack === "" : haystack !== "";
      const hay = new Set(words(haystack));
      const hit = words(values[0]!.v).every((w) => hay.has(w));
      return c.op === "~" ? hit : !hit;
    };
    switch (field) {
      case "project":
        return set([i.project.key.toLowerCase(), i.project.id, i.project.name.toLowerCase()]);
      case "key":
      case "issuekey":
      case "id":
        return set([i.key.toLowerCase(), i.id]);
      case "labels":
        return set(i.labels.map((l) => l.toLowerCase()));
      case "summary":
        return text(i.summary);
      case "text":
        return text(`${i.summary} ${adfText(i.description)}`);
      case "issuetype":
      case "type":
        return set([types[i.kind].name.toLowerCase(), types[i.kind].id]);
      case "parent":
        return set(i.parent ? [i.parent.key.toLowerCase(), i.parent.id] : []);
      case "status":
        return set([i.status.toLowerCase(), STATUSES[i.status].id]);
      default:
        return false;
    }
  }

  /** JIRA validates the query against the site before running it. */
  function checkCond(c: Cond): void {
    if (c.k !== "clause") {
      checkCond(c.a);
      if (c.k !== "not") checkCond(c.b);
      return;
    }
    const field = c.field.toLowerCase();
    const known = [
      "project",
      "key",
      "issuekey",
      "id",
      "labels",
      "summary",
      "text",
      "issuetype",
      "type",
      "parent",
      "status",
    ];
    if (!known.includes(field)) throw jqlError(MSG.jqlNoField(c.field));
    const isText = field === "summary" || field === "text";
    const listOps = ["=", "!=", "in", "not in", "is", "is not"];
    if (isText ? !["~", "!~", "is", "is not"].includes(c.op) : !listOps.includes(c.op))
      throw jqlError(MSG.jqlOperator(c.op, field));
    if (c.values === "EMPTY") return;
    for (const { v } of c.values) {
      const lower = v.toLowerCase();
      if (
        field === "project" &&
        !findProject(v) &&
        ![...projects.values()].some((p) => p.name.toLowerCase() === lower)
      )
        throw jqlError(MSG.jqlNoValue(v, "project"));
      if (
        (field === "key" || field === "issuekey" || field === "parent") &&
        !/^([A-Za-z][A-Za-z0-9_]*-\d+|\d+)$/.test(v)
      )
        throw jqlError(MSG.jqlBadKey(v, field));
      if ((field === "key" || field === "issuekey" || field === "id" || field === "parent") && !findIssue(v))
        throw jqlError(MSG.jqlNoIssue(v, field));
      if (
        (field === "issuetype" || field === "type") &&
        !typeList().some((t) => t.name.toLowerCase() === lower || t.id === v)
      )
        throw jqlError(MSG.jqlNoValue(v, field));
      if (field === "status" && !["to do", "in progress", "done", "10000", "3", "10001"].includes(lower))
        throw jqlError(MSG.jqlNoValue(v, "status"));
    }
  }

  function search(ctx: Ctx) {
    let jql: string;
    let token: string | null;
    let maxRaw: unknown;
    let fields: string[] | null;
    if (ctx.req.method === "POST") {
      const body = readJson(ctx);
      jql = typeof body.jql === "string" ? body.jql : "";
      token = typeof body.nextPageToken === "string" ? body.nextPageToken : null;
      maxRaw = body.maxResults;
      fields = fieldsParam(body.fields);
    } else {
      const q = ctx.req.url.searchParams;
      jql = q.get("jql") ?? "";
      token = q.get("nextPageToken");
      maxRaw = q.get("maxResults") ?? undefined;
      fields = q.getAll("fields").length > 0 ? fieldsParam(q.getAll("fields")) : null;
    }
    const parsed = parseJql(jql);
    if (parsed.where === null) throw jqlError(MSG.unbounded);
    checkCond(parsed.where);
    for (const o of parsed.order)
      if (!["key", "issuekey", "id", "created", "summary"].includes(o.field.toLowerCase()))
        throw jqlError(MSG.jqlNoField(o.field));
    const where = parsed.where;
    // The index lags behind writes: an issue created within the last `searchLagMs` is not found yet.
    const now = Date.now();
    const matches = issues.filter((i) => now - i.createdMs >= searchLagMs && evalCond(where, i));
    const order = parsed.order.length > 0 ? parsed.order : [{ field: "created", desc: true }];
    matches.sort((a, b) => {
      for (const o of order) {
        const f = o.field.toLowerCase();
        let d = 0;
        if (f === "summary") d = a.summary.localeCompare(b.summary);
        else if (f === "key" || f === "issuekey")
          d =
            a.project.key.localeCompare(b.project.key) ||
            Number(a.key.split("-")[1]) - Number(b.key.split("-")[1]);
        else d = a.seq - b.seq;
        if (d !== 0) return o.desc ? -d : d;
      }
      return 0;
    });
    const idOnly = fields === null || fields.every((f) => f === "id" || f === "key");
    const cap = idOnly ? 5000 : 100;
    const max = Math.min(cap, Math.max(1, Number(maxRaw ?? 50) || 50));
    let offset = 0;
    if (token) {
      try {
        const t = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { o: number; q: string };
        if (t.q !== jql || !Number.isInteger(t.o)) throw new Error("mismatch");
        offset = t.o;
      } catch {
        throw jiraError(400, ["The provided next page token is invalid or expired."]); // (fake) wording
      }
    }
    const page = matches.slice(offset, offset + max);
    const more = offset + max < matches.length;
    const out: Record<string, unknown> = {
      issues: page.map((i) => (fields === null ? { id: i.id } : issueJson(i, fields))),
    };
    if (more)
      out.nextPageToken = Buffer.from(JSON.stringify({ o: offset + max, q: jql })).toString("base64url");
    out.isLast = !more;
    return reply(200, out);
  }

  // ----- Confluence ------------------------------------------------------------------------------

  const limitParam = (ctx: Ctx) =>
    Math.min(250, Math.max(1, Number(ctx.req.url.searchParams.get("limit") ?? 25) || 25));
  const listParam = (ctx: Ctx, name: string) =>
    ctx.req.url.searchParams
      .getAll(name)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean);

  function paged<T>(ctx: Ctx, items: T[], toJson: (x: T) => unknown) {
    const limit = limitParam(ctx);
    const cursor = ctx.req.url.searchParams.get("cursor");
    const start = cursor ? Number(Buffer.from(cursor, "base64url").toString("utf8")) || 0 : 0;
    const slice = items.slice(start, start + limit);
    const links: Record<string, string> = { base: `${base}/wiki` };
    if (start + limit < items.length) {
      const next = new URL(ctx.req.url.toString());
      next.searchParams.set("cursor", Buffer.from(String(start + limit)).toString("base64url"));
      links.next = `${next.pathname}${next.search}`;
    }
    return reply(200, { results: slice.map(toJson), _links: links });
  }

  /** Confluence v1 `POST /wiki/rest/api/space` (v2 creates spaces only on role-based tenants). */
  function createSpaceV1(ctx: Ctx) {
    const body = readJson(ctx);
    const key = typeof body.key === "string" ? body.key : "";
    const name = typeof body.name === "string" ? body.name.trim() : "";
    if (!ctx.user.canCreateSpaces)
      throw new ApiError(403, {
        statusCode: 403,
        message:
          "com.atlassian.confluence.api.service.exceptions.PermissionException: Not permitted to create a space", // (fake) wording
      });
    if (!/^[A-Za-z0-9]{1,255}$/.test(key) || name === "")
      throw new ApiError(400, {
        statusCode: 400,
        message:
          "com.atlassian.confluence.api.service.exceptions.BadRequestException: Invalid space key or name", // (fake) wording
      });
    if (spaces.has(key))
      throw new ApiError(400, {
        statusCode: 400,
        message: `com.atlassian.confluence.api.service.exceptions.BadRequestException: A space already exists with key ${key}`,
      });
    const space = createSpace(key, name);
    return reply(200, { id: Number(space.id), key: space.key, name: space.name, type: "global" });
  }

  function listSpaces(ctx: Ctx) {
    const keys = listParam(ctx, "keys");
    const ids = listParam(ctx, "ids");
    const all = [...spaces.values()].filter(
      (s) => (keys.length === 0 || keys.includes(s.key)) && (ids.length === 0 || ids.includes(s.id)),
    );
    return paged(ctx, all, spaceJson);
  }

  function listPages(ctx: Ctx, spaceIds: string[] | null) {
    const q = ctx.req.url.searchParams;
    const title = q.get("title");
    const statuses = listParam(ctx, "status");
    const wanted = statuses.length > 0 ? statuses : ["current"];
    const withBody = q.get("body-format") === "storage";
    const all = [...pages.values()]
      .filter((pg) => spaceIds === null || spaceIds.includes(pg.space.id))
      .filter((pg) => title === null || pg.title === title)
      .filter((pg) => wanted.includes(pg.status))
      .sort((a, b) => a.seq - b.seq);
    return paged(ctx, all, (pg) => pageJson(pg, withBody));
  }

  const titleTaken = (space: Space, title: string, except: string | null) =>
    [...pages.values()].some(
      (pg) =>
        pg.space === space &&
        pg.status === "current" &&
        pg.id !== except &&
        pg.title.toLowerCase() === title.toLowerCase(),
    );

  function checkBody(body: unknown): { representation: string; value: string } {
    if (!isRecord(body)) throw wikiError(400, "INVALID_REQUEST_PARAMETER", "Body is required"); // (fake)
    const rep = body.representation;
    if (rep !== "storage" && rep !== "atlas_doc_format" && rep !== "wiki")
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", `Invalid body representation: ${String(rep)}`); // (fake)
    if (typeof body.value !== "string")
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", "Body value must be a string"); // (fake)
    if (rep === "storage") {
      const problem = xhtmlProblem(body.value);
      if (problem) throw wikiError(400, "INVALID_REQUEST_PARAMETER", `Error parsing xhtml: ${problem}`);
      // Kept as Confluence re-serialises it, not as sent.
      return { representation: rep, value: normalizeStorage(body.value) };
    }
    return { representation: rep, value: body.value };
  }

  function checkTitle(title: unknown, status: string): string {
    if (typeof title !== "string" || (status === "current" && title.trim() === ""))
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", "Title is required for a page with status current"); // (fake)
    if (title.length > MAX_TITLE)
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", `Title must be ${MAX_TITLE} characters or less`); // (fake)
    return title;
  }

  function createPage(ctx: Ctx) {
    const body = readJson(ctx);
    const space =
      typeof body.spaceId === "string" || typeof body.spaceId === "number"
        ? spacesById.get(String(body.spaceId))
        : undefined;
    if (!space) throw wikiError(400, "INVALID_REQUEST_PARAMETER", "A valid spaceId is required"); // (fake)
    const status = body.status ?? "current";
    if (status !== "current" && status !== "draft")
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", `Invalid status: ${String(status)}`); // (fake)
    const title = checkTitle(body.title, status);
    const content = checkBody(body.body);
    let parentId: string | null = space.homepageId;
    if (ctx.req.url.searchParams.get("root-level") === "true") parentId = null;
    if (body.parentId !== undefined && body.parentId !== null) {
      const parent = pages.get(String(body.parentId));
      if (!parent) throw wikiError(404, "NOT_FOUND", "Parent page not found"); // (fake)
      if (parent.space !== space)
        throw wikiError(400, "INVALID_REQUEST_PARAMETER", "The parent page is not in the given space"); // (fake)
      parentId = parent.id;
    }
    if (status === "current" && titleTaken(space, title, null))
      throw wikiError(400, "BAD_REQUEST", MSG.pageExists);
    const page: Page = {
      id: String(nextPageId++),
      space,
      title,
      status,
      parentId,
      representation: content.representation,
      body: content.value,
      version: 1,
      authorId: ctx.user.accountId,
      createdAt: new Date().toISOString(),
      seq: seq++,
    };
    pages.set(page.id, page);
    return reply(200, pageJson(page, true));
  }

  function updatePage(ctx: Ctx, id: string) {
    const page = pages.get(id);
    if (!page) throw wikiError(404, "NOT_FOUND", "Not Found");
    const body = readJson(ctx);
    if (body.id !== undefined && String(body.id) !== id)
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", "Page id in body does not match the path"); // (fake)
    const status = body.status;
    if (status !== "current" && status !== "draft")
      throw wikiError(400, "INVALID_REQUEST_PARAMETER", "status is required"); // (fake)
    const title = checkTitle(body.title, status);
    const content = checkBody(body.body);
    const number = isRecord(body.version) ? body.version.number : undefined;
    if (typeof number !== "number" || number !== page.version + 1)
      throw wikiError(
        409,
        "CONFLICT",
        `Version must be incremented on update. Current version is: ${page.version}`,
      );
    if (status === "current" && titleTaken(page.space, title, page.id))
      throw wikiError(400, "BAD_REQUEST", MSG.pageExists);
    Object.assign(page, {
      title,
      status,
      representation: content.representation,
      body: content.value,
      version: number,
    });
    return reply(200, pageJson(page, true));
  }

  // ----- Dispatch --------------------------------------------------------------------------------

  const isWiki = (req: FakeRequest) => req.url.pathname.startsWith("/wiki/");
  const notFoundError = (req: FakeRequest) =>
    isWiki(req)
      ? wikiError(404, "NOT_FOUND", "Not Found")
      : jiraError(404, [`null for uri: ${base}${req.url.pathname}`]);

  function authenticate(req: FakeRequest, wiki: boolean, viaGateway: boolean): User {
    const header = req.headers.authorization;
    const match = header ? /^Basic\s+(\S+)\s*$/i.exec(header) : null;
    let user: User | undefined;
    if (match) {
      const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
      const sep = decoded.indexOf(":");
      if (sep > 0) {
        const candidate = users.get(decoded.slice(0, sep).toLowerCase());
        // A scoped token works only through the gateway, a classic one only on the site.
        if (candidate && candidate.apiToken === decoded.slice(sep + 1) && candidate.scoped === viaGateway)
          user = candidate;
      }
    }
    // A token made for one app: the gateway refuses it for the other (its own 401 shape).
    if (user?.scope && user.scope !== (wiki ? "confluence" : "jira"))
      throw new ApiError(401, { code: 401, message: MSG.scopeMismatch });
    if (user) return user;
    if (wiki) {
      if (header) throw new ApiError(401, null, { "Content-Type": "text/plain" }, MSG.confluenceBasic);
      throw wikiError(401, "UNAUTHORIZED", "Unauthorized");
    }
    throw new ApiError(
      401,
      { errorMessages: [MSG.unauthenticated], errors: {} },
      header ? { "X-Seraph-LoginReason": "AUTHENTICATED_FAILED" } : {},
    );
  }

  const routes = new Router<Ctx>()
    // Confluence
    .post("/wiki/rest/api/space", createSpaceV1)
    .get("/wiki/api/v2/spaces", listSpaces)
    .get("/wiki/api/v2/spaces/:id", (_ctx, { id = "" }) => {
      const s = spacesById.get(id);
      if (!s) throw wikiError(404, "NOT_FOUND", "Not Found");
      return reply(200, spaceJson(s));
    })
    .get("/wiki/api/v2/spaces/:id/pages", (ctx, { id = "" }) => {
      if (!spacesById.has(id)) throw wikiError(404, "NOT_FOUND", "Not Found");
      return listPages(ctx, [id]);
    })
    .get("/wiki/api/v2/pages", (ctx) => {
      const ids = listParam(ctx, "space-id");
      return listPages(ctx, ids.length > 0 ? ids : null);
    })
    .post("/wiki/api/v2/pages", createPage)
    .get("/wiki/api/v2/pages/:id", (ctx, { id = "" }) => {
      const pg = pages.get(id);
      if (!pg) throw wikiError(404, "NOT_FOUND", "Not Found");
      return reply(200, pageJson(pg, ctx.req.url.searchParams.get("body-format") === "storage"));
    })
    .put("/wiki/api/v2/pages/:id", (ctx, { id = "" }) => updatePage(ctx, id))
    // JIRA
    .get("/rest/api/3/myself", (ctx) => reply(200, userJson(ctx.user)))
    .get("/rest/api/3/serverInfo", () =>
      reply(200, {
        baseUrl: base,
        version: "1001.0.0-SNAPSHOT",
        versionNumbers: [1001, 0, 0],
        deploymentType: "Cloud",
        buildNumber: 100263,
        serverTitle: "Jira",
      }),
    )
    .get("/rest/api/3/field", () => reply(200, fieldList()))
    .get("/rest/api/3/mypermissions", (ctx) => {
      const wanted = (ctx.req.url.searchParams.get("permissions") ?? "").split(",").filter(Boolean);
      if (wanted.length === 0) throw jiraError(400, ["The 'permissions' query parameter is required."]); // (fake) wording
      const known: Record<string, { id: string; name: string; type: string; have: boolean }> = {
        ADMINISTER: { id: "0", name: "Administer Jira", type: "GLOBAL", have: ctx.user.admin },
        CREATE_ISSUES: { id: "11", name: "Create work items", type: "PROJECT", have: true },
        BROWSE_PROJECTS: { id: "10", name: "Browse Projects", type: "PROJECT", have: true },
      };
      const out: Record<string, unknown> = {};
      for (const w of wanted) {
        const k = known[w];
        if (!k) throw jiraError(404, [`Permission with key ${w} does not exist.`]); // (fake) wording
        out[w] = { id: k.id, key: w, name: k.name, type: k.type, description: "", havePermission: k.have };
      }
      return reply(200, { permissions: out });
    })
    .get("/rest/api/3/project/search", (ctx) => {
      const q = ctx.req.url.searchParams;
      const startAt = Math.max(0, Number(q.get("startAt") ?? 0) || 0);
      const maxResults = Math.min(100, Math.max(1, Number(q.get("maxResults") ?? 50) || 50));
      const all = [...projects.values()].sort((a, b) => a.key.localeCompare(b.key));
      const values = all.slice(startAt, startAt + maxResults).map(projectJson);
      return reply(200, {
        self: `${base}/rest/api/3/project/search?startAt=${startAt}&maxResults=${maxResults}`,
        maxResults,
        startAt,
        total: all.length,
        isLast: startAt + maxResults >= all.length,
        values,
      });
    })
    .post("/rest/api/3/project", createProject)
    .get("/rest/api/3/project", () => reply(200, [...projects.values()].map(projectJson)))
    .get("/rest/api/3/project/:key", (_ctx, { key = "" }) => reply(200, projectJson(projectOr404(key))))
    .get("/rest/api/3/issue/createmeta/:project/issuetypes", (ctx, { project = "" }) =>
      createmeta(ctx, project, undefined),
    )
    .get("/rest/api/3/issue/createmeta/:project/issuetypes/:type", (ctx, { project = "", type }) =>
      createmeta(ctx, project, type),
    )
    .post("/rest/api/3/issue/bulk", createBulk)
    .post("/rest/api/3/issue", createOne)
    .get("/rest/api/3/issueLinkType", () =>
      reply(200, {
        issueLinkTypes: linkTypes.map((t) => ({ ...t, self: `${base}/rest/api/3/issueLinkType/${t.id}` })),
      }),
    )
    .post("/rest/api/3/issueLink", (ctx) => {
      const body = readJson(ctx);
      const type = isRecord(body.type) ? body.type : {};
      const found = linkTypes.find(
        (t) =>
          (typeof type.name === "string" && t.name === type.name) ||
          (typeof type.id === "string" && t.id === type.id),
      );
      if (!found)
        throw jiraError(404, [`No issue link type with name '${String(type.name ?? type.id ?? "")}' found.`]);
      const ref = (side: unknown) => {
        const r = isRecord(side) ? (side.key ?? side.id) : undefined;
        if (typeof r !== "string" || r === "") throw jiraError(404, [MSG.noIssue]);
        return issueOr404(r);
      };
      const inward = ref(body.inwardIssue);
      const outward = ref(body.outwardIssue);
      if (!links.some((l) => l.type === found.name && l.inward === inward && l.outward === outward))
        links.push({ id: String(nextLinkId++), type: found.name, inward, outward });
      return reply(201);
    })
    .delete("/rest/api/3/issueLink/:id", (_ctx, { id = "" }) => {
      const at = links.findIndex((l) => l.id === id);
      if (at < 0) throw jiraError(404, [`No issue link with id '${id}' exists.`]); // (fake) wording
      links.splice(at, 1);
      return reply(204);
    })
    .get("/rest/api/3/issue/:key", (ctx, { key = "" }) =>
      reply(
        200,
        issueJson(
          issueOr404(key),
          fieldsParam(ctx.req.url.searchParams.getAll("fields").join(",") || undefined),
        ),
      ),
    )
    .put("/rest/api/3/issue/:key", (ctx, { key = "" }) => editIssue(ctx, key))
    .delete("/rest/api/3/issue/:key", (ctx, { key = "" }) => {
      const issue = issueOr404(key);
      const hasSubtasks = issues.some((c) => c.parent === issue && c.kind === "subtask");
      if (hasSubtasks && ctx.req.url.searchParams.get("deleteSubtasks") !== "true")
        throw jiraError(400, [MSG.hasSubtasks]);
      for (const g of removeIssue(issue))
        void deliver(g, "jira:issue_deleted", "issue_deleted", null, ctx.user);
      return reply(204);
    })
    .get("/rest/api/3/search/jql", search)
    .post("/rest/api/3/search/jql", search);

  const server: FakeServer = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    trailingSlash: "ignore",
    bodyLimit: MAX_BODY_BYTES,
    async handle(req, route) {
      try {
        if (req.path === "/_edge/tenant_info") return reply(200, { cloudId });
        // The platform gateway (api.atlassian.com): /ex/{product}/{cloudId} before the product's paths.
        const gw = /^\/ex\/(jira|confluence)\/([^/]+)(\/.*)$/.exec(req.url.pathname);
        if (gw) {
          const [, product, id, rest] = gw as unknown as [string, string, string, string];
          const fits = product === "jira" ? rest.startsWith("/rest/") : rest.startsWith("/wiki/");
          if (id !== cloudId || !fits) return reply(404, { code: 404, message: "Not Found" }); // (fake) wording
          req.url.pathname = rest;
          req.path = rest.replace(/\/+$/, "") || "/";
        }
        const wiki = isWiki(req);
        if (wiki && !confluence) return reply(404, { code: 404, message: "Not Found" }); // (fake): no Confluence
        // Outside the two APIs nothing asks for credentials.
        if (!wiki && !req.path.startsWith("/rest/api/3/")) throw notFoundError(req);
        return await route({ req, wiki, user: authenticate(req, wiki, Boolean(gw)) });
      } catch (err) {
        return errorReply(err);
      }
    },
    notFound: (req) => errorReply(notFoundError(req)),
    tooLarge: () => new ApiError(413, { errorMessages: ["Request entity too large"], errors: {} }),
    malformedJson: (req, detail) =>
      isWiki(req)
        ? wikiError(400, "INVALID_REQUEST_PARAMETER", `Invalid JSON: ${detail}`)
        : jiraError(400, [`Unexpected character in request body: ${detail}`]), // (fake) wording
    replyHeaders: () => ({ "X-Arequestid": randomBytes(8).toString("hex") }),
  });
  base = server.url;

  /** The answers of `setMode`, in JIRA's or Confluence's shape by path. */
  const modeError = (mode: FakeJiraMode, retryAfter: number, req: FakeRequest): ApiError => {
    const wiki = isWiki(req);
    if (mode === "rate_limit") {
      const headers = {
        "Retry-After": String(retryAfter),
        "X-RateLimit-Limit": "350",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": new Date(Date.now() + retryAfter * 1000).toISOString(),
        "RateLimit-Reason": "jira-quota-global-based",
      };
      return wiki
        ? new ApiError(
            429,
            {
              errors: [
                { status: 429, code: "TOO_MANY_REQUESTS", title: "Rate limit exceeded", detail: null },
              ],
            },
            headers,
          )
        : new ApiError(429, { errorMessages: ["Rate limit exceeded."], errors: {} }, headers);
    }
    if (mode === "unavailable") {
      const headers = { "Retry-After": String(retryAfter) };
      return wiki
        ? new ApiError(
            503,
            {
              errors: [
                { status: 503, code: "SERVICE_UNAVAILABLE", title: "Service Unavailable", detail: null },
              ],
            },
            headers,
          )
        : new ApiError(503, { errorMessages: ["Service Unavailable"], errors: {} }, headers);
    }
    return wiki
      ? wikiError(500, "INTERNAL_SERVER_ERROR", "Internal Server Error")
      : jiraError(500, ["Internal server error"]);
  };

  const fake: FakeJira = {
    url: base,
    addUser(u) {
      if (!ACCOUNT_ID_RE.test(u.accountId))
        throw new Error(
          `fake JIRA: "${u.accountId}" does not look like an Atlassian account id (24 hex chars)`,
        );
      const user: User = {
        email: u.email,
        apiToken: u.apiToken,
        accountId: u.accountId,
        displayName: u.displayName ?? u.email.split("@")[0]!,
        admin: u.admin ?? true,
        canCreateSpaces: u.canCreateSpaces ?? true,
        scoped: (u.scoped ?? false) || u.scope !== undefined,
        scope: u.scope ?? null,
      };
      users.set(u.email.toLowerCase(), user);
      usersById.set(u.accountId, user);
    },
    setStoryPointsField(id) {
      if (!/^customfield_\d+$/.test(id)) throw new Error(`fake JIRA: "${id}" is not a custom field id`);
      storyPointsField = id;
    },
    get cloudId() {
      return cloudId;
    },
    async setIssueStatus(issueKey, status) {
      const issue = issuesByKey.get(issueKey.toUpperCase());
      if (!issue) throw new Error(`fake JIRA: no issue ${issueKey}`);
      const from = issue.status;
      if (from === status) return [];
      issue.status = status;
      issue.updated = nowJira();
      return deliver(
        issue,
        "jira:issue_updated",
        "issue_generic",
        [
          {
            field: "Status",
            fieldtype: "jira",
            fieldId: "status",
            from: STATUSES[from].id,
            fromString: from,
            to: STATUSES[status].id,
            toString: status,
          },
        ],
        issue.reporter,
      );
    },
    async editIssue(issueKey, edit, editOpts = {}) {
      const issue = issuesByKey.get(issueKey.toUpperCase());
      if (!issue) throw new Error(`fake JIRA: no issue ${issueKey}`);
      const by = editOpts.by === undefined ? issue.reporter : usersById.get(editOpts.by);
      if (!by) throw new Error(`fake JIRA: no user ${editOpts.by}`);
      if (edit.labels?.some((l) => /\s/.test(l) || l === ""))
        throw new Error(`fake JIRA: labels cannot hold spaces (${edit.labels.join(", ")})`);
      if (edit.storyPoints !== undefined && issue.kind === "subtask")
        throw new Error("fake JIRA: sub-tasks have no story points on their screen");
      const items = applyEdit(issue, {
        summary: edit.summary ?? issue.summary,
        description: edit.description === undefined ? issue.description : plainToAdf(edit.description),
        labels: edit.labels === undefined ? [...issue.labels] : [...new Set(edit.labels)],
        parent: issue.parent,
        storyPoints: edit.storyPoints === undefined ? issue.storyPoints : edit.storyPoints,
      });
      return items.length > 0 ? deliver(issue, "jira:issue_updated", "issue_updated", items, by) : [];
    },
    async deleteIssue(issueKey) {
      const issue = issuesByKey.get(issueKey.toUpperCase());
      if (!issue) throw new Error(`fake JIRA: no issue ${issueKey}`);
      const out: Array<{ status: number }> = [];
      for (const g of removeIssue(issue))
        out.push(...(await deliver(g, "jira:issue_deleted", "issue_deleted", null, issue.reporter)));
      return out;
    },
    async settleWebhooks() {
      while (pendingDeliveries.size > 0) await Promise.allSettled([...pendingDeliveries]);
    },
    get deliveries() {
      return deliveries;
    },
    addWebhook(hook) {
      webhooks.push(hook);
    },
    setConfluence(enabled) {
      confluence = enabled;
    },
    setSearchLag(ms) {
      searchLagMs = Math.max(0, ms);
    },
    setCreateScreen(kind, screen) {
      if (screen.storyPoints !== undefined) screens[kind].storyPoints = screen.storyPoints;
      if (screen.required) {
        for (const r of screen.required)
          if (!/^customfield_\d+$/.test(r.fieldId))
            throw new Error(`fake JIRA: "${r.fieldId}" is not a custom field id`);
        screens[kind].required = screen.required;
      }
    },
    setIssueTypeNames(names) {
      for (const [kind, name] of Object.entries(names) as Array<[FakeJiraIssueType, string | undefined]>)
        if (name !== undefined && types[kind]) types[kind].name = name;
    },
    setMode(next, modeOpts = {}) {
      server.faults.clear();
      if (next === "ok") return;
      const target: FaultTarget = {
        times: modeOpts.times,
        after: modeOpts.after,
        path: modeOpts.path === undefined ? undefined : `${modeOpts.path}*`,
      };
      if (next === "slow") server.faults.delay(target, modeOpts.delayMs ?? DEFAULT_SLOW_MS);
      else
        server.faults.fail(target, (req) =>
          errorReply(modeError(next, modeOpts.retryAfter ?? DEFAULT_RETRY_AFTER_S, req)),
        );
    },
    addSpace(s) {
      const space = createSpace(s.key, s.name ?? s.key);
      return { id: space.id, homepageId: space.homepageId };
    },
    projects() {
      return [...projects.values()].map((p) => ({
        key: p.key,
        name: p.name,
        leadAccountId: p.lead.accountId,
      }));
    },
    issues(projectKey) {
      const p = projects.get(projectKey);
      if (!p) throw new Error(`fake JIRA: no project ${projectKey}`);
      return issues
        .filter((i) => i.project === p)
        .map((i) => ({
          key: i.key,
          type: i.kind,
          summary: i.summary,
          parentKey: i.parent?.key ?? null,
          labels: [...i.labels],
          storyPoints: i.storyPoints,
          description: i.description,
          blockedBy: links.filter((l) => l.type === "Blocks" && l.outward === i).map((l) => l.inward.key),
        }));
    },
    setLinkTypes(names) {
      linkTypes = DEFAULT_LINK_TYPES.filter((t) => names.includes(t.name));
    },
    pages(spaceKey) {
      const s = spaces.get(spaceKey);
      if (!s) throw new Error(`fake JIRA: no space ${spaceKey}`);
      return [...pages.values()]
        .filter((pg) => pg.space === s && pg.id !== s.homepageId && pg.status === "current")
        .sort((a, b) => a.seq - b.seq)
        .map((pg) => ({
          id: pg.id,
          title: pg.title,
          body: pg.body,
          parentId: pg.parentId,
          version: pg.version,
        }));
    },
    get requests() {
      return server.log.map((e) => ({
        method: e.method,
        path: `${e.path}${e.search}`,
        status: e.status,
        at: e.at,
      }));
    },
    get maxInFlight() {
      return server.maxInFlight;
    },
    server,
    close: server.close,
  };
  return fake;
}
