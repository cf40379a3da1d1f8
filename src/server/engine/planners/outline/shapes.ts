import { titleReportsFault } from "../../reading/kind";
import type { Requirement, StatedScope } from "../../reading/requirements";
import {
  allNamed,
  type Deliverable,
  isDataMigration,
  type NamedTech,
  needsSecurityReview,
} from "../../reading/signals";
import type { ProjectBrief } from "../contract";
import { as, group, idList, inSequence, type OutlineNode, requirementLeaf } from "./nodes";
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
  const first: OutlineNode[] = [];
  const streams: Workstream[] = [];
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

export function migrationShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
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

export function infrastructureShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
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

export function dataShape(brief: ProjectBrief, requirements: Requirement[]): Shape {
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
