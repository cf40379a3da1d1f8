import { titleReportsFault } from "../../reading/kind";
import { IMPERATIVE_START, isExplicitAsk } from "../../reading/place";
import { startsWithInstruction } from "../../reading/sentences";
import {
  allNamed,
  type Deliverable,
  isDataMigration,
  type NamedTech,
  needsSecurityReview,
} from "../../reading/signals";
import type { Requirement, StatedScope } from "../../reading/types";
import type { ProjectBrief } from "../contract";
import { as, group, idList, inSequence, leaf, type OutlineNode, requirementLeaf, titleText } from "./nodes";
import {
  acceptanceRun,
  bugClose,
  bugFix,
  bugSteps,
  chooseStack,
  collectData,
  compareOutputs,
  cutOver,
  dataModel,
  decommission,
  deployUpgrade,
  discoverySteps,
  hypothesisSteps,
  infrastructureRelease,
  investigate,
  mapPipeline,
  mapTheSystem,
  measureBaseline,
  measureCost,
  openQuestions,
  profileStep,
  prototype,
  recommendation,
  rehearsal,
  releaseStep,
  repositorySetup,
  rolloutBehindSwitch,
  scheduleAndMonitor,
  securityReview,
  shipChange,
  spikeStart,
  validateResults,
  verifyData,
  verifyPerformance,
  verifyUpgrade,
} from "./steps";
import { CI_REQ, CORE, DEPLOY_REQ, workstreams } from "./workstreams";

/**
 * The shape of each kind of work (decision 027): the steps around the stated requirements. A new product
 * chooses its stack and ships a first release, a feature maps the code it touches, a bug is reproduced,
 * tested, fixed and verified, performance work measures before it changes anything, a migration is
 * rehearsed and verified before the cut-over, infrastructure is reviewed and applied to staging first,
 * data work is validated before it is scheduled, and a spike ends in a recommendation.
 */

/** A workstream, which becomes an epic: with the nodes it holds. */
export type Workstream = { title: string; nodes: OutlineNode[] };

export type Shape = {
  first: OutlineNode[];
  middle: OutlineNode[];
  last: OutlineNode[];
  streams: Workstream[];
  /** The workstream's name when the requirements sit directly on the first level. */
  flatTitle: string | null;
};

/** A requirement that keeps data: "Holds donor data", "Store each reading", a "Database" section. */
const STORES =
  /\b(?:stor(?:e|es|ed|ing|age)|holds?|keeps? (?:a )?(?:record|track|history|log)|records?|saves?|persist\w*|database|db|tables?|schema|history|log of)\b/i;
/** A requirement that is itself the data model. */
const DATA_MODEL = /\b(?:data model|schema|erd|entity[- ]relationship|migrations?)\b/i;

/** A stated requirement that sets a measurable goal ("p95 under 200 ms") rather than a change to make. */
const TARGET =
  /\b(?:under|below|less than|at most|within|no more than|faster than|target|goal|budget|<|≤)\s*~?\d[\d.,]*\s*(?:ms|milliseconds|s|sec|seconds|mins?|minutes|%|kb|mb|gb|requests?)\b/i;

/** Requirements grouped into workstreams (or kept flat when few), their leaves marked with stated order. */
function featureNodes(
  requirements: Requirement[],
  scope: StatedScope,
  /** The description's own sections are phases done in their order (a migration's, a pipeline's). */
  phased = false,
): { middle: OutlineNode[]; streams: Workstream[]; flatTitle: string | null } {
  const sequenceOf = new Map<string, string>();
  scope.sequences.forEach((seq, k) => {
    for (const id of seq) sequenceOf.set(id, `stated-${k}`);
  });
  const phaseStep = phased ? stepsWithinSections(requirements, sequenceOf) : new Map<string, number>();
  const node = (r: Requirement) => {
    const n = requirementLeaf(r);
    const series = sequenceOf.get(r.id);
    if (series) return { ...n, sequence: series, ...(r.step !== undefined ? { step: r.step } : {}) };
    const step = phaseStep.get(r.id);
    return step !== undefined ? { ...n, sequence: `section-${r.section ?? ""}`, step } : n;
  };
  const streams = workstreams(requirements, scope.sequences);
  if (requirements.length === 0) return { middle: [], streams: [], flatTitle: null };
  if (streams.length <= 1 || requirements.length <= 3) {
    const nodes = streams.flatMap((s) => s.items).map(node);
    const title = streams[0]?.title ?? CORE;
    return { middle: nodes, streams: [{ title, nodes }], flatTitle: title };
  }
  const middle: OutlineNode[] = [];
  const out: Workstream[] = [];
  // Grouped by the description's own sections (not by category): their order is the text's.
  const sectioned = new Set(requirements.map((r) => r.section).filter((s) => s !== null)).size >= 2;
  for (const s of streams) {
    const children = s.items.map(node);
    // A one-word section heading ("Goals") says more with the requirements it holds.
    const title = /\s/.test(s.title) ? s.title : `${s.title} (${idList(s.items, 80)})`;
    const grouped = children.length === 1 ? children[0]! : group(title, children);
    const n = phased && sectioned ? { ...grouped, sequence: "phases" } : grouped;
    middle.push(n);
    out.push({ title, nodes: [n] });
  }
  return { middle, streams: out, flatTitle: null };
}

/** The first item of a section that adds what the others use: a dependency, a server, a split-off part. */
const SETS_UP =
  /^(?:(?:add|list|declare|pin)\b.*\b(?:dependenc\w*|requirements\.txt|package\.json|pyproject(?:\.toml)?|gemfile|go\.mod|pom\.xml|build\.gradle)\b|(?:set ?up|install|provision|spin up|stand up|create|split|break out|carve out)\b)/i;
/** An item that tries the others out before they count: "Rehearse the steps on the beta site first". */
const REHEARSES = /^(?:rehearse|dry[- ]run|trial[- ]run|try (?:out )?(?:the|it|them|this|everything)\b)/i;

/**
 * Phased work (a migration's, a pipeline's, infrastructure's) states its order within a section too, where
 * a reader would: what sets up what the others use comes first ("List the instrumentator among the
 * dependencies", "Set up postgres on the new server", "Split the payments DAGs off"), and a rehearsal of
 * the section's steps comes after them. Other items of a section stay side by side.
 */
function stepsWithinSections(
  requirements: Requirement[],
  sequenceOf: Map<string, string>,
): Map<string, number> {
  const steps = new Map<string, number>();
  const bySection = new Map<string, Requirement[]>();
  for (const r of requirements) {
    if (sequenceOf.has(r.id)) continue;
    const k = r.section ?? "";
    bySection.set(k, [...(bySection.get(k) ?? []), r]);
  }
  for (const items of bySection.values()) {
    if (items.length < 2) continue;
    const setsUp = SETS_UP.test(items[0]!.text);
    const rehearsals = items.slice(1).filter((r) => REHEARSES.test(r.text));
    if (!setsUp && rehearsals.length === 0) continue;
    items.forEach((r, i) => {
      steps.set(r.id, rehearsals.includes(r) ? 2 : i === 0 && setsUp ? 0 : 1);
    });
  }
  return steps;
}

/**
 * A statement of how things are, not a change: a subject and a finite verb, no instruction, no wish
 * ("Its queries slow to a crawl", "Postgres 12 reaches EOL on 11/14/2024", "It's our guinea pig").
 */
export function isObservation(text: string): boolean {
  const t = text.trim();
  if (isExplicitAsk(t) || startsWithInstruction(t) || IMPERATIVE_START.test(t)) return false;
  if (
    /\b(?:should|must|shall|needs? to|has to|have to|want|wants|would like|'d like|please|let's)\b/i.test(t)
  )
    return false;
  return STATEMENT.test(t);
}
const STATEMENT =
  /^(?:[\w'’.`/-]+\s+){0,5}?(?:is|are|was|were|it's|that's|has|have|had|takes?|took|reaches|reached|contains?|shows?|shown|slows?|runs?|costs?|gets?|got|goes|went|seems?|looks?|holds?|keeps?|comes?|uses?|used|lives?|sits?|ends?|ended|breaks?|fails?)\b/i;

/** A suspicion about the cause: "Probably this comes from ...", "It may be the N+1 queries". */
export function isHypothesis(text: string): boolean {
  return /^(?:(?:i|we)\s+(?:think|suspect|guess|believe)|(?:this|it|that)\s+(?:probably|likely|may|might|could)\b|probably|likely|maybe|perhaps|possibly|my guess|one (?:cause|reason|factor)|(?:the\s+)?(?:likely|probable|suspected) cause)\b/i.test(
    text.trim(),
  );
}

/** A leaf that tests one suspected cause, titled by what is suspected. */
function hypothesisLeaf(text: string, covers: Requirement[] = []): OutlineNode {
  const what = text
    .trim()
    .replace(
      /^(?:(?:i|we)\s+(?:think|suspect|guess|believe)(?: that)?|(?:this|it|that)\s+(?:probably|likely)?\s*(?:may|might|could)?\s*(?:be|comes?|come)?\s*(?:from|due to|because of)?|probably|likely|maybe|perhaps|possibly|my guess is(?: that)?)\s*(?:this|it)?\s*(?:comes?|is|stems?)?\s*(?:from|due to|because of)?\s*/i,
      "",
    );
  return leaf(
    `Test the suspected cause: ${titleText(what || text, 110)}`,
    [
      `Suspected in the description: "${text}"`,
      "Measure with and without it before changing anything for good.",
    ].join("\n"),
    [
      "The suspicion is confirmed or ruled out with numbers",
      "What was found is written down with the baseline",
    ],
    4,
    covers,
  );
}

/** A node that also covers requirements it answers, quoting them below its title. */
export function covering(node: OutlineNode, covers: Requirement[], heading: string): OutlineNode {
  if (covers.length === 0) return node;
  const said = covers.map((r) => r.text).join(" / ");
  return {
    ...node,
    covers: [...node.covers, ...covers],
    requirementIds: [...node.requirementIds, ...covers.map((r) => r.id)],
    body: `${heading} ${said.length > 800 ? `${said.slice(0, 797)}...` : said}`,
  };
}

/**
 * What an engineer checks when a database query is what is slow: its plan and the index it needs, and,
 * when the text says a table keeps growing, what bounds it. Only when the text speaks of queries or tables.
 */
function databaseChecks(text: string, changes: Requirement[]): OutlineNode[] {
  if (
    !/\b(?:sql|queries|query|tables?|index(?:es)?|mysql|postgres(?:ql)?|sqlite|mongo(?:db)?|slow[- ]?log|database|db)\b/i.test(
      text,
    )
  )
    return [];
  const said = (re: RegExp) => changes.some((r) => re.test(r.text));
  const out: OutlineNode[] = [];
  if (!said(/\b(?:explain|query plan|index)/i))
    out.push(
      leaf(
        "Read the slow query's plan (EXPLAIN) and the indexes it can use",
        "Run the slow queries with EXPLAIN on production-sized data; note full scans, rows examined and the index (or lookup key) each WHERE clause needs.",
        [
          "Each slow query's plan is written down with the rows it examines",
          "The index or key that would serve it is named",
        ],
        4,
      ),
    );
  if (
    /\b(?:gets? (?:big|large|huge)|grows?|growing|grew|huge number|millions of|only grows|piles? up)\b/i.test(
      text,
    ) &&
    !said(/\b(?:purge|prune|clean ?up|expire|retention|ttl)/i)
  )
    out.push(
      leaf(
        "Bound the growth: expire and purge old rows",
        "Decide how long the data is worth keeping, and remove what is older on a schedule, in batches.",
        [
          "A retention rule is agreed and written down",
          "Old rows are purged on a schedule without locking the table",
        ],
        6,
      ),
    );
  return out;
}

/** Words that mean the same move or the same speed, so a restated title is recognised. */
const SAME_WORD: [RegExp, string][] = [
  [
    /^(?:move|moving|port|porting|migrate|migrating|migration|switch|switching|upgrade|upgrading|convert|converting|bump|bumping)$/,
    "migrate",
  ],
  [/^(?:faster|speed|quicker|quickly|fast|slow|slowness|latency)$/, "speed"],
  [/^(?:loading|load|loads)$/, "load"],
];

function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}][\p{L}\p{N}'-]*/gu) ?? [];
  return new Set(
    words
      .filter((w) => w.length >= 3 && !STOP.has(w))
      .map((w) => SAME_WORD.find(([re]) => re.test(w))?.[1] ?? w.replace(/(?<=[^s])s$/, "")),
  );
}
const STOP = new Set(
  "the and for with from into onto over under about this that these those its our your their make makes made get gets let lets all any some more most much very just also only even still too can could will would should must may might".split(
    " ",
  ),
);

/**
 * A requirement that says again what the title asks ("Move to Vue 3" / "Port the project to Vue 3",
 * "Speed up loading of search results" / "Make search results load faster"): the whole plan is its answer.
 */
export function restatesTitle(text: string, title: string | null): boolean {
  if (!title) return false;
  const said = contentWords(text);
  const titled = contentWords(title);
  if (said.size === 0 || said.size > 8 || titled.size === 0) return false;
  const shared = [...said].filter((w) => titled.has(w)).length;
  return shared / said.size >= 0.6 && shared / titled.size >= 0.5;
}

const one = (nodes: OutlineNode[], title: string) => (nodes.length === 1 ? nodes[0]! : group(title, nodes));

// ---- the shapes -------------------------------------------------------------------------------------

export function productShape(
  brief: ProjectBrief,
  requirements: Requirement[],
  made: Deliverable,
  tech: NamedTech,
  vague: boolean,
): Shape {
  const { scope } = brief;
  const named = allNamed(tech);
  const stackName = brief.stack?.name ?? null;
  const deployReqs = requirements.filter((r) => DEPLOY_REQ.test(r.text) && !CI_REQ.test(r.text));
  const ciReqs = requirements.filter((r) => CI_REQ.test(r.text));
  const special = new Set([...deployReqs, ...ciReqs]);
  const features = requirements.filter((r) => !special.has(r));
  const stored = features.filter((r) => STORES.test(r.text) || STORES.test(r.section ?? ""));
  const first: OutlineNode[] = [];
  const streams: Workstream[] = [];
  if (vague) first.push(...inSequence(discoverySteps(), "discovery"));
  const setup = [
    ...(scope.questions.length && !vague ? [openQuestions(scope.questions)] : []),
    ...(named.length === 0 && !stackName ? [chooseStack()] : []),
    ...(ciReqs.length ? ciReqs.map((r) => requirementLeaf(r)) : [repositorySetup(named, stackName)]),
    // Things to store, stated more than once (or a section of them): the data model comes before them.
    ...(stored.length >= 2 && !features.some((r) => DATA_MODEL.test(r.text)) ? [dataModel(stored)] : []),
  ];
  first.push(setup.length === 1 ? setup[0]! : group("Project setup", inSequence(setup, "setup")));
  streams.push({ title: vague ? "Discovery and setup" : "Project setup", nodes: [...first] });
  let middle: OutlineNode[];
  let flatTitle: string | null = null;
  if (vague && features.length === 1) {
    middle = [requirementLeaf(features[0]!, `First release: ${features[0]!.text}`)];
    streams.push({ title: "First release", nodes: middle });
  } else {
    const f = featureNodes(features, scope);
    middle = f.middle;
    flatTitle = f.flatTitle;
    streams.push(...f.streams);
  }
  const text = [...requirements.map((r) => r.text), ...scope.context].join("\n");
  const release = [
    ...(needsSecurityReview(text, made) ? [as(securityReview(scope.constraints), "verify")] : []),
    ...(requirements.length > 1 ? [as(acceptanceRun(requirements, scope), "verify")] : []),
    ...(deployReqs.length
      ? deployReqs.map((r) => as(requirementLeaf(r), "ship"))
      : [as(releaseStep(made, tech), "ship")]),
  ];
  const last = [one(release, "Quality and release")];
  streams.push({ title: "Quality and release", nodes: last });
  return { first, middle, last, streams, flatTitle };
}

export function featureShape(brief: ProjectBrief, requirements: Requirement[], made: Deliverable): Shape {
  const { scope } = brief;
  const first = [
    one(
      [
        mapTheSystem(
          "Map the code and data the change touches",
          "find the modules, tables and endpoints involved.",
          scope.context,
          Boolean(brief.repositorySummary),
        ),
        ...(scope.questions.length ? [openQuestions(scope.questions)] : []),
      ],
      "Understand the current system",
    ),
  ];
  const f = featureNodes(requirements, scope);
  const text = [...requirements.map((r) => r.text), ...scope.context].join("\n");
  const release = [
    ...(needsSecurityReview(text, made) ? [as(securityReview(scope.constraints), "verify")] : []),
    ...(requirements.length > 1 || scope.criteria.length
      ? [as(acceptanceRun(requirements, scope), "verify")]
      : []),
    as(requirements.length > 3 ? rolloutBehindSwitch() : shipChange(), "ship"),
  ];
  const last = [one(release, "Roll out the change")];
  return {
    first,
    middle: f.middle,
    last,
    streams: [
      { title: "Understanding the current system", nodes: first },
      ...f.streams,
      { title: "Roll out the change", nodes: last },
    ],
    flatTitle: f.flatTitle,
  };
}

export function bugShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const bug = scope.title ?? requirements[0]?.text ?? "the reported bug";
  const steps = bugSteps(bug.replace(/^\s*\[?bug\]?\s*[:\]-]?\s*/i, "").trim() || bug, scope);
  // An ask for a test takes the place of the generic failing test; the other asks are part of the fix.
  // With nothing asked, the title is the requirement (the reader's fallback): the fix covers it.
  // A one-line report is its only requirement.
  const reported = requirements.filter((r) =>
    scope.title !== null
      ? r.text === scope.title.replace(/[!?]+$/, "").trim()
      : requirements.length === 1 && titleReportsFault(r.text),
  );
  const asks = requirements.filter((r) => !reported.includes(r));
  const tests = asks.filter((r) => /\b(?:tests?|specs?|regression|race detector|-race)\b/i.test(r.text));
  // What the report asks to change is the fix; with nothing asked, a generic fix covers the report. Its own
  // tests are done with the fix, side by side.
  const changes = asks.filter((r) => !tests.includes(r));
  const fixes = [
    ...(changes.length && reported.length === 0 ? [] : [bugFix(scope, reported)]),
    ...changes.map((r) => requirementLeaf(r)),
    ...tests.map((r) => requirementLeaf(r)),
  ];
  const fix = one(fixes, "Fix the bug");
  const series = inSequence(
    [...steps.before, ...(tests.length ? [] : [steps.test]), ...steps.after, fix, ...bugClose(scope)],
    "bug",
  );
  return {
    first: [],
    middle: series,
    last: [],
    streams: [{ title: "Fix the bug", nodes: series }],
    flatTitle: "Fix the bug",
  };
}

export function performanceShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const goals = requirements.filter((r) => TARGET.test(r.text));
  const rest = requirements.filter((r) => !goals.includes(r));
  // What the report observes is what the baseline measures; what it suspects is tested, one at a time.
  const guesses = rest.filter((r) => isHypothesis(r.text));
  const seen = rest.filter((r) => !guesses.includes(r) && r.step === undefined && isObservation(r.text));
  const changes = rest.filter((r) => !guesses.includes(r) && !seen.includes(r));
  const goalTexts = [...goals.map((r) => `${r.id}: ${r.text}`), ...scope.criteria];
  const suspected = [
    ...guesses.map((r) => hypothesisLeaf(r.text, [r])),
    ...scope.context.filter(isHypothesis).map((t) => hypothesisLeaf(t)),
  ];
  const database = databaseChecks(brief.description, changes);
  const middle = [
    covering(measureBaseline(goalTexts), seen, "What was measured or seen:"),
    profileStep(),
    ...suspected,
    ...database,
    ...(changes.length
      ? [
          one(
            changes.map((r) => requirementLeaf(r)),
            "The stated fixes, each measured against the baseline",
          ),
        ]
      : suspected.length || database.length
        ? []
        : hypothesisSteps()),
    verifyPerformance(goalTexts, goals),
  ];
  const series = inSequence(middle, "performance");
  return {
    first: [],
    middle: series,
    last: [],
    streams: [{ title: "Performance, measured first", nodes: series }],
    flatTitle: null,
  };
}

export function migrationShape(brief: ProjectBrief, given: Requirement[]): Shape {
  const { scope } = brief;
  // Statements of how things are ("Postgres 12 reaches EOL in November") are what the inventory reads.
  const seen = given.filter((r) => r.step === undefined && isObservation(r.text));
  const requirements = given.filter((r) => !seen.includes(r));
  const data = isDataMigration(brief.description);
  const stated = (re: RegExp) => requirements.some((r) => re.test(r.text));
  const first = [
    mapTheSystem(
      data
        ? "Inventory what the migration moves: data, queries and features"
        : "Inventory what the upgrade touches: dependencies, deprecations and breaking changes",
      data
        ? "list the data, the queries and the features that depend on the old system."
        : "read the release notes and upgrade guides between the two versions and list what affects us.",
      scope.context,
      Boolean(brief.repositorySummary),
    ),
  ].map((n) => covering(n, seen, "What the description says of it:"));
  const f = featureNodes(requirements, scope, true);
  const checks = data
    ? [
        ...(stated(/\brehears/i) ? [] : [rehearsal()]),
        ...(stated(/\b(row counts?|checksums?|verif\w+|compare|reconcil\w+)\b/i) ? [] : [verifyData()]),
        ...(stated(/\bcut[- ]?over|switch (?:traffic|over)|dns\b/i) ? [] : [cutOver()]),
        ...(stated(/\b(decommission|retire|turn off|shut down|remove the old|delete the old)\b/i)
          ? []
          : [decommission()]),
      ]
    : [
        verifyUpgrade(scope.criteria),
        ...(stated(/\b(deploy|release|roll ?out|ship)\b/i) ? [] : [deployUpgrade()]),
      ];
  const last = [
    one(
      inSequence(checks, "cut-over").map((n, i) => as(n, i === checks.length - 1 ? "ship" : "verify")),
      data ? "Verify and cut over" : "Verify and deploy",
    ),
  ];
  return {
    first,
    middle: f.middle,
    last,
    streams: [
      { title: "Inventory", nodes: first },
      ...f.streams,
      { title: data ? "Verify and cut over" : "Verify and deploy", nodes: last },
    ],
    flatTitle: f.flatTitle,
  };
}

export function infrastructureShape(brief: ProjectBrief, stated: Requirement[]): Shape {
  const { scope } = brief;
  const seen = stated.filter((r) => r.step === undefined && isObservation(r.text));
  const requirements = stated.filter((r) => !seen.includes(r));
  const first = [
    covering(
      mapTheSystem(
        "Inventory what runs today and what changes",
        "list the environments, resources and access involved, and what the change adds or replaces.",
        scope.context,
        Boolean(brief.repositorySummary),
      ),
      seen,
      "What the description says runs today:",
    ),
  ];
  const f = featureNodes(requirements, scope, true);
  const steps = infrastructureRelease();
  const release = inSequence(
    [
      ...(scope.criteria.length || requirements.length > 1 ? [acceptanceRun(requirements, scope)] : []),
      ...steps,
    ],
    "apply",
  ).map((n, i, all) =>
    as(n, i === all.length - 1 || n.title.startsWith("Apply to production") ? "ship" : "verify"),
  );
  const last = [group("Review and apply", release)];
  return {
    first,
    middle: f.middle,
    last,
    streams: [{ title: "Inventory", nodes: first }, ...f.streams, { title: "Review and apply", nodes: last }],
    flatTitle: f.flatTitle,
  };
}

/** Work on a model rather than on the data's plumbing. */
const MODEL_WORK =
  /\b(?:models?|train\w*|retrain\w*|classif\w*|predict\w*|forecast\w*|accuracy|fine-?tun\w*|embeddings?|llms?|neural|regression|inference|recommend\w*|cluster\w*)\b/i;
/** A pipeline that runs today: its DAGs, jobs, schedules and warehouse. */
const PIPELINE_CHANGE =
  /\b(?:dags?|airflow|dbt|etl|elt|warehouse|cron jobs?|(?:nightly|daily|hourly|scheduled) (?:runs?|jobs?|loads?)|transforms?)\b/i;
/** What the description says something costs: "costs about $300 a day", "200-400 dollars". */
const STATED_COST =
  /(?:[$€£]\s?\d|\b\d[\d,.]*(?:\s?-\s?\d[\d,.]*)?\s*(?:dollars|usd|eur|euros?|pounds|gbp)\b|\bcosts?\b[^.]*\d)/i;

export function dataShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const stated = (re: RegExp) => requirements.some((r) => re.test(r.text));
  // A change to a pipeline that runs today (its DAGs, schedules, warehouse) is mapped and compared with
  // what it produced; a model is evaluated on data it has not seen.
  const model = MODEL_WORK.test(brief.description);
  const pipeline = !model && PIPELINE_CHANGE.test(brief.description);
  const first = stated(/\b(collect|ingest|extract|load|pull|sources?|export from|import)\b/i)
    ? []
    : [pipeline ? mapPipeline(scope.context) : collectData(scope.context)];
  const f = featureNodes(requirements, scope, true);
  const costs = scope.context.filter((c) => STATED_COST.test(c));
  const checks = [
    ...(stated(
      /\b(validat\w+|evaluat\w+|holdout|back-?test|accuracy|precision|recall|auc|reconcil\w+|matches)\b/i,
    )
      ? []
      : [pipeline ? compareOutputs() : validateResults()]),
    ...(costs.length && !stated(/\b(?:costs?|spend(?:ing)?|savings?)\b/i) ? [measureCost(costs)] : []),
    ...(stated(/\b(deploy|serve|schedul\w+|cron|daily|nightly|hourly|production|monitor\w*)\b/i)
      ? []
      : [scheduleAndMonitor()]),
    ...(requirements.length > 1 ? [acceptanceRun(requirements, scope)] : []),
  ];
  const last = checks.length
    ? [
        one(
          inSequence(checks, "data-release").map((n) => as(n, "verify")),
          "Validate and run",
        ),
      ]
    : [];
  return {
    first,
    middle: f.middle,
    last,
    streams: [
      ...(first.length ? [{ title: "Data", nodes: first }] : []),
      ...f.streams,
      ...(last.length ? [{ title: "Validate and run", nodes: last }] : []),
    ],
    flatTitle: f.flatTitle,
  };
}

export function spikeShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const first = [spikeStart(scope.questions, scope.context)];
  const questions = scope.questions.map(investigate);
  // What the spike delivers (a write-up, a decision record) and any prototype come after the investigation.
  const delivers = requirements.filter((r) =>
    /\b(recommendation|write-?up|report|adr|decision record|document|comparison table|summary|findings|go\/no-go|presentation)\b/i.test(
      r.text,
    ),
  );
  const prototypes = requirements.filter(
    (r) => !delivers.includes(r) && /\b(prototype|proof[- ]of[- ]concept|poc)\b/i.test(r.text),
  );
  const investigations = requirements.filter((r) => !delivers.includes(r) && !prototypes.includes(r));
  const f = featureNodes(investigations, scope);
  const middle = [...f.middle, ...(questions.length ? [one(questions, "Answer the open questions")] : [])];
  const wantsPrototype =
    /\b(prototype|proof[- ]of[- ]concept|poc)\b/i.test(brief.description) && prototypes.length === 0;
  const ending = [
    ...(prototypes.length ? prototypes.map((r) => requirementLeaf(r)) : wantsPrototype ? [prototype()] : []),
    ...(delivers.length ? delivers.map((r) => requirementLeaf(r)) : [recommendation(investigations)]),
  ];
  const last = [
    one(
      inSequence(ending, "spike-end").map((n, i, all) => as(n, i === all.length - 1 ? "ship" : "verify")),
      "Conclude the spike",
    ),
  ];
  return {
    first,
    middle,
    last,
    streams: [
      { title: "Questions and time box", nodes: first },
      ...f.streams,
      ...(questions.length ? [{ title: "Open questions", nodes: questions }] : []),
      { title: "Conclude the spike", nodes: last },
    ],
    flatTitle: null,
  };
}
