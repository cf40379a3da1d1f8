import { describe, expect, it } from "vitest";
import { findApplicationType, findStack } from "../../src/shared/catalogue";
import type { ProjectContext } from "../../src/shared/schemas/plan";
import type { EvalCase } from "../eval/case";
import { CORPUS } from "../eval/corpus/index";
import type { PlanNode, PlanRecord } from "../eval/driver";
import {
  containsTerm,
  duplicateTitles,
  GARBLE_RULES,
  garbledTitles,
  gateFailures,
  leavesOf,
  negated,
  plannedNonGoals,
  scorePlan,
  stackFindings,
  statedStack,
  totals,
  uncoveredRequirements,
} from "../eval/metrics";
import { TECH_BY_ID, technologiesIn } from "../eval/technologies";

// ---- small hand-made plans -------------------------------------------------------------------------------

type Row = [depth: number, title: string, extra?: Partial<PlanNode>];

/** A plan from an outline: each row's parent is the nearest row above it one level up. */
function plan(rows: Row[], more: Partial<PlanRecord> = {}): PlanRecord {
  const nodes: PlanNode[] = [];
  const last: string[] = [];
  rows.forEach(([depth, title, extra], k) => {
    const id = `n${k}`;
    last[depth] = id;
    nodes.push({
      id,
      parentId: depth === 0 ? null : last[depth - 1]!,
      depth,
      position: k,
      description: title,
      title,
      implementation_details: null,
      complexity_score: 3,
      story_points: 2,
      isAtomic: depth > 0,
      ...extra,
    });
  });
  return {
    caseId: "t",
    planner: "test",
    model: null,
    wallMs: 5,
    usage: { calls: 3, promptTokens: 100, completionTokens: 50 },
    nodes,
    context: null,
    eventModel: null,
    error: null,
    workKind: null,
    // What the gate case below states as out of scope, read as such.
    nonGoals: ["a web UI"],
    ...more,
  } as PlanRecord;
}

function testCase(extra: Partial<EvalCase> = {}): EvalCase {
  return {
    id: "t",
    kind: "test",
    description: "A test",
    requirements: [],
    technologies: [],
    non_goals: [],
    ...extra,
  };
}

const context = (tech: Partial<ProjectContext["tech_stack"]>): ProjectContext => ({
  tech_stack: { frontend: "", backend: "", database: "", deployment: "", description: "", ...tech },
  best_practices: ["Keep it simple"],
  epics: [{ id: "E1", title: "Core", description: "", priority: 1 }],
  user_stories: [],
});

// ---- text ------------------------------------------------------------------------------------------------

describe("containsTerm", () => {
  it("matches whole-word prefixes, case-insensitively", () => {
    expect(containsTerm("Exports invoices", "export")).toBe(true);
    expect(containsTerm("Re-export invoices", "export")).toBe(true);
    expect(containsTerm("Reexport invoices", "export")).toBe(false);
    expect(containsTerm("a GitHub-style calendar heatmap", "heatmap")).toBe(true);
  });

  it("lets a space in a term match spaces or hyphens, and keeps punctuation literal", () => {
    expect(containsTerm("Handle out-of-order messages", "out of order")).toBe(true);
    expect(containsTerm("Deploy on fly.io", "fly.io")).toBe(true);
    expect(containsTerm("Deploy on flyXio", "fly.io")).toBe(false);
    expect(containsTerm("Support Python 3.10+", "3.10")).toBe(true);
    expect(containsTerm("Implement the /roll command", "/roll")).toBe(true);
  });
});

// ---- requirement coverage ----------------------------------------------------------------------------------

describe("requirement coverage", () => {
  const c = testCase({
    description: "Users export invoices as CSV and get email reminders",
    requirements: [
      { id: "R1", text: "Export invoices as CSV", match: ["export", "CSV"] },
      { id: "R2", text: "Email reminders", match: ["reminder"] },
    ],
  });

  it("passes when every requirement has a node holding all its terms", () => {
    const p = plan([
      [0, c.description],
      [1, "Export invoices as CSV files"],
      [1, "Schedule payment reminders", { implementation_details: "Sent by email every Monday" }],
    ]);
    expect(uncoveredRequirements(c, p)).toEqual([]);
  });

  it("fails when the terms are only in the root, or split over two nodes", () => {
    const p = plan([
      [0, c.description],
      [1, "Export invoices"],
      [1, "Write the CSV encoder"],
    ]);
    expect(uncoveredRequirements(c, p)).toEqual([
      { id: "R1", text: "Export invoices as CSV" },
      { id: "R2", text: "Email reminders" },
    ]);
  });

  it("reads acceptance criteria as part of a node's text", () => {
    const p = plan([
      [0, c.description],
      [1, "Invoice exports", { acceptance_criteria: ["The file is CSV", "Reminders are not affected"] }],
    ]);
    expect(uncoveredRequirements(c, p)).toEqual([]);
  });
});

// ---- non-goals -----------------------------------------------------------------------------------------------

describe("non-goals planned as work", () => {
  const c = testCase({ non_goals: [{ text: "multi-currency", match: ["multi currency"] }] });

  it("flags a non-root node whose title plans the non-goal", () => {
    const p = plan([
      [0, "Invoicing, no multi-currency"],
      [1, "Add multi-currency prices"],
    ]);
    expect(plannedNonGoals(c, p)).toEqual([
      { nonGoal: "multi-currency", nodeId: "n1", title: "Add multi-currency prices" },
    ]);
  });

  it("ignores a title that names the non-goal only to exclude it", () => {
    expect(negated("Sync through storage.sync, no server", "server")).toBe(true);
    expect(negated("Responsive web app instead of a native app", "native")).toBe(true);
    expect(negated("Build the sync server", "server")).toBe(false);
    const p = plan([
      [0, "Invoicing, no multi-currency"],
      [1, "Format prices in one currency, without multi-currency support"],
    ]);
    expect(plannedNonGoals(c, p)).toEqual([]);
  });

  it("ignores the root and mentions outside titles", () => {
    const p = plan([
      [0, "Invoicing, no multi-currency"],
      [1, "Format prices", { implementation_details: "Single currency: multi-currency is out of scope" }],
    ]);
    expect(plannedNonGoals(c, p)).toEqual([]);
  });
});

// ---- stack -------------------------------------------------------------------------------------------------------

describe("wrong stack and invented technologies", () => {
  const reasons = (c: EvalCase, p: PlanRecord) =>
    stackFindings(c, p).wrong.map((w) => `${w.where}: ${w.reason}`);
  const invented = (c: EvalCase, p: PlanRecord) => stackFindings(c, p).invented.map((i) => i.tech);

  it("flags a framework or ORM implying another language than the named one (Express/Prisma in a Go CLI)", () => {
    const c = testCase({ technologies: ["go"] });
    const p = plan([
      [0, "A CLI in Go"],
      [1, "Expose the Express API"],
      [1, "Model secrets with Prisma"],
      [1, "Set up Go modules and Cobra commands"],
    ]);
    expect(reasons(c, p)).toEqual([
      "node n1: Express implies JavaScript, TypeScript where the text names Go",
      "node n2: Prisma implies JavaScript, TypeScript where the text names Go",
    ]);
  });

  it("flags another language than the one implied by the named bot framework (Python in a discord.js bot)", () => {
    const c = testCase({ technologies: ["discordjs"] });
    const p = plan([
      [0, "discord.js bot"],
      [1, "Script the checks with Selenium in Python"],
      [1, "Register slash commands with discord.js on Node.js"],
    ]);
    expect(reasons(c, p)).toEqual(["node n1: Python where the text names JavaScript, TypeScript"]);
    expect(invented(c, p)).toEqual(["python", "selenium"]);
  });

  it("flags a second choice in a one-choice category (InfluxDB in a TimescaleDB pipeline), not the same one", () => {
    const c = testCase({ technologies: ["timescaledb", "python"] });
    const p = plan([
      [0, "MQTT to TimescaleDB"],
      [1, "Create the PostgreSQL hypertables"],
      [1, "Write readings to InfluxDB"],
    ]);
    expect(reasons(c, p)).toEqual([
      "node n2: InfluxDB (database) where the text names PostgreSQL, TimescaleDB",
    ]);
    expect(invented(c, p)).toEqual(["influxdb"]);
  });

  it("treats TypeScript, JavaScript and Node.js as one choice, and Expo as React Native", () => {
    const ts = testCase({ technologies: ["typescript"] });
    const p = plan([
      [0, "A TypeScript library"],
      [1, "Ship JavaScript bundles and test on Node.js 20"],
    ]);
    expect(reasons(ts, p)).toEqual([]);
    expect(invented(ts, p)).toEqual([]);
    const expo = testCase({ technologies: ["expo"] });
    const mobile = plan([
      [0, "An Expo app"],
      [1, "Build the React Native screens"],
      [1, "Port the screens to Flutter"],
    ]);
    expect(reasons(expo, mobile)).toEqual([
      "node n2: Flutter (mobile) where the text names Expo, React Native",
    ]);
  });

  it("lets a named front end's language stand beside the server's (TypeScript for React in a Django app)", () => {
    const c = testCase({ technologies: ["django", "react"] });
    const p = plan([
      [0, "Django + React"],
      [1, "Write the React components in TypeScript"],
      [1, "Add a Go sidecar"],
    ]);
    expect(reasons(c, p)).toEqual(["node n2: Go where the text names JavaScript, Python, TypeScript"]);
  });

  it("does not hold a platform against other choices when only one of its services is named", () => {
    const s3 = testCase({ technologies: ["s3"] });
    const p = plan([
      [0, "Back up to S3"],
      [1, "Upload the archive to the AWS S3 bucket"],
      [1, "Run the job on Fly.io"],
    ]);
    expect(reasons(s3, p)).toEqual([]);
    expect(invented(s3, p)).toEqual(["fly"]);
    const aws = testCase({ technologies: ["aws", "s3"] });
    expect(reasons(aws, p)).toEqual(["node n2: Fly.io (cloud) where the text names AWS"]);
  });

  it("includes the catalogue stack the case chose", () => {
    const c = testCase({ application_type: "web-application", tech_stack_id: "django-postgres" });
    expect([...statedStack(c).closure].sort()).toEqual(["django", "htmx", "postgresql", "python"]);
    const p = plan([
      [0, "A web app"],
      [1, "Store sessions in MongoDB"],
    ]);
    expect(reasons(c, p)).toEqual(["node n1: MongoDB (database) where the text names PostgreSQL"]);
  });

  it("reads the composed context too, and names where the mention is", () => {
    const c = testCase({ technologies: ["go"] });
    const p = plan(
      [
        [0, "A CLI in Go"],
        [1, "Write the sync command"],
      ],
      { context: context({ backend: "Node.js with Express" }) },
    );
    expect(reasons(c, p)).toEqual([
      "context.tech_stack: Node.js implies JavaScript, TypeScript where the text names Go",
      "context.tech_stack: Express implies JavaScript, TypeScript where the text names Go",
    ]);
  });

  it("does not mistake ordinary words for technologies", () => {
    expect(
      technologiesIn(
        "Go live on Monday; go to settings; Express checkout; render the chart; a rollup of metrics; tree node; the Lambda calculus; an influx of users; pay with Express checkout; the project timescale; go-live checklist",
      ),
    ).toEqual([]);
    expect(technologiesIn("Written in C with ESP-IDF, go + redis, Node/Express, ASP.NET Core")).toEqual([
      "go",
      "c",
      "nodejs",
      "express",
      "aspnet",
      "redis",
      "esp-idf",
    ]);
  });
});

// ---- duplicates ---------------------------------------------------------------------------------------------------

describe("duplicates", () => {
  it("finds exact duplicates after lower-casing and stripping punctuation", () => {
    const p = plan([
      [0, "root"],
      [1, "Add login form"],
      [1, "add login form."],
      [1, "Add signup form"],
    ]);
    expect(duplicateTitles(p).exact.map((d) => [d.a.id, d.b.id])).toEqual([["n1", "n2"]]);
  });

  it("finds near duplicates by token-set Jaccard >= 0.8, stop words aside, titles of 3+ tokens", () => {
    const p = plan([
      [0, "root"],
      [1, "Validate the login form fields"],
      [1, "Validate fields of the login form"],
      [1, "Build the invoice PDF renderer"],
      [1, "Build the invoice email sender"],
      [1, "Add tests"],
      [1, "Add tests!"],
    ]);
    const { exact, near } = duplicateTitles(p);
    expect(near.map((d) => [d.a.id, d.b.id, d.jaccard])).toEqual([["n1", "n2", 1]]);
    expect(exact.map((d) => [d.a.id, d.b.id])).toEqual([["n5", "n6"]]);
  });

  it("passes distinct titles", () => {
    const p = plan([
      [0, "root"],
      [1, "Parse ISO 8601 strings"],
      [1, "Format dates with tokens"],
      [1, "Add and subtract durations"],
    ]);
    expect(duplicateTitles(p)).toEqual({ exact: [], near: [] });
  });
});

// ---- garbled titles ----------------------------------------------------------------------------------------------

describe("garbled titles", () => {
  const cases: [rule: string, bad: string[], good: string[]][] = [
    [
      "lower-case-start",
      ["implement login", "make our checkout faster"],
      ["iOS push notifications", "npm package publishing"],
    ],
    [
      "pronoun-fragment",
      ["Write tests for we're moving", "Implement i'm writing a library", "I want manage invoices"],
      ["Build a dashboard for our users", "Show what it's worth"],
    ],
    [
      "verb-verb",
      ["Manage write", "Implement want three environments"],
      [
        "Manage write access for editors",
        "Implement let bindings",
        "Build read model for invoices",
        "Implement GET endpoints",
      ],
    ],
    [
      "verb-negation",
      ["Implement no db needed", "Add not in v1 items"],
      ["Add a no-reply sender", "Build offline mode"],
    ],
    ["doubled-word", ["Render the the heatmap", "Write UI tests tests for rules"], ["Render the heatmap"]],
    [
      "dangling-end",
      ["Export invoices to", "Set up CI and", "Show a calendar heatmap per"],
      ["Implement sign in", "Let users log in", "Add Google sign-in"],
    ],
    [
      "unbalanced",
      ["Implement tags (vegan", 'Show "last seen', "Add [beta badge"],
      ["Implement tags (vegan, gluten-free)"],
    ],
    ["conjunction-start", ["And add retries", "But keep the cache"], ["Add retries"]],
    [
      "placeholder-text",
      ["Implement undefined", "Handle [object Object] errors", "Create the {obj} form", "Save null"],
      ["Handle null values in imports"],
    ],
    ["too-short", ["Login", "Refactor!"], ["Login page"]],
    ["too-long", [`Implement ${"the very long feature ".repeat(8)}`], ["Implement a short feature"]],
  ];

  it("names a rule for every garbled title and passes well-formed ones", () => {
    const ids = GARBLE_RULES.map((r) => r.id);
    for (const [rule, bad, good] of cases) {
      expect(ids).toContain(rule);
      for (const title of bad)
        expect(
          GARBLE_RULES.filter((r) => r.test(title)).map((r) => r.id),
          title,
        ).toContain(rule);
      for (const title of good)
        expect(
          GARBLE_RULES.filter((r) => r.test(title)).map((r) => r.id),
          title,
        ).toEqual([]);
    }
    expect(new Set(cases.map(([rule]) => rule))).toEqual(new Set(ids));
  });

  it("reports the node and the rule, never the root", () => {
    const p = plan([
      [0, "make our checkout faster"],
      [1, "Profile the checkout"],
      [1, "cache the cart totals"],
    ]);
    expect(garbledTitles(p)).toEqual([
      { nodeId: "n2", title: "cache the cart totals", rule: "lower-case-start" },
    ]);
  });
});

// ---- leaves, shares, totals and the gate ---------------------------------------------------------------------------

describe("leaf metrics", () => {
  it("counts leaves, story points and the optional fields' shares", () => {
    const p = plan([
      [0, "root"],
      [1, "Parent task one", { story_points: 8 }],
      [
        2,
        "Leaf task one",
        { story_points: 3, acceptance_criteria: ["a", "b"], requirement_ids: ["R1"], estimated_hours: 8 },
      ],
      [
        2,
        "Leaf task two",
        { story_points: 5, acceptance_criteria: ["a"], requirement_ids: [], estimated_hours: 24 },
      ],
      [1, "Leaf task three", { story_points: 3 }],
    ]);
    expect(leavesOf(p).map((n) => n.id)).toEqual(["n2", "n3", "n4"]);
    const s = scorePlan(testCase(), p);
    expect(s.storyPoints).toEqual({ "3": 2, "5": 1 });
    expect(s.acceptance).toEqual({ leaves: 3, twoToFive: 1 });
    expect(s.requirementIds).toEqual({ leaves: 3, withIds: 1 });
    expect(s.hours).toEqual({ estimated: 2, atMost16: 1 });
  });

  it("reports n/a (null) for fields the planner does not return", () => {
    const s = scorePlan(
      testCase(),
      plan([
        [0, "root"],
        [1, "Leaf task one"],
      ]),
    );
    expect([s.acceptance, s.requirementIds, s.hours]).toEqual([null, null, null]);
  });

  it("sums the corpus: coverage, story points, tokens per node", () => {
    const c = testCase({ requirements: [{ id: "R1", text: "x", match: ["alpha"] }] });
    const a = scorePlan(
      c,
      plan([
        [0, "root"],
        [1, "Alpha task one", { story_points: 2 }],
      ]),
    );
    const b = scorePlan(
      c,
      plan([
        [0, "root"],
        [1, "Beta task one", { story_points: 5 }],
      ]),
    );
    const t = totals([a, b]);
    expect([t.requirements, t.covered, t.coverage]).toEqual([2, 1, 0.5]);
    expect(t.storyPoints).toEqual({ "2": 1, "5": 1 });
    expect(t.distinctStoryPoints).toBe(2);
    expect([t.calls, t.promptTokens, t.completionTokens, t.tokensPerNode]).toEqual([6, 200, 100, 75]);
  });
});

describe("the gate", () => {
  const c = testCase({
    id: "gate-case",
    requirements: [{ id: "R1", text: "Parse dates", match: ["parse"] }],
    technologies: ["go"],
    non_goals: [{ text: "a web UI", match: ["web UI"] }],
  });

  it("passes a faithful plan", () => {
    const good = plan([
      [0, "A CLI in Go that parses dates"],
      [1, "Parse dates from arguments", { story_points: 2 }],
      [1, "Print dates in the local time zone", { story_points: 3 }],
      [1, "Release static binaries with GoReleaser", { story_points: 1 }],
    ]);
    expect(gateFailures([scorePlan(c, good)])).toEqual([]);
  });

  it("names the case and the offending node in every failure", () => {
    const bad = plan([
      [0, "A CLI in Go that parses dates"],
      [1, "Build the web UI in React with an Express API"],
      [1, "implement things"],
      [1, "implement things"],
    ]);
    const failures = gateFailures([scorePlan(c, bad)]);
    expect(failures.map((f) => f.rule).sort()).toEqual([
      "exact-duplicate",
      "garbled-title",
      "garbled-title",
      "non-goal-planned",
      "uncovered-requirement",
      "wrong-stack",
    ]);
    for (const f of failures) expect(f.message).toMatch(/^\[gate-case\] /);
    expect(failures.find((f) => f.rule === "wrong-stack")?.message).toContain(
      'node n1 "Build the web UI in React with an Express API": Express implies',
    );
    expect(failures.find((f) => f.rule === "non-goal-planned")?.message).toContain('n1 "Build the web UI');
    expect(failures.find((f) => f.rule === "garbled-title")?.message).toContain(
      'n2 "implement things": lower-case-start',
    );
  });

  it("counts the proposed dependencies and refuses a plan whose order has a cycle", () => {
    const rows = (dependsOn: Record<string, string[]>): Row[] => [
      [0, "A CLI in Go that parses dates"],
      [1, "Parse dates from arguments", { story_points: 2, depends_on: dependsOn.n1 }],
      [1, "Print dates in the local time zone", { story_points: 3, depends_on: dependsOn.n2 }],
      [1, "Release static binaries with GoReleaser", { story_points: 1, depends_on: dependsOn.n3 }],
    ];
    const ordered = scorePlan(c, plan(rows({ n2: ["n1"], n3: ["n1", "n2"] })));
    expect(ordered.dependencies).toEqual({ edges: 3, cyclic: false });
    expect(gateFailures([ordered])).toEqual([]);
    const cyclic = scorePlan(c, plan(rows({ n1: ["n3"], n3: ["n1"] })));
    expect(cyclic.dependencies).toEqual({ edges: 2, cyclic: true });
    expect(gateFailures([cyclic]).map((f) => f.message)).toEqual([
      "[gate-case] the proposed dependencies form a cycle: the plan cannot be scheduled",
    ]);
    expect(totals([ordered, cyclic])).toMatchObject({
      dependencies: 5,
      plansWithDependencies: 2,
      cyclicPlans: 1,
    });
  });

  it("refuses plans with fewer than 3 leaves, failed plans, and one story-point value across the corpus", () => {
    const small = plan([
      [0, "root"],
      [1, "Parse dates quickly"],
    ]);
    const failed = { ...small, error: "planning failed: boom" };
    const failures = gateFailures([scorePlan(c, small), scorePlan({ ...c, id: "other" }, failed)]);
    expect(failures.filter((f) => f.rule === "too-few-leaves").map((f) => f.caseId)).toEqual([
      "gate-case",
      "other",
    ]);
    expect(failures.find((f) => f.rule === "plan-failed")?.message).toBe("[other] planning failed: boom");
    expect(failures.find((f) => f.rule === "uniform-story-points")?.message).toContain("(2)");
  });
});

// ---- the corpus itself -----------------------------------------------------------------------------------------------

describe("the corpus", () => {
  const text = (c: EvalCase) =>
    [c.description, c.additional_requirements ?? "", c.repository_summary ?? ""].join("\n");

  it("has at least 26 cases with unique ids, a mix of lengths, terse ones and explicit non-goals", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(26);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
    const words = CORPUS.map((c) => c.description.split(/\s+/).length);
    expect(Math.min(...words)).toBeLessThanOrEqual(5);
    expect(Math.max(...words)).toBeGreaterThanOrEqual(200);
    expect(
      CORPUS.filter((c) => /^[a-z]/.test(c.description) && c.description.length < 300).length,
    ).toBeGreaterThanOrEqual(5);
    expect(CORPUS.filter((c) => c.non_goals.length > 0).length).toBeGreaterThanOrEqual(6);
  });

  it("annotates exactly the technologies the catalogue finds in each text", () => {
    for (const c of CORPUS) {
      for (const id of c.technologies) expect(TECH_BY_ID.has(id), `${c.id}: ${id}`).toBe(true);
      expect([...c.technologies].sort(), c.id).toEqual(technologiesIn(text(c)).sort());
    }
  });

  it("takes every requirement's terms from the user's own text, and names catalogue choices that exist", () => {
    for (const c of CORPUS) {
      expect(c.requirements.length, c.id).toBeGreaterThan(0);
      for (const r of c.requirements)
        for (const term of r.match)
          expect(containsTerm(text(c), term), `${c.id} ${r.id}: ${term}`).toBe(true);
      if (c.application_type) expect(findApplicationType(c.application_type), c.id).toBeDefined();
      if (c.tech_stack_id) expect(findStack(c.application_type ?? "", c.tech_stack_id), c.id).toBeDefined();
    }
  });
});

describe("the reading metrics (issue 28)", () => {
  const c: EvalCase = {
    id: "reading-case",
    kind: "bug report",
    work_kind: "bug",
    description: "Export crashes. Please stream the file, add a regression test and log the size.",
    requirements: [
      { id: "R1", text: "Stream the file", match: ["stream"] },
      { id: "R2", text: "A regression test", match: ["regression"] },
      { id: "R3", text: "Log the size", match: ["log the size"] },
    ],
    technologies: [],
    non_goals: [{ text: "the import dialog", match: ["import dialog"] }],
    not_work: [{ text: "the version line", match: ["v2.14"] }],
    separate: [["R1", "R2"]],
    sequence: [["R1", "R3"]],
    independent: [["R1", "R2"]],
    not_non_goals: [{ text: "no secrets in logs", match: ["secrets"] }],
  };
  const rows = (extra: Record<string, Partial<PlanNode>> = {}): Row[] => [
    [0, "Export crashes"],
    [1, "R1: Stream the file", { ...extra.n1 }],
    [1, "R2: A regression test", { ...extra.n2 }],
    [1, "R3: Log the size", { ...extra.n3 }],
  ];

  it("finds nothing wrong in a plan read as an engineer would", () => {
    const s = scorePlan(
      c,
      plan(rows({ n3: { depends_on: ["n1"] } }), { workKind: "bug", nonGoals: ["the import dialog"] }),
    );
    expect([s.nonWork, s.merged, s.kindMismatch, s.misfits, s.scope, s.order]).toEqual([
      [],
      [],
      null,
      [],
      [],
      [],
    ]);
  });

  it("finds non-work leaves, merged features, the wrong kind, misfit steps, scope and order errors", () => {
    const bad = plan(
      [
        [0, "Export crashes"],
        [1, "Choose the stack and record the decision"],
        [1, "R1: Stream the file and add a regression test", { depends_on: [] }],
        [1, "Seen on v2.14 in production"],
        [1, "Why does it crash?"],
        [1, "R3: Log the size"],
        [1, "Release the first version"],
      ],
      { workKind: "product", nonGoals: ["no secrets in the logs"] },
    );
    const s = scorePlan(c, bad);
    expect(s.nonWork.map((f) => f.why)).toEqual(['not work: "the version line"', "a question"]);
    expect(s.merged.map((f) => f.title)).toEqual(["R1: Stream the file and add a regression test"]);
    expect(s.kindMismatch?.why).toBe("read as product, not bug");
    expect(s.misfits.map((f) => f.why)).toEqual([
      "a stack choice for work on something that exists",
      "a first release for work on something that exists",
    ]);
    expect(s.scope.map((f) => f.why)).toEqual([
      'the non-goal "the import dialog" is not stated as out of scope',
      '"no secrets in logs" is read as out of scope, but it is not',
    ]);
    expect(s.order.map((f) => f.why)).toEqual([
      'R3 should come after R1 ("R1: Stream the file and add a regression test")',
    ]);
    const rules = gateFailures([s]).map((f) => f.rule);
    for (const rule of [
      "non-work-leaf",
      "merged-features",
      "wrong-kind",
      "misfit-step",
      "scope-error",
      "order-violation",
    ])
      expect(rules, rule).toContain(rule);
  });

  it("counts an order the text never states between independent requirements", () => {
    const s = scorePlan(
      c,
      plan(rows({ n2: { depends_on: ["n1"] }, n3: { depends_on: ["n1"] } }), {
        workKind: "bug",
        nonGoals: ["the import dialog"],
      }),
    );
    expect(s.order.map((f) => f.why)).toEqual(["R1 and R2 are ordered, but nothing in the text orders them"]);
  });
});
