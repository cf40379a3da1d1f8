/**
 * Checks the fake JIRA Cloud (REST v3) + Confluence Cloud (v2) site with plain fetch, so export tests
 * can rely on it standing in for https://your-site.atlassian.net.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeJira, startFakeJira } from "./jira";

const ADA = {
  email: "ada@example.com",
  apiToken: "ATATT3xFfGF0adaToken",
  accountId: "5b10ac8d82e05b22cc7d4ef5",
  displayName: "Ada Lovelace",
};
const GRACE = {
  email: "grace@example.com",
  apiToken: "ATATT3xFfGF0grace",
  accountId: "5b10a2844c20165700ede210",
};
const SCRUM = "com.pyxis.greenhopper.jira:gh-simplified-scrum-classic";

let jira: FakeJira;

const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;
const ADA_AUTH = basic(ADA.email, ADA.apiToken);

const call = (path: string, init: RequestInit & { auth?: string | null } = {}) => {
  const { auth = ADA_AUTH, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (auth !== null) headers.set("Authorization", auth);
  if (rest.body !== undefined && !headers.has("Content-Type"))
    headers.set("Content-Type", "application/json");
  headers.set("Accept", "application/json");
  return fetch(`${jira.url}${path}`, { ...rest, headers });
};
const post = (path: string, body: unknown, method = "POST") =>
  call(path, { method, body: JSON.stringify(body) });
const json = async (res: Response) => (await res.json()) as any;

const doc = (text: string) => ({
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content: [{ type: "text", text }] }],
});

let typeIds: Record<string, string>;
const createProject = (key: string, name: string) =>
  post("/rest/api/3/project", {
    key,
    name,
    projectTypeKey: "software",
    projectTemplateKey: SCRUM,
    leadAccountId: ADA.accountId,
  });
const bulk = (issueUpdates: unknown[]) => post("/rest/api/3/issue/bulk", { issueUpdates });
const issue = (fields: Record<string, unknown>, project = "ATM") => ({
  fields: { project: { key: project }, description: doc("d"), ...fields },
});

beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser(ADA);
  jira.addUser(GRACE);
  expect((await createProject("ATM", "Atomize")).status).toBe(201);
  const meta = await json(await call("/rest/api/3/issue/createmeta/ATM/issuetypes"));
  typeIds = Object.fromEntries(
    meta.issueTypes.map((t: any) => [
      t.subtask ? "subtask" : t.hierarchyLevel === 1 ? "epic" : t.name.toLowerCase(),
      t.id,
    ]),
  );
});

afterAll(async () => {
  await jira.close();
});

beforeEach(() => {
  jira.setMode("ok");
});

describe("authentication", () => {
  it("answers /myself for a valid email + API token (email case-insensitive)", async () => {
    const res = await call("/rest/api/3/myself", { auth: basic("ADA@example.com", ADA.apiToken) });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      accountId: ADA.accountId,
      emailAddress: ADA.email,
      displayName: "Ada Lovelace",
      active: true,
    });
  });

  it("401s a wrong token, a missing header and a Bearer token with JIRA's body", async () => {
    for (const auth of [basic(ADA.email, "nope"), null, `Bearer ${ADA.apiToken}`]) {
      const res = await call("/rest/api/3/myself", { auth });
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({
        errorMessages: ["Client must be authenticated to access this resource."],
        errors: {},
      });
      expect(res.headers.get("x-seraph-loginreason")).toBe(auth === null ? null : "AUTHENTICATED_FAILED");
    }
    const project = await call("/rest/api/3/project/ATM", { auth: null });
    expect(project.status).toBe(401);
  });

  it("401s Confluence: text/plain for a bad credential, JSON when missing", async () => {
    const bad = await call("/wiki/api/v2/spaces?keys=ATM", { auth: basic(ADA.email, "nope") });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await bad.text()).toMatch(/^Basic authentication with passwords is deprecated/);
    const missing = await call("/wiki/api/v2/spaces?keys=ATM", { auth: null });
    expect(missing.status).toBe(401);
    expect((await json(missing)).errors[0]).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("rejects account ids that do not look like Atlassian ones", () => {
    expect(() => jira.addUser({ email: "x@example.com", apiToken: "t", accountId: "user-1" })).toThrow();
    jira.addUser({
      email: "new@example.com",
      apiToken: "t",
      accountId: "712020:8a7c1f55-1d2e-4f3a-9b8c-0d1e2f3a4b5c",
    });
  });

  it("refuses non-JSON writes like JIRA (XSRF for text/plain, 415 otherwise)", async () => {
    const plain = await call("/rest/api/3/issue/bulk", {
      method: "POST",
      body: JSON.stringify({ issueUpdates: [] }),
      headers: { "Content-Type": "text/plain" },
    });
    expect(plain.status).toBe(403);
    expect(await plain.text()).toBe("XSRF check failed");
    const xml = await call("/rest/api/3/issue/bulk", {
      method: "POST",
      body: "<x/>",
      headers: { "Content-Type": "application/xml" },
    });
    expect(xml.status).toBe(415);
  });
});

describe("projects", () => {
  it("creates a project (numeric id in the answer), GETs it by key or id, lists it", async () => {
    const res = await createProject("PRJ", "Project Two");
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toEqual({
      id: expect.any(Number),
      key: "PRJ",
      self: `${jira.url}/rest/api/3/project/${created.id}`,
    });
    const byKey = await json(await call("/rest/api/3/project/PRJ"));
    expect(byKey).toMatchObject({
      id: String(created.id),
      key: "PRJ",
      name: "Project Two",
      projectTypeKey: "software",
    });
    expect(byKey.lead.accountId).toBe(ADA.accountId);
    expect((await json(await call(`/rest/api/3/project/${created.id}`))).key).toBe("PRJ");
    expect(jira.projects()).toContainEqual({ key: "PRJ", name: "Project Two", leadAccountId: ADA.accountId });
  });

  it("400s a duplicate key, a duplicate name, invalid keys and an invalid lead", async () => {
    const dup = await createProject("ATM", "Other name");
    expect(dup.status).toBe(400);
    expect(await json(dup)).toEqual({
      errorMessages: [],
      errors: { projectKey: "Project 'Atomize' uses this project key." },
    });
    expect((await json(await createProject("OTHER", "Atomize"))).errors).toEqual({
      projectName: "A project with that name already exists.",
    });
    for (const key of ["atm", "1AB", "A", "AB-C", ""]) {
      const res = await createProject(key, `Name ${key}`);
      expect(res.status).toBe(400);
      expect((await json(res)).errors.projectKey).toBe(
        "Project keys must start with an uppercase letter, followed by one or more uppercase alphanumeric characters.",
      );
    }
    expect((await json(await createProject("ABCDEFGHIJK", "Long"))).errors.projectKey).toMatch(
      /10 characters/,
    );
    const lead = await post("/rest/api/3/project", {
      key: "LEAD",
      name: "Lead",
      projectTypeKey: "software",
      leadAccountId: "5b10ac8d82e05b22cc7d4eff",
    });
    expect(lead.status).toBe(400);
    expect((await json(lead)).errors.projectLead).toBeTruthy();
    expect(jira.projects().map((p) => p.key)).not.toContain("LEAD");
  });

  it("404s an unknown project with JIRA's message", async () => {
    const res = await call("/rest/api/3/project/NOPE");
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({
      errorMessages: ["No project could be found with key 'NOPE'."],
      errors: {},
    });
  });
});

describe("issue types and fields", () => {
  it("lists issue types with hierarchy levels; translated names keep ids and levels", async () => {
    const meta = await json(await call("/rest/api/3/issue/createmeta/ATM/issuetypes"));
    expect(meta).toMatchObject({ startAt: 0, total: 5, maxResults: 50 });
    const byName = Object.fromEntries(
      meta.issueTypes.map((t: any) => [t.name, [t.hierarchyLevel, t.subtask]]),
    );
    expect(byName).toEqual({
      Epic: [1, false],
      Story: [0, false],
      Task: [0, false],
      Bug: [0, false],
      Subtask: [-1, true],
    });
    jira.setIssueTypeNames({ epic: "Épica", story: "Historia", subtask: "Subtarea" });
    try {
      const translated = await json(await call("/rest/api/3/issue/createmeta/ATM/issuetypes"));
      const epic = translated.issueTypes.find((t: any) => t.hierarchyLevel === 1);
      expect(epic).toMatchObject({ name: "Épica", id: typeIds.epic });
      expect(translated.issueTypes.find((t: any) => t.subtask).name).toBe("Subtarea");
      // By name only the current (translated) names work.
      const res = await bulk([
        issue({ summary: "by old name", issuetype: { name: "Epic" } }),
        issue({ summary: "by new name", issuetype: { name: "Épica" } }),
      ]);
      const body = await json(res);
      expect(body.issues).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({
        failedElementNumber: 0,
        elementErrors: { errors: { issuetype: "Specify a valid issue type" } },
      });
    } finally {
      jira.setIssueTypeNames({ epic: "Epic", story: "Story", subtask: "Subtask" });
    }
  });

  it("lists the story point field by its configurable id, next to a classic one not on the screen", async () => {
    let fields = await json(await call("/rest/api/3/field"));
    const estimate = fields.find(
      (f: any) => f.schema?.custom === "com.pyxis.greenhopper.jira:jsw-story-points",
    );
    expect(estimate).toMatchObject({
      id: "customfield_10016",
      name: "Story point estimate",
      schema: { type: "number" },
    });
    for (const id of ["summary", "description", "labels", "parent", "issuetype"])
      expect(fields.some((f: any) => f.id === id)).toBe(true);
    const classic = fields.find((f: any) => f.name === "Story Points");
    const res = await bulk([issue({ summary: "s", issuetype: { id: typeIds.story }, [classic.id]: 3 })]);
    expect((await json(res)).errors[0].elementErrors.errors[classic.id]).toBe(
      `Field '${classic.id}' cannot be set. It is not on the appropriate screen, or unknown.`,
    );
    jira.setStoryPointsField("customfield_10028");
    try {
      fields = await json(await call("/rest/api/3/field"));
      expect(fields.find((f: any) => f.name === "Story point estimate").id).toBe("customfield_10028");
      const ok = await bulk([
        issue({ summary: "pointed", issuetype: { id: typeIds.story }, customfield_10028: 5 }),
      ]);
      expect(ok.status).toBe(201);
      const key = (await json(ok)).issues[0].key;
      expect(jira.issues("ATM").find((i) => i.key === key)?.storyPoints).toBe(5);
      const screen = await json(await call(`/rest/api/3/issue/createmeta/ATM/issuetypes/${typeIds.story}`));
      expect(screen.fields.map((f: any) => f.fieldId)).toContain("customfield_10028");
    } finally {
      jira.setStoryPointsField("customfield_10016");
    }
  });
});

describe("bulk create", () => {
  it("creates a hierarchy with incrementing keys, ADF descriptions, labels and story points", async () => {
    await createProject("HIE", "Hierarchy");
    const epics = await bulk([
      issue({ summary: "Epic A", issuetype: { id: typeIds.epic }, labels: ["atomize"] }, "HIE"),
    ]);
    expect(epics.status).toBe(201);
    const epicBody = await json(epics);
    expect(epicBody).toEqual({
      issues: [
        {
          id: expect.stringMatching(/^\d+$/),
          key: "HIE-1",
          self: expect.stringContaining("/rest/api/3/issue/"),
        },
      ],
      errors: [],
    });
    const stories = await json(
      await bulk([
        issue(
          {
            summary: "Story 1",
            issuetype: { id: typeIds.story },
            parent: { key: "HIE-1" },
            customfield_10016: 3,
          },
          "HIE",
        ),
        issue({ summary: "Task 1", issuetype: { id: typeIds.task }, parent: { key: "HIE-1" } }, "HIE"),
      ]),
    );
    expect(stories.issues.map((i: any) => i.key)).toEqual(["HIE-2", "HIE-3"]);
    const subs = await bulk([
      issue({ summary: "Sub 1", issuetype: { id: typeIds.subtask }, parent: { key: "HIE-2" } }, "HIE"),
    ]);
    expect(subs.status).toBe(201);
    expect(jira.issues("HIE")).toEqual([
      {
        key: "HIE-1",
        type: "epic",
        summary: "Epic A",
        parentKey: null,
        labels: ["atomize"],
        storyPoints: null,
        description: doc("d"),
        blockedBy: [],
      },
      {
        key: "HIE-2",
        type: "story",
        summary: "Story 1",
        parentKey: "HIE-1",
        labels: [],
        storyPoints: 3,
        description: doc("d"),
        blockedBy: [],
      },
      {
        key: "HIE-3",
        type: "task",
        summary: "Task 1",
        parentKey: "HIE-1",
        labels: [],
        storyPoints: null,
        description: doc("d"),
        blockedBy: [],
      },
      {
        key: "HIE-4",
        type: "subtask",
        summary: "Sub 1",
        parentKey: "HIE-2",
        labels: [],
        storyPoints: null,
        description: doc("d"),
        blockedBy: [],
      },
    ]);
    const got = await json(await call("/rest/api/3/issue/HIE-2"));
    expect(got).toMatchObject({
      key: "HIE-2",
      fields: { summary: "Story 1", parent: { key: "HIE-1" }, customfield_10016: 3 },
    });
    expect(got.fields.issuetype).toMatchObject({ id: typeIds.story, hierarchyLevel: 0 });
    expect(got.fields.subtasks.map((s: any) => s.key)).toEqual(["HIE-4"]);
  });

  it("answers 201 with issues + errors on partial success, in JIRA's shape", async () => {
    const res = await bulk([
      issue({ summary: "fine", issuetype: { id: typeIds.task }, labels: ["a", "b"] }),
      issue({ summary: "spaces", issuetype: { id: typeIds.task }, labels: ["x y"] }),
      issue({ summary: "plain", issuetype: { id: typeIds.task }, description: "just text" }),
      issue({ issuetype: { id: typeIds.task } }),
      issue({ summary: "x".repeat(256), issuetype: { id: typeIds.task } }),
      issue({ summary: "no type" }),
      issue({ summary: "bad type", issuetype: { id: "99999" } }),
      issue({
        summary: "bad adf",
        issuetype: { id: typeIds.task },
        description: {
          type: "doc",
          version: 1,
          content: [{ type: "paragraph", content: [{ type: "text", text: "" }] }],
        },
      }),
      issue({ summary: "two\nlines", issuetype: { id: typeIds.task } }),
    ]);
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.issues).toHaveLength(1);
    expect(body.errors[0]).toEqual({
      status: 400,
      elementErrors: {
        errorMessages: [],
        errors: { labels: "The label 'x y' contains spaces which is invalid." },
        status: 400,
      },
      failedElementNumber: 1,
    });
    const byIndex = Object.fromEntries(
      body.errors.map((e: any) => [e.failedElementNumber, e.elementErrors.errors]),
    );
    expect(byIndex[2]).toEqual({
      description: "Operation value must be an Atlassian Document (see the Atlassian Document Format)",
    });
    expect(byIndex[3]).toEqual({ summary: "You must specify a summary of the issue." });
    expect(byIndex[4]).toEqual({ summary: "Summary must be less than 255 characters." });
    expect(byIndex[5]).toEqual({ issuetype: "Specify an issue type" });
    expect(byIndex[6]).toEqual({ issuetype: "Specify a valid issue type" });
    expect(byIndex[7]).toEqual({ description: "INVALID_INPUT" });
    expect(byIndex[8]).toEqual({ summary: "The summary is invalid because it contains newline characters." });
  });

  it("answers 400 with only errors when every issue failed", async () => {
    const res = await bulk([
      issue({ summary: "", issuetype: { id: typeIds.task } }),
      issue({ summary: "ok", issuetype: { id: typeIds.task } }, "NOPE"),
    ]);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.issues).toEqual([]);
    expect(body.errors.map((e: any) => e.failedElementNumber)).toEqual([0, 1]);
    expect(body.errors[1].elementErrors.errors).toEqual({ project: "Specify a valid project ID or key" });
  });

  it("caps a request at 50 issues", async () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        issue({ summary: `cap ${i}`, issuetype: { id: typeIds.task } }, "PRJ"),
      );
    const tooMany = await bulk(many(51));
    expect(tooMany.status).toBe(400);
    expect((await json(tooMany)).errorMessages[0]).toMatch(/50/);
    expect(jira.issues("PRJ").filter((i) => i.summary.startsWith("cap "))).toHaveLength(0);
    const fifty = await bulk(many(50));
    expect(fifty.status).toBe(201);
    expect((await json(fifty)).issues).toHaveLength(50);
  });

  it("enforces the parent hierarchy", async () => {
    await createProject("PAR", "Parents");
    const base = await json(
      await bulk([
        issue({ summary: "E", issuetype: { id: typeIds.epic } }, "PAR"),
        issue({ summary: "S", issuetype: { id: typeIds.story } }, "PAR"),
      ]),
    );
    const [epic, story] = base.issues.map((i: any) => i.key);
    const sub = await json(
      await bulk([
        issue({ summary: "Sub", issuetype: { id: typeIds.subtask }, parent: { key: story } }, "PAR"),
      ]),
    );
    const subKey = sub.issues[0].key;
    const res = await json(
      await bulk([
        issue({ summary: "sub without parent", issuetype: { id: typeIds.subtask } }, "PAR"),
        issue(
          { summary: "sub under epic", issuetype: { id: typeIds.subtask }, parent: { key: epic } },
          "PAR",
        ),
        issue(
          { summary: "story under story", issuetype: { id: typeIds.story }, parent: { key: story } },
          "PAR",
        ),
        issue({ summary: "epic under epic", issuetype: { id: typeIds.epic }, parent: { key: epic } }, "PAR"),
        issue(
          { summary: "sub under sub", issuetype: { id: typeIds.subtask }, parent: { key: subKey } },
          "PAR",
        ),
        issue(
          { summary: "missing parent", issuetype: { id: typeIds.story }, parent: { key: "PAR-999" } },
          "PAR",
        ),
        issue(
          { summary: "story under epic", issuetype: { id: typeIds.story }, parent: { key: epic } },
          "PAR",
        ),
        issue(
          {
            summary: "sub under task by id",
            issuetype: { id: typeIds.subtask },
            parent: { id: base.issues[1].id },
          },
          "PAR",
        ),
      ]),
    );
    const byIndex = Object.fromEntries(
      res.errors.map((e: any) => [e.failedElementNumber, e.elementErrors.errors]),
    );
    expect(Object.keys(byIndex).map(Number)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(byIndex[0]).toEqual({
      issuetype: "Issue type is a sub-task but parent issue key or id not specified.",
    });
    for (const i of [1, 2, 3, 4])
      expect(byIndex[i]).toEqual({
        parent: "Given parent work item does not belong to appropriate hierarchy.",
      });
    expect(byIndex[5]).toEqual({ parent: "Could not find issue by id or key." });
    expect(res.issues).toHaveLength(2);
  });

  it("validates parents against the state before the request", async () => {
    await createProject("SEQ", "Sequential");
    const res = await json(
      await bulk([
        issue({ summary: "E", issuetype: { id: typeIds.epic } }, "SEQ"),
        issue({ summary: "S", issuetype: { id: typeIds.story }, parent: { key: "SEQ-1" } }, "SEQ"),
      ]),
    );
    expect(res.issues.map((i: any) => i.key)).toEqual(["SEQ-1"]);
    expect(res.errors[0].elementErrors.errors).toEqual({ parent: "Could not find issue by id or key." });
  });
});

describe("update and search", () => {
  let key: string;
  beforeAll(async () => {
    await createProject("SRC", "Search");
    const res = await json(
      await bulk([
        issue(
          {
            summary: "Set up the database",
            issuetype: { id: typeIds.epic },
            labels: ["atomize", "atomize-run-1"],
          },
          "SRC",
        ),
        issue({ summary: "Write the API", issuetype: { id: typeIds.story }, labels: ["atomize"] }, "SRC"),
        issue({ summary: "Unrelated", issuetype: { id: typeIds.bug } }, "SRC"),
      ]),
    );
    key = res.issues[1].key;
  });

  it("PUT replaces labels (204) and supports update.labels add/remove", async () => {
    const put = await post(
      `/rest/api/3/issue/${key}`,
      { fields: { labels: ["atomize", "exported"] } },
      "PUT",
    );
    expect(put.status).toBe(204);
    expect(await put.text()).toBe("");
    const add = await post(
      `/rest/api/3/issue/${key}`,
      { update: { labels: [{ add: "extra" }, { remove: "atomize" }] } },
      "PUT",
    );
    expect(add.status).toBe(204);
    expect((await json(await call(`/rest/api/3/issue/${key}?fields=labels`))).fields).toEqual({
      labels: ["exported", "extra"],
    });
    const bad = await post(`/rest/api/3/issue/${key}`, { fields: { labels: ["has space"] } }, "PUT");
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors.labels).toBe("The label 'has space' contains spaces which is invalid.");
    const missing = await post("/rest/api/3/issue/SRC-999", { fields: { labels: [] } }, "PUT");
    expect(missing.status).toBe(404);
    expect((await json(missing)).errorMessages).toEqual([
      "Issue does not exist or you do not have permission to see it.",
    ]);
    await post(`/rest/api/3/issue/${key}`, { fields: { labels: ["atomize"] } }, "PUT");
  });

  it("searches by project, label and summary; only ids unless fields are asked", async () => {
    const q = (jql: string, extra = "") =>
      call(`/rest/api/3/search/jql?jql=${encodeURIComponent(jql)}${extra}`);
    const ids = await json(await q("project = SRC"));
    expect(ids.issues).toHaveLength(3);
    expect(Object.keys(ids.issues[0])).toEqual(["id"]);
    expect(ids.isLast).toBe(true);
    expect(ids.nextPageToken).toBeUndefined();
    const labelled = await json(
      await q('project = SRC AND labels = "atomize" ORDER BY key ASC', "&fields=summary,labels"),
    );
    expect(labelled.issues.map((i: any) => [i.key, i.fields.summary])).toEqual([
      ["SRC-1", "Set up the database"],
      ["SRC-2", "Write the API"],
    ]);
    expect(Object.keys(labelled.issues[0].fields).sort()).toEqual(["labels", "summary"]);
    const bySummary = await json(await q('project = SRC AND summary ~ "database"', "&fields=summary"));
    expect(bySummary.issues.map((i: any) => i.key)).toEqual(["SRC-1"]);
    const byType = await json(
      await q("project = SRC AND issuetype in (Bug, Epic) ORDER BY key", "&fields=issuetype"),
    );
    expect(byType.issues.map((i: any) => i.key)).toEqual(["SRC-1", "SRC-3"]);
    const post1 = await json(
      await post("/rest/api/3/search/jql", {
        jql: "project = SRC AND labels = atomize-run-1",
        fields: ["summary"],
      }),
    );
    expect(post1.issues.map((i: any) => i.fields.summary)).toEqual(["Set up the database"]);
  });

  it("paginates with nextPageToken", async () => {
    const first = await json(
      await call("/rest/api/3/search/jql?jql=project%3DSRC%20ORDER%20BY%20key&maxResults=2&fields=summary"),
    );
    expect(first.issues.map((i: any) => i.key)).toEqual(["SRC-1", "SRC-2"]);
    expect(first.isLast).toBe(false);
    const second = await json(
      await call(
        `/rest/api/3/search/jql?jql=project%3DSRC%20ORDER%20BY%20key&maxResults=2&fields=summary&nextPageToken=${first.nextPageToken}`,
      ),
    );
    expect(second.issues.map((i: any) => i.key)).toEqual(["SRC-3"]);
    expect(second.isLast).toBe(true);
  });

  it("400s unbounded, unknown-field, unknown-project and bad-operator JQL like JIRA", async () => {
    const err = async (jql: string) => {
      const res = await call(`/rest/api/3/search/jql?jql=${encodeURIComponent(jql)}`);
      expect(res.status).toBe(400);
      return (await json(res)).errorMessages[0];
    };
    expect(await err("")).toMatch(/^Unbounded JQL queries are not allowed here/);
    expect(await err("ORDER BY created")).toMatch(/^Unbounded/);
    expect(await err("project = SRC AND foo = bar")).toBe(
      "Field 'foo' does not exist or you do not have permission to view it.",
    );
    expect(await err("project = NOPE")).toBe("The value 'NOPE' does not exist for the field 'project'.");
    expect(await err('summary = "x"')).toBe("The operator '=' is not supported by the 'summary' field.");
    expect(await err("project = (")).toMatch(/^Error in the JQL Query/);
  });
});

describe("issue links", () => {
  it("lists the site's link types and links two issues; the inward issue is the one that blocks", async () => {
    const types = await json(await call("/rest/api/3/issueLinkType"));
    expect(types.issueLinkTypes.find((t: any) => t.name === "Blocks")).toMatchObject({
      inward: "is blocked by",
      outward: "blocks",
    });
    const made = await json(
      await bulk([
        issue({ summary: "Setup", issuetype: { id: typeIds.task } }),
        issue({ summary: "Feature", issuetype: { id: typeIds.task } }),
      ]),
    );
    const [setup, feature] = made.issues.map((i: any) => i.key);
    const res = await post("/rest/api/3/issueLink", {
      type: { name: "Blocks" },
      inwardIssue: { key: setup },
      outwardIssue: { key: feature },
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe("");
    const stored = jira.issues("ATM");
    expect(stored.find((i) => i.key === feature)!.blockedBy).toEqual([setup]);
    expect(stored.find((i) => i.key === setup)!.blockedBy).toEqual([]);

    const unknownType = await post("/rest/api/3/issueLink", {
      type: { name: "Precedes" },
      inwardIssue: { key: setup },
      outwardIssue: { key: feature },
    });
    expect(unknownType.status).toBe(404);
    expect((await json(unknownType)).errorMessages).toEqual([
      "No issue link type with name 'Precedes' found.",
    ]);
    const unknownIssue = await post("/rest/api/3/issueLink", {
      type: { name: "Blocks" },
      inwardIssue: { key: "ATM-9999" },
      outwardIssue: { key: feature },
    });
    expect(unknownIssue.status).toBe(404);
    jira.setLinkTypes(["Relates"]);
    expect(
      (
        await post("/rest/api/3/issueLink", {
          type: { name: "Blocks" },
          inwardIssue: { key: setup },
          outwardIssue: { key: feature },
        })
      ).status,
    ).toBe(404);
    jira.setLinkTypes(["Blocks", "Cloners", "Duplicate", "Relates"]);
  });
});

describe("Confluence", () => {
  let spaceId: string;
  beforeAll(async () => {
    // JIRA creates no Confluence space with a project.
    expect((await json(await call("/wiki/api/v2/spaces?keys=ATM"))).results).toEqual([]);
    spaceId = jira.addSpace({ key: "ATM", name: "Atomize" }).id;
  });

  it("finds spaces added directly", async () => {
    const body = await json(await call("/wiki/api/v2/spaces?keys=ATM,DOCS"));
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ key: "ATM", name: "Atomize", homepageId: expect.any(String) });
    const added = jira.addSpace({ key: "DOCS", name: "Docs" });
    const both = await json(await call("/wiki/api/v2/spaces?keys=ATM&keys=DOCS"));
    expect(both.results.map((s: any) => s.key)).toEqual(["ATM", "DOCS"]);
    expect(both.results[1]).toMatchObject({ id: added.id, homepageId: added.homepageId });
    expect((await json(await call("/wiki/api/v2/spaces?keys=NONE"))).results).toEqual([]);
  });

  it("creates pages (under the homepage by default), 400s duplicate titles, finds pages by title", async () => {
    const page = (title: string, value: string, parentId?: string) =>
      post("/wiki/api/v2/pages", {
        spaceId,
        status: "current",
        title,
        parentId,
        body: { representation: "storage", value },
      });
    const res = await page("Atomize plan", "<h1>Plan</h1><p>Tasks &amp; more</p>");
    expect(res.status).toBe(200);
    const created = await json(res);
    expect(created).toMatchObject({
      title: "Atomize plan",
      spaceId,
      status: "current",
      version: { number: 1 },
    });
    expect(created._links.webui).toBe(`/spaces/ATM/pages/${created.id}/Atomize+plan`);
    expect(created._links.base).toBe(`${jira.url}/wiki`);
    const home = (await json(await call(`/wiki/api/v2/spaces/${spaceId}`))).homepageId;
    expect(created.parentId).toBe(home);
    const child = await json(await page("Epic A", "<p>child</p>", created.id));
    expect(child.parentId).toBe(created.id);

    const dup = await page("atomize PLAN", "<p>again</p>");
    expect(dup.status).toBe(400);
    expect(await json(dup)).toEqual({
      errors: [
        {
          status: 400,
          code: "BAD_REQUEST",
          title:
            "A page with this title already exists: A page already exists with the same TITLE in this space",
          detail: null,
        },
      ],
    });

    const found = await json(
      await call(
        `/wiki/api/v2/spaces/${spaceId}/pages?title=${encodeURIComponent("Atomize plan")}&body-format=storage`,
      ),
    );
    expect(found.results.map((p: any) => p.id)).toEqual([created.id]);
    expect(found.results[0].body.storage.value).toBe("<h1>Plan</h1><p>Tasks &amp; more</p>");
    expect((await json(await call(`/wiki/api/v2/spaces/${spaceId}/pages?title=Nope`))).results).toEqual([]);
    expect(jira.pages("ATM").map((p) => p.title)).toEqual(["Atomize plan", "Epic A"]);
  });

  it("rejects storage bodies that are not well-formed XHTML", async () => {
    for (const value of ["<p>unclosed", "<p>a & b</p>", "<p><b>x</p></b>", "<br>"]) {
      const res = await post("/wiki/api/v2/pages", {
        spaceId,
        status: "current",
        title: `Bad ${value}`,
        body: { representation: "storage", value },
      });
      expect(res.status).toBe(400);
      expect((await json(res)).errors[0].title).toMatch(/^Error parsing xhtml: /);
    }
    const ok = await post("/wiki/api/v2/pages", {
      spaceId,
      status: "current",
      title: "Macro page",
      body: { representation: "storage", value: '<ac:structured-macro ac:name="toc"/><p>a&nbsp;b<br/></p>' },
    });
    expect(ok.status).toBe(200);
  });

  it("updates a page only with the next version number", async () => {
    const created = await json(
      await post("/wiki/api/v2/pages", {
        spaceId,
        status: "current",
        title: "Versioned",
        body: { representation: "storage", value: "<p>1</p>" },
      }),
    );
    const put = (n: number) =>
      post(
        `/wiki/api/v2/pages/${created.id}`,
        {
          id: created.id,
          status: "current",
          title: "Versioned",
          body: { representation: "storage", value: `<p>${n}</p>` },
          version: { number: n },
        },
        "PUT",
      );
    expect((await put(1)).status).toBe(409);
    expect((await put(2)).status).toBe(200);
    expect(jira.pages("ATM").find((p) => p.id === created.id)?.body).toBe("<p>2</p>");
  });
});

describe("failure modes", () => {
  it("rate_limit: 429 + Retry-After for the next `times` requests, then back to normal", async () => {
    jira.setMode("rate_limit", { times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await call("/rest/api/3/myself");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("1");
      expect((await json(res)).errorMessages).toBeInstanceOf(Array);
    }
    expect((await call("/rest/api/3/myself")).status).toBe(200);
  });

  it("path: fails exactly the second bulk call, other paths untouched", async () => {
    await createProject("RTY", "Retry");
    const one = await bulk([issue({ summary: "first", issuetype: { id: typeIds.task } }, "RTY")]);
    expect(one.status).toBe(201);
    jira.setMode("rate_limit", { times: 1, path: "/rest/api/3/issue/bulk", retryAfter: 2 });
    expect((await call("/rest/api/3/myself")).status).toBe(200);
    expect((await call("/wiki/api/v2/spaces?keys=RTY")).status).toBe(200);
    const two = await bulk([issue({ summary: "second", issuetype: { id: typeIds.task } }, "RTY")]);
    expect(two.status).toBe(429);
    expect(two.headers.get("retry-after")).toBe("2");
    const retry = await bulk([issue({ summary: "second", issuetype: { id: typeIds.task } }, "RTY")]);
    expect(retry.status).toBe(201);
    expect(jira.issues("RTY").map((i) => i.summary)).toEqual(["first", "second"]);
    const log = jira.requests.filter((r) => r.path === "/rest/api/3/issue/bulk").slice(-3);
    expect(log.map((r) => r.status)).toEqual([201, 429, 201]);
    expect(log.every((r) => r.method === "POST" && typeof r.at === "number")).toBe(true);
  });

  it("unavailable: 503 + Retry-After; server_error: 500; both JSON (Confluence in its own shape)", async () => {
    jira.setMode("unavailable", { times: 1, retryAfter: 3 });
    const u = await call("/rest/api/3/myself");
    expect(u.status).toBe(503);
    expect(u.headers.get("retry-after")).toBe("3");
    jira.setMode("server_error", { times: 2 });
    const s = await call("/rest/api/3/myself");
    expect(s.status).toBe(500);
    expect((await json(s)).errorMessages).toBeInstanceOf(Array);
    const w = await call("/wiki/api/v2/spaces?keys=ATM");
    expect(w.status).toBe(500);
    expect((await json(w)).errors[0].status).toBe(500);
    expect((await call("/rest/api/3/myself")).status).toBe(200);
  });

  it("stays in a mode until changed when `times` is omitted", async () => {
    jira.setMode("server_error", { path: "/wiki/" });
    for (let i = 0; i < 3; i++) expect((await call("/wiki/api/v2/spaces?keys=ATM")).status).toBe(500);
    expect((await call("/rest/api/3/myself")).status).toBe(200);
    jira.setMode("ok");
    expect((await call("/wiki/api/v2/spaces?keys=ATM")).status).toBe(200);
  });

  it("slow: delays answers and tracks concurrency in maxInFlight", async () => {
    jira.setMode("slow", { delayMs: 150, times: 3 });
    const started = Date.now();
    const results = await Promise.all([1, 2, 3].map(() => call("/rest/api/3/myself")));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(jira.maxInFlight).toBeGreaterThanOrEqual(3);
  });

  it("close() ends a held slow request promptly", async () => {
    const other = await startFakeJira();
    other.addUser(ADA);
    other.setMode("slow", { delayMs: 60_000 });
    const pending = fetch(`${other.url}/rest/api/3/myself`, { headers: { Authorization: ADA_AUTH } }).catch(
      (e) => e,
    );
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.close();
    expect(await pending).toBeInstanceOf(TypeError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("what the first version's fake let pass", () => {
  it("refuses project creation without Administer Jira, and says so through mypermissions", async () => {
    jira.addUser({ ...GRACE, admin: false });
    const grace = basic(GRACE.email, GRACE.apiToken);
    const perms = await call("/rest/api/3/mypermissions?permissions=ADMINISTER", { auth: grace });
    expect((await json(perms)).permissions.ADMINISTER).toMatchObject({ havePermission: false });
    expect((await call("/rest/api/3/mypermissions", { auth: grace })).status).toBe(400);
    const res = await call("/rest/api/3/project", {
      auth: grace,
      method: "POST",
      body: JSON.stringify({
        key: "GRC",
        name: "Grace",
        projectTypeKey: "software",
        projectTemplateKey: SCRUM,
        leadAccountId: GRACE.accountId,
      }),
    });
    expect(res.status).toBe(403);
    expect(jira.projects().some((p) => p.key === "GRC")).toBe(false);
    const list = await json(await call("/rest/api/3/project/search?maxResults=1", { auth: grace }));
    expect(list).toMatchObject({ startAt: 0, maxResults: 1, isLast: false });
    expect(list.values).toHaveLength(1);
  });

  it("creates Confluence spaces only through v1 with the permission, and a site may have no Confluence", async () => {
    const created = await post("/wiki/rest/api/space", { key: "NEWSP", name: "New space" });
    expect(created.status).toBe(200);
    expect(await json(created)).toMatchObject({ key: "NEWSP", name: "New space" });
    expect((await json(await call("/wiki/api/v2/spaces?keys=NEWSP"))).results).toHaveLength(1);
    expect((await post("/wiki/rest/api/space", { key: "NEWSP", name: "Again" })).status).toBe(400);
    jira.addUser({
      email: "nospace@example.com",
      apiToken: "t-nospace",
      accountId: "5b10a2844c20165700ede299",
      canCreateSpaces: false,
    });
    const refused = await call("/wiki/rest/api/space", {
      auth: basic("nospace@example.com", "t-nospace"),
      method: "POST",
      body: JSON.stringify({ key: "NOPE", name: "Nope" }),
    });
    expect(refused.status).toBe(403);
    jira.setConfluence(false);
    try {
      expect((await call("/wiki/api/v2/spaces?keys=ATM")).status).toBe(404);
      expect((await post("/wiki/rest/api/space", { key: "OFF", name: "Off" })).status).toBe(404);
    } finally {
      jira.setConfluence(true);
    }
  });

  it("takes fields from the create screen: no story points where it lacks them, required fields enforced", async () => {
    jira.setCreateScreen("story", {
      storyPoints: false,
      required: [{ fieldId: "customfield_10200", name: "Team" }],
    });
    try {
      const meta = await json(
        await call(`/rest/api/3/issue/createmeta/ATM/issuetypes/${typeIds.story}?maxResults=100`),
      );
      const ids = meta.fields.map((f: { fieldId: string }) => f.fieldId);
      expect(ids).not.toContain("customfield_10016");
      expect(meta.fields.find((f: { fieldId: string }) => f.fieldId === "customfield_10200")).toMatchObject({
        required: true,
        hasDefaultValue: false,
        name: "Team",
      });
      const res = await bulk([
        issue({ summary: "s", issuetype: { id: typeIds.story }, customfield_10016: 3 }),
      ]);
      const errors = (await json(res)).errors[0].elementErrors.errors;
      expect(errors).toEqual({
        customfield_10016:
          "Field 'customfield_10016' cannot be set. It is not on the appropriate screen, or unknown.",
        customfield_10200: "Team is required.",
      });
      const ok = await bulk([
        issue({ summary: "s", issuetype: { id: typeIds.story }, customfield_10200: "Platform" }),
      ]);
      expect(ok.status).toBe(201);
    } finally {
      jira.setCreateScreen("story", { storyPoints: true, required: [] });
    }
  });

  it("refuses a description over 32,767 characters", async () => {
    const res = await bulk([
      issue({ summary: "long", issuetype: { id: typeIds.task }, description: doc("x".repeat(33_000)) }),
    ]);
    expect((await json(res)).errors[0].elementErrors.errors).toEqual({
      description: "The entered text is too long. It exceeds the allowed limit of 32,767 characters.",
    });
  });

  it("finds new issues only after the search index caught up", async () => {
    jira.setSearchLag(300);
    try {
      const created = await json(
        await bulk([issue({ summary: "lagging", issuetype: { id: typeIds.task }, labels: ["lag-check"] })]),
      );
      expect(created.issues).toHaveLength(1);
      const find = async () =>
        (await json(await call("/rest/api/3/search/jql?jql=labels%20%3D%20%22lag-check%22&fields=summary")))
          .issues.length;
      expect(await find()).toBe(0);
      await new Promise((r) => setTimeout(r, 350));
      expect(await find()).toBe(1);
    } finally {
      jira.setSearchLag(0);
    }
  });

  it("takes scoped tokens only through the gateway, with the cloud id from tenant_info", async () => {
    jira.addUser({
      email: "scoped@example.com",
      apiToken: "ATSTT-scoped",
      accountId: "5b10a2844c20165700ede2aa",
      scoped: true,
    });
    const auth = basic("scoped@example.com", "ATSTT-scoped");
    const info = await json(await call("/_edge/tenant_info", { auth: null }));
    expect(info.cloudId).toBe(jira.cloudId);
    expect((await call("/rest/api/3/myself", { auth })).status).toBe(401);
    expect((await call(`/ex/jira/${info.cloudId}/rest/api/3/myself`, { auth })).status).toBe(200);
    expect((await call(`/ex/confluence/${info.cloudId}/wiki/api/v2/spaces?keys=ATM`, { auth })).status).toBe(
      200,
    );
    expect((await call(`/ex/jira/not-the-cloud/rest/api/3/myself`, { auth })).status).toBe(404);
    expect((await call(`/ex/jira/${info.cloudId}/wiki/api/v2/spaces`, { auth })).status).toBe(404);
    // A classic token is refused on the gateway.
    expect((await call(`/ex/jira/${info.cloudId}/rest/api/3/myself`)).status).toBe(401);
  });
});

describe("issue 31: events on every change, label verbs, deletes, one-app tokens, stored bodies", () => {
  type Delivery = { headers: Record<string, string | string[] | undefined>; body: string };
  let receiver: import("node:http").Server;
  let received: Delivery[];
  let hookUrl: string;
  const SECRET = "hook-secret";
  let epic: string;
  let story: string;

  beforeAll(async () => {
    const { createServer } = await import("node:http");
    received = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as { port: number };
    hookUrl = `http://127.0.0.1:${port}/hook`;
    jira.addWebhook({ url: hookUrl, secret: SECRET });
    await createProject("EVT", "Events");
    const made = await json(
      await bulk([
        issue({ summary: "Checkout epic", issuetype: { id: typeIds.epic }, labels: ["atomize"] }, "EVT"),
      ]),
    );
    epic = made.issues[0].key;
    const child = await json(
      await bulk([
        issue(
          {
            summary: "Pay by card",
            issuetype: { id: typeIds.story },
            labels: ["atomize", "complexity-low"],
            parent: { key: epic },
            customfield_10016: 3,
          },
          "EVT",
        ),
      ]),
    );
    story = child.issues[0].key;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
  });

  const payloads = () => received.map((d) => JSON.parse(d.body));

  it("delivers jira:issue_updated for an edit through the API, listing exactly the changed fields", async () => {
    const put = await post(
      `/rest/api/3/issue/${story}`,
      { fields: { summary: "Pay by card or wallet", description: doc("d"), customfield_10016: 5 } },
      "PUT",
    );
    expect(put.status).toBe(204);
    await jira.settleWebhooks();
    expect(received).toHaveLength(1);
    const [d] = received;
    const sig = `sha256=${(await import("node:crypto")).createHmac("sha256", SECRET).update(d!.body).digest("hex")}`;
    expect(d!.headers["x-hub-signature"]).toBe(sig);
    expect(d!.headers["x-atlassian-webhook-identifier"]).toMatch(/^\d+$/);
    const body = payloads()[0];
    expect(body).toMatchObject({
      webhookEvent: "jira:issue_updated",
      issue_event_type_name: "issue_updated",
      timestamp: expect.any(Number),
      issue: {
        key: story,
        // The REST v2 representation, as real deliveries carry: a v2 self link, wiki-markup text.
        self: expect.stringMatching(new RegExp(`^${jira.url}/rest/api/2/issue/\\d+$`)),
        fields: {
          summary: "Pay by card or wallet",
          description: "d",
          labels: ["atomize", "complexity-low"],
          parent: { key: epic },
          status: { name: "To Do" },
          updated: expect.any(String),
        },
      },
    });
    // The description was sent unchanged: only summary and story points are in the changelog.
    expect(body.changelog.id).toMatch(/^\d+$/);
    expect(body.changelog.items).toEqual([
      {
        field: "summary",
        fieldtype: "jira",
        fieldId: "summary",
        from: null,
        fromString: "Pay by card",
        to: null,
        toString: "Pay by card or wallet",
      },
      {
        field: "Story point estimate",
        fieldtype: "custom",
        fieldId: "customfield_10016",
        from: null,
        fromString: "3",
        to: null,
        toString: "5",
      },
    ]);
    // An edit that changes nothing delivers nothing.
    await post(`/rest/api/3/issue/${story}`, { fields: { summary: "Pay by card or wallet" } }, "PUT");
    await jira.settleWebhooks();
    expect(received).toHaveLength(1);
  });

  it("delivers a person's edit (editIssue) and a transition, each with its own changelog", async () => {
    const edited = await jira.editIssue(story, {
      description: "Cards and wallets\n\nApple Pay first",
      labels: ["atomize", "complexity-low", "customer-x"],
    });
    expect(edited).toEqual([{ status: 200 }]);
    const moved = await jira.setIssueStatus(story, "In Progress");
    expect(moved).toEqual([{ status: 200 }]);
    const [edit, move] = payloads();
    expect(edit.changelog.items).toEqual([
      {
        field: "description",
        fieldtype: "jira",
        fieldId: "description",
        from: null,
        fromString: "d",
        to: null,
        toString: "Cards and wallets\nApple Pay first",
      },
      {
        field: "labels",
        fieldtype: "jira",
        fieldId: "labels",
        from: null,
        fromString: "atomize complexity-low",
        to: null,
        toString: "atomize complexity-low customer-x",
      },
    ]);
    expect(edit.issue.fields.description).toBe("Cards and wallets\n\nApple Pay first");
    expect(move.issue_event_type_name).toBe("issue_generic");
    expect(move.changelog.items).toEqual([
      {
        field: "Status",
        fieldtype: "jira",
        fieldId: "status",
        from: "10000",
        fromString: "To Do",
        to: "3",
        toString: "In Progress",
      },
    ]);
    expect(jira.deliveries.slice(-2).map((x) => [x.event, x.fields])).toEqual([
      ["jira:issue_updated", ["description", "labels"]],
      ["jira:issue_updated", ["status"]],
    ]);
  });

  it("edits labels with update verbs (add/remove/set); labels people added stay; a field in both is 400", async () => {
    const put = (body: unknown) => post(`/rest/api/3/issue/${story}`, body, "PUT");
    const labels = async () =>
      (await json(await call(`/rest/api/3/issue/${story}?fields=labels`))).fields.labels;
    expect(
      (await put({ update: { labels: [{ add: "story-points-5" }, { remove: "complexity-low" }] } })).status,
    ).toBe(204);
    expect(await labels()).toEqual(["atomize", "customer-x", "story-points-5"]);
    const both = await put({ fields: { labels: ["x"] }, update: { labels: [{ add: "y" }] } });
    expect(both.status).toBe(400);
    expect((await json(both)).errors.labels).toBe("Field 'labels' cannot be in both 'fields' and 'update'.");
    expect((await put({ update: { labels: [{ edit: "y" }] } })).status).toBe(400);
    expect((await put({ update: { labels: [{ set: ["atomize", "customer-x"] }] } })).status).toBe(204);
    expect(await labels()).toEqual(["atomize", "customer-x"]);
  });

  it("deletes issues (endpoint and control); JQL naming a missing key is JIRA's 400", async () => {
    const made = await json(
      await bulk([
        issue({ summary: "Doomed", issuetype: { id: typeIds.story }, parent: { key: epic } }, "EVT"),
      ]),
    );
    const doomed = made.issues[0].key;
    const sub = await json(
      await bulk([
        issue({ summary: "Doomed sub", issuetype: { id: typeIds.subtask }, parent: { key: doomed } }, "EVT"),
      ]),
    );
    const q = (jql: string) => call(`/rest/api/3/search/jql?jql=${encodeURIComponent(jql)}&fields=summary`);
    expect((await q(`key in ("${story}", "${doomed}")`)).status).toBe(200);
    const refused = await call(`/rest/api/3/issue/${doomed}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect((await call(`/rest/api/3/issue/${doomed}?deleteSubtasks=true`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await call(`/rest/api/3/issue/${sub.issues[0].key}`)).status).toBe(404);
    await jira.settleWebhooks();
    expect(
      payloads()
        .map((p) => [p.webhookEvent, p.issue.key])
        .sort(),
    ).toEqual(
      [
        ["jira:issue_deleted", doomed],
        ["jira:issue_deleted", sub.issues[0].key],
      ].sort(),
    );
    const gone = await q(`key in ("${story}", "${doomed}")`);
    expect(gone.status).toBe(400);
    expect(await json(gone)).toEqual({
      errorMessages: [`An issue with key '${doomed}' does not exist for field 'key'.`],
      errors: {},
    });
    const bad = await q('key = "not a key"');
    expect((await json(bad)).errorMessages).toEqual([
      "The issue key 'not a key' for field 'key' is invalid.",
    ]);

    const other = await json(
      await bulk([issue({ summary: "Also doomed", issuetype: { id: typeIds.task } }, "EVT")]),
    );
    await jira.deleteIssue(other.issues[0].key);
    expect((await call(`/rest/api/3/issue/${other.issues[0].key}`)).status).toBe(404);
    expect(jira.issues("EVT").map((i) => i.key)).not.toContain(other.issues[0].key);
  });

  it("pages a project + label search by nextPageToken, at most 100 issues a page when fields are asked", async () => {
    await createProject("MANY", "Many");
    for (let n = 0; n < 3; n++)
      await bulk(
        Array.from({ length: 50 }, (_, i) =>
          issue(
            { summary: `Item ${n * 50 + i}`, issuetype: { id: typeIds.task }, labels: ["bulk-run"] },
            "MANY",
          ),
        ),
      );
    const jql = 'project = "MANY" AND labels = "bulk-run"';
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await json(
        await post("/rest/api/3/search/jql", {
          jql,
          fields: ["summary"],
          maxResults: 500,
          nextPageToken: token,
        }),
      );
      expect(res.issues.length).toBeLessThanOrEqual(100);
      seen.push(...res.issues.map((i: any) => i.key));
      token = res.nextPageToken;
      pages += 1;
    } while (token);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(150);
  });

  it("refuses a token scoped to Jira on Confluence through the gateway (and the reverse)", async () => {
    jira.addUser({
      email: "jira-only@example.com",
      apiToken: "ATSTT-jira",
      accountId: "5b10a2844c20165700ede2bb",
      scope: "jira",
    });
    jira.addUser({
      email: "wiki-only@example.com",
      apiToken: "ATSTT-wiki",
      accountId: "5b10a2844c20165700ede2cc",
      scope: "confluence",
    });
    const jiraOnly = basic("jira-only@example.com", "ATSTT-jira");
    const wikiOnly = basic("wiki-only@example.com", "ATSTT-wiki");
    expect((await call(`/ex/jira/${jira.cloudId}/rest/api/3/myself`, { auth: jiraOnly })).status).toBe(200);
    const refused = await call(`/ex/confluence/${jira.cloudId}/wiki/api/v2/spaces`, { auth: jiraOnly });
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ code: 401, message: "Unauthorized; scope does not match" });
    expect((await call(`/ex/confluence/${jira.cloudId}/wiki/api/v2/spaces`, { auth: wikiOnly })).status).toBe(
      200,
    );
    expect((await call(`/ex/jira/${jira.cloudId}/rest/api/3/myself`, { auth: wikiOnly })).status).toBe(401);
    // Still a scoped token: not on the site itself.
    expect((await call("/rest/api/3/myself", { auth: jiraOnly })).status).toBe(401);
  });

  it("keeps storage bodies as Confluence re-serialises them, and a page at its version until updated", async () => {
    const space = jira.addSpace({ key: "NORM" });
    const sent =
      "<p class='lead'  title=\"a &amp; b\">Say &quot;hi&quot; &#39;now&#39; &lt;ok&gt;<br/>x</p><p></p><ac:structured-macro ac:name='toc'/>";
    const created = await json(
      await post("/wiki/api/v2/pages", {
        spaceId: space.id,
        status: "current",
        title: "Normalised",
        body: { representation: "storage", value: sent },
      }),
    );
    const stored = jira.pages("NORM").find((p) => p.id === created.id)!;
    expect(stored.version).toBe(1);
    expect(stored.body).toMatch(
      /^<p class="lead" title="a &amp; b">Say "hi" 'now' &lt;ok&gt;<br \/>x<\/p><p><\/p><ac:structured-macro ac:name="toc" ac:macro-id="[0-9a-f-]{36}"><\/ac:structured-macro>$/,
    );
    const read = await json(await call(`/wiki/api/v2/pages/${created.id}?body-format=storage`));
    expect(read.body.storage.value).toBe(stored.body);
    expect(read.body.storage.value).not.toBe(sent);
  });
});
