import { titleReportsFault, type WorkKind } from "../../reading/kind";
import type { Requirement, StatedScope } from "../../reading/requirements";
import {
  allNamed,
  type Deliverable,
  deliverable,
  isDataMigration,
  type NamedTech,
  namedTechnologies,
  needsSecurityReview,
} from "../../reading/signals";
import type { ProjectBrief } from "../contract";
import { as, group, idList, inSequence, type OutlineNode, requirementLeaf, uniqueById } from "./nodes";
import {
  acceptanceRun,
  bugClose,
  bugFix,
  bugSteps,
  chooseStack,
  collectData,
  cutOver,
  decommission,
  deployUpgrade,
  discoverySteps,
  hypothesisSteps,
  infrastructureRelease,
  investigate,
  mapTheSystem,
  measureBaseline,
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

export { idList, type OutlineNode, type OutlineRole, titleText } from "./nodes";

/**
 * The offline planner's whole plan, built at once from the brief (decision 014, issue 28). Each stated
 * requirement is one node that quotes it; requirements are grouped into workstreams; the steps around
 * them come from the kind of work the text was read as (reading/kind.ts): a new product chooses its stack
 * and ships a first release, a feature maps the code it touches, a bug is reproduced, tested, fixed and
 * verified, performance work measures before it changes anything, a migration is rehearsed and verified
 * before the cut-over, infrastructure is reviewed and applied to staging first, data work is validated
 * before it is scheduled, and a spike ends in a recommendation. Nothing here adds a technology the text
 * does not name.
 */

export type Outline = {
  scope: StatedScope;
  kind: WorkKind;
  /** A short request, planned discovery-first. */
  vague: boolean;
  deliverable: Deliverable;
  tech: NamedTech;
  /** The first level of the plan: the workstreams and the cross-cutting steps. */
  children: OutlineNode[];
  /** The workstreams, which become the epics: each with the nodes it holds. */
  workstreams: { title: string; nodes: OutlineNode[] }[];
};

export type Limits = { maxDepth: number; maxSubtasks: number };

type Shape = {
  first: OutlineNode[];
  middle: OutlineNode[];
  last: OutlineNode[];
  streams: Outline["workstreams"];
  /** The workstream's name when the requirements sit directly on the first level. */
  flatTitle: string | null;
};

/** A stated requirement that sets a measurable goal ("p95 under 200 ms") rather than a change to make. */
const TARGET =
  /\b(?:under|below|less than|at most|within|no more than|faster than|target|goal|budget|<|≤)\s*~?\d[\d.,]*\s*(?:ms|milliseconds|s|sec|seconds|mins?|minutes|%|kb|mb|gb|requests?)\b/i;

/** Requirements grouped into workstreams (or kept flat when few), their leaves marked with stated order. */
function featureNodes(
  requirements: Requirement[],
  scope: StatedScope,
  /** The description's own sections are phases done in their order (a migration's, a pipeline's). */
  phased = false,
): { middle: OutlineNode[]; streams: Outline["workstreams"]; flatTitle: string | null } {
  const sequenceOf = new Map<string, string>();
  scope.sequences.forEach((seq, k) => {
    for (const id of seq) sequenceOf.set(id, `stated-${k}`);
  });
  const node = (r: Requirement) => {
    const n = requirementLeaf(r);
    const series = sequenceOf.get(r.id);
    return series ? { ...n, sequence: series, ...(r.step !== undefined ? { step: r.step } : {}) } : n;
  };
  const streams = workstreams(requirements, scope.sequences);
  if (requirements.length === 0) return { middle: [], streams: [], flatTitle: null };
  if (streams.length <= 1 || requirements.length <= 3) {
    const nodes = streams.flatMap((s) => s.items).map(node);
    const title = streams[0]?.title ?? CORE;
    return { middle: nodes, streams: [{ title, nodes }], flatTitle: title };
  }
  const middle: OutlineNode[] = [];
  const out: Outline["workstreams"] = [];
  // Grouped by the description's own sections (not by category): their order is the text's.
  const sectioned = new Set(requirements.map((r) => r.section).filter((s) => s !== null)).size >= 2;
  for (const s of streams) {
    const children = s.items.map(node);
    // A one-word section heading ("Goals") says more with the requirements it holds.
    const title = /\s/.test(s.title) ? s.title : `${s.title} (${idList(s.items)})`;
    const grouped = children.length === 1 ? children[0]! : group(title, children);
    const n = phased && sectioned ? { ...grouped, sequence: "phases" } : grouped;
    middle.push(n);
    out.push({ title, nodes: [n] });
  }
  return { middle, streams: out, flatTitle: null };
}

const one = (nodes: OutlineNode[], title: string) => (nodes.length === 1 ? nodes[0]! : group(title, nodes));

// ---- the shapes -------------------------------------------------------------------------------------

function productShape(
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
  const first: OutlineNode[] = [];
  const streams: Outline["workstreams"] = [];
  if (vague) first.push(...inSequence(discoverySteps(), "discovery"));
  const setup = [
    ...(scope.questions.length && !vague ? [openQuestions(scope.questions)] : []),
    ...(named.length === 0 && !stackName ? [chooseStack()] : []),
    ...(ciReqs.length ? ciReqs.map((r) => requirementLeaf(r)) : [repositorySetup(named, stackName)]),
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

function featureShape(brief: ProjectBrief, requirements: Requirement[], made: Deliverable): Shape {
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

function bugShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
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

function performanceShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const goals = requirements.filter((r) => TARGET.test(r.text));
  const changes = requirements.filter((r) => !goals.includes(r));
  const goalTexts = [...goals.map((r) => `${r.id}: ${r.text}`), ...scope.criteria];
  const middle = [
    measureBaseline(goalTexts),
    profileStep(),
    ...(changes.length
      ? [
          one(
            changes.map((r) => requirementLeaf(r)),
            "The stated fixes, each measured against the baseline",
          ),
        ]
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

function migrationShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
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
  ];
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

function infrastructureShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const first = [
    mapTheSystem(
      "Inventory what runs today and what changes",
      "list the environments, resources and access involved, and what the change adds or replaces.",
      scope.context,
      Boolean(brief.repositorySummary),
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

function dataShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
  const { scope } = brief;
  const stated = (re: RegExp) => requirements.some((r) => re.test(r.text));
  const first = stated(/\b(collect|ingest|extract|load|pull|sources?|export from|import)\b/i)
    ? []
    : [collectData(scope.context)];
  const f = featureNodes(requirements, scope, true);
  const checks = [
    ...(stated(
      /\b(validat\w+|evaluat\w+|holdout|back-?test|accuracy|precision|recall|auc|reconcil\w+|matches)\b/i,
    )
      ? []
      : [validateResults()]),
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

function spikeShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
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

// ---- the outline ------------------------------------------------------------------------------------

export function buildOutline(brief: ProjectBrief, limits: Limits): Outline {
  const scope = brief.scope;
  const requirements = scope.requirements;
  const kind = brief.kind.id;
  // Only what is in scope counts: a technology or a platform named among the non-goals is not planned for.
  const text = [...requirements.map((r) => r.text), ...scope.context].join("\n");
  const made = deliverable(brief, text);
  const tech = namedTechnologies(text);
  const words = brief.description.trim().split(/\s+/).length;
  const vague = kind === "product" && requirements.length <= 1 && words <= 12;

  const shape =
    kind === "bug"
      ? bugShape(brief, requirements)
      : kind === "performance"
        ? performanceShape(brief, requirements)
        : kind === "migration"
          ? migrationShape(brief, requirements)
          : kind === "infrastructure"
            ? infrastructureShape(brief, requirements)
            : kind === "data"
              ? dataShape(brief, requirements)
              : kind === "spike"
                ? spikeShape(brief, requirements)
                : kind === "feature"
                  ? featureShape(brief, requirements, made)
                  : productShape(brief, requirements, made, tech, vague);

  return {
    scope,
    kind,
    vague,
    deliverable: made,
    tech,
    workstreams: shape.streams.filter((w) => w.nodes.length > 0),
    children: fitFirstLevel(
      shape.first.map((n) => as(n, "setup")),
      shape.middle,
      shape.last.map((n) => as(n, "release")),
      limits.maxSubtasks,
      shape.flatTitle,
    ),
  };
}

/**
 * Makes every level fit `max` children: consecutive siblings are gathered under a node named after what
 * it gathers, so nothing is dropped when a split is capped at max_subtasks.
 */
function fitTree(nodes: OutlineNode[], max: number, base?: string): OutlineNode[] {
  const fitted = nodes.map((n) =>
    n.children.length ? { ...n, children: fitTree(n.children, max, n.title) } : n,
  );
  if (fitted.length <= max) return fitted;
  const size = Math.ceil(fitted.length / max);
  const chunks: OutlineNode[][] = [];
  for (let i = 0; i < fitted.length; i += size) chunks.push(fitted.slice(i, i + size));
  return fitTree(
    chunks.map((chunk, k) =>
      chunk.length === 1 ? chunk[0]! : gathered(chunk, k, chunks.length, undefined, base),
    ),
    max,
    base,
  );
}

/**
 * A gathering node; consecutive steps of one series stay one series: a part holding steps of a series
 * (and of no other) takes its place in it, at its first step, so part 2 of a stated sequence waits for part 1.
 */
function gathered(chunk: OutlineNode[], k: number, of: number, title?: string, base?: string): OutlineNode {
  const inSeries = chunk.filter((c) => c.sequence);
  const series =
    inSeries.length && inSeries.every((c) => c.sequence === inSeries[0]!.sequence)
      ? inSeries[0]!.sequence
      : undefined;
  const node = group(title ?? chunkTitle(chunk, k, of, base), chunk);
  if (!series) return node;
  const steps = inSeries.map((c) => c.step).filter((s): s is number => s !== undefined);
  return {
    ...node,
    sequence: series,
    ...(steps.length === inSeries.length ? { step: Math.min(...steps) } : {}),
  };
}

/** The first level: setup and release keep their own places while the workstreams fit in between. */
function fitFirstLevel(
  first: OutlineNode[],
  middle: OutlineNode[],
  last: OutlineNode[],
  max: number,
  coreTitle: string | null,
) {
  const slots = max - first.length - last.length;
  if (slots < 1 || middle.length <= slots) return fitTree([...first, ...middle, ...last], max);
  // As few gathering nodes as will do, each as full as a split allows.
  const groups = Math.ceil(middle.length / max);
  if (groups > slots) return fitTree([...first, ...fitTree(middle, slots), ...last], max);
  // Parts of even size, so none is left with a single child ("part 2 of 2 (R8)").
  const size = Math.ceil(middle.length / groups);
  const out: OutlineNode[] = [];
  for (let i = 0, k = 0; i < middle.length; i += size, k++) {
    const chunk = fitTree(middle.slice(i, i + size), max);
    out.push(
      groups === 1 && coreTitle
        ? gathered(chunk, k, groups, coreTitle)
        : gathered(chunk, k, groups, undefined, coreTitle ?? undefined),
    );
  }
  return fitTree([...first, ...out, ...last], max);
}

/**
 * What a gathering node holds, in words: its groups' names, or, for a run of requirements, the part it
 * is ("Core functionality, part 2 of 3 (R8-R14)") so no title repeats one of its children's.
 */
function chunkTitle(chunk: OutlineNode[], k: number, of: number, base?: string): string {
  const ids = uniqueById(chunk.flatMap((c) => c.covers));
  const groups = chunk.filter((c) => c.children.length > 0 || c.covers.length !== 1);
  if (groups.length === 0 && ids.length)
    return `${base ?? "Stated requirements"}, part ${k + 1} of ${of} (${idList(ids)})`;
  const names = chunk.map((c) => c.title);
  const joined = names.join("; ");
  return joined.length <= 120
    ? joined
    : `${base ?? "Steps"}, part ${k + 1} of ${of}${ids.length ? ` (${idList(ids)})` : ""}`;
}
