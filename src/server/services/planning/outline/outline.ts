import type { ProjectBrief } from "../planner";
import type { Requirement, StatedScope } from "../requirements";
import { estimateRequirement } from "./estimate";
import {
  allNamed,
  type Deliverable,
  deliverable,
  domainChecksFor,
  isMigration,
  type NamedTech,
  namedTechnologies,
  needsSecurityReview,
  type WorkKind,
  workKind,
} from "./signals";

/**
 * The offline planner's whole plan, built at once from the brief (decision 014). Each stated requirement
 * is one node that quotes it; requirements are grouped into workstreams (the description's own sections
 * when it has them, otherwise a few plain categories); cross-cutting work appears once, where the kind of
 * work calls for it. Nothing here adds a technology the text does not name, and no title is assembled from
 * fragments of the user's sentences: a title is either fixed wording or a whole requirement.
 */
export type OutlineNode = {
  title: string;
  details: string;
  criteria: string[];
  requirementIds: string[];
  /** Developer-hours by rule, subtasks included. */
  hours: number;
  children: OutlineNode[];
  /** Every requirement this node covers, in full, so a node that is not split further still quotes them. */
  covers: Requirement[];
  /** Its place in the order among its siblings (outline/order.ts); none for a feature. */
  role?: OutlineRole;
  /** One of a series of steps done in turn (discovery, measuring before fixing, a cut-over before the switch). */
  sequence?: boolean;
};

/** setup comes first, release last; within a release, checks ("verify") come before shipping ("ship"). */
export type OutlineRole = "setup" | "release" | "verify" | "ship";

const as = <T extends OutlineNode>(node: T, role: OutlineRole): T => ({ ...node, role });
const inSequence = (nodes: OutlineNode[]) => nodes.map((n) => ({ ...n, sequence: true }));

export type Outline = {
  scope: StatedScope;
  kind: WorkKind;
  deliverable: Deliverable;
  tech: NamedTech;
  /** The first level of the plan: the workstreams and the cross-cutting steps. */
  children: OutlineNode[];
  /** The workstreams, which become the epics: each with the nodes it holds. */
  workstreams: { title: string; nodes: OutlineNode[] }[];
};

export type Limits = { maxDepth: number; maxSubtasks: number };

const TITLE_CHARS = 140;
const WISH_START =
  /^(?:so |and |also |basically |ideally )?(?:i|we)(?: also| really| just)?(?: would|'d|’d)? (?:want|need|like|wish)(?:s)?(?: to have| to)?\s+/i;
const WISH_INSIDE =
  /[\s,;(]+(?:and |but |so |also )*(?:i|we)(?: also| really| just)?(?: would|'d|’d)? (?:want|need|like|wish)\b/i;
const DANGLING = /\s+(a|an|the|and|or|but|to|of|for|in|on|with|by|at|from|as|into|that|which|so)$/i;

/** A requirement as a title: the user's words, first letter capitalised, cut at a word if very long. */
export function titleText(text: string): string {
  // "We want to build X" reads as "Build X", "we need an EDC system" as "An EDC system": the subject
  // and the wish are dropped, the user's words kept. A wish later in the sentence ends the title there.
  let t = text.replace(/\s+/g, " ").trim().replace(WISH_START, "");
  const wish = t.search(WISH_INSIDE);
  if (wish > 15) t = `${t.slice(0, wish).replace(/[\s,;:-]+$/, "")}…`;
  if (t.length > TITLE_CHARS) {
    t = t.slice(0, TITLE_CHARS).replace(/\s+\S*$/, "");
    // An opening bracket or quote whose closing one was cut off goes, with what follows it.
    for (const [open, close] of [
      ["(", ")"],
      ["[", "]"],
      ['"', '"'],
    ] as const) {
      const opens = t.split(open).length - 1;
      const closes = open === close ? 0 : t.split(close).length - 1;
      if (open === close ? opens % 2 === 1 : opens > closes) t = t.slice(0, t.lastIndexOf(open));
    }
    t = t.replace(/[\s,;:.-]+$/, "");
    while (DANGLING.test(t)) t = t.replace(DANGLING, "");
    t = `${t}…`;
  }
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const quote = (r: Requirement) => `${r.id}: "${r.text}"`;

function leaf(
  title: string,
  details: string,
  criteria: string[],
  hours: number,
  covers: Requirement[] = [],
): OutlineNode {
  return { title, details, criteria, requirementIds: covers.map((r) => r.id), hours, children: [], covers };
}

const INPUT =
  /\b(create|add|edit|enter|submit|upload|import|forms?|sign[- ]?up|register|book|invite|post|write|update|fill)\b/i;

function requirementLeaf(r: Requirement, title = `${r.id}: ${titleText(r.text)}`): OutlineNode {
  const estimate = estimateRequirement(r.text);
  const checks = domainChecksFor(r.text);
  const details = [
    `${r.id} as stated: "${r.text}"`,
    ...(r.statedIn
      ? [`Part of: "${r.statedIn.length > 400 ? `${r.statedIn.slice(0, 397)}...` : r.statedIn}"`]
      : []),
    `Estimated by rule: about ${estimate.hours} h (${estimate.why.join(", ")}). Adjust it when the team knows more.`,
    ...checks.map((c) => `Suggested checks (${c.name}): ${c.checks.join("; ")}.`),
  ].join("\n");
  const criteria = [
    `Shown working as ${r.id} states: "${r.text.length > 300 ? `${r.text.slice(0, 297)}...` : r.text}"`,
    "An automated test covers it and fails without it",
  ];
  if (INPUT.test(r.text))
    criteria.push("Invalid or missing input is refused with a clear message and changes nothing");
  if (checks[0]) criteria.push(`${checks[0].name}: ${checks[0].checks[0]}`);
  return leaf(title, details, criteria, estimate.hours, [r]);
}

/** A node grouping others: its notes quote every requirement below it, so nothing is lost if it stays a leaf. */
function group(title: string, children: OutlineNode[], intro?: string): OutlineNode {
  const covers = uniqueById(children.flatMap((c) => c.covers));
  const lines = [intro ?? (covers.length ? `Covers ${idList(covers)}.` : "Cross-cutting work.")];
  let budget = 3500 - lines[0]!.length;
  const listed = [
    ...covers.map(quote),
    ...children.filter((c) => c.covers.length === 0).map((c) => `Also: ${c.title}`),
  ];
  for (const [i, line] of listed.entries()) {
    if (line.length + 3 > budget) {
      lines.push(`... and ${listed.length - i} more (see the description).`);
      break;
    }
    lines.push(`- ${line}`);
    budget -= line.length + 3;
  }
  return {
    title,
    details: lines.join("\n"),
    criteria: [
      "Every subtask below meets its acceptance criteria",
      covers.length
        ? `${idList(covers)} shown working together on one build`
        : "Reviewed by a second person on the team",
    ],
    requirementIds: covers.map((r) => r.id),
    hours: children.reduce((sum, c) => sum + c.hours, 0),
    children,
    covers,
  };
}

function uniqueById(list: Requirement[]): Requirement[] {
  const byId = new Map<string, Requirement>();
  for (const r of list) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}

/** "R1-R3, R5": ids in order, runs collapsed. */
export function idList(list: Requirement[]): string {
  const nums = list.map((r) => Number(r.id.slice(1))).sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < nums.length; i++) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    runs.push(
      j > i + 1 ? `R${nums[i]}-R${nums[j]}` : j === i + 1 ? `R${nums[i]}, R${nums[j]}` : `R${nums[i]}`,
    );
    i = j;
  }
  return runs.join(", ");
}

// ---- workstreams ----------------------------------------------------------------------------------

/** Plain categories, checked in order, for descriptions without their own sections. */
const CATEGORIES: { title: string; re: RegExp }[] = [
  {
    title: "Sign-in, accounts and permissions",
    re: /\b(sign[- ]?(in|up|on|out)|log[- ]?(in|out)|login|auth\w*|accounts?|passwords?|sso|saml|oauth|oidc|2fa|mfa|roles?|permissions?|invit\w*)\b/i,
  },
  {
    title: "Payments and billing",
    re: /\b(payments?|pay|billing|invoic\w*|subscriptions?|checkout|refunds?|stripe|paypal|pricing)\b/i,
  },
  {
    title: "Compliance and audit",
    re: /\b(audit\w*|complian\w*|hipaa|gdpr|cfr|part 11|e-?signatures?|retention|regulat\w*)\b/i,
  },
  { title: "Notifications and messages", re: /\b(e-?mails?|notif\w*|push|sms|remind\w*|alerts?|digest)\b/i },
  { title: "Integrations and APIs", re: /\b(api|apis|webhooks?|integrat\w*|third[- ]party|slack|zapier)\b/i },
  {
    title: "Data import, export and storage",
    re: /\b(import\w*|export\w*|csv|backups?|stor(e|age)|sync\w*|migrat\w*)\b/i,
  },
  {
    title: "Reports and dashboards",
    re: /\b(reports?|dashboards?|analytics|charts?|statistics|stats|metrics|insights)\b/i,
  },
];
const CORE = "Core functionality";

/** Requirements about cross-cutting work take the place of the generic step for it. */
const DEPLOY_REQ =
  /^(?:(?:it |we )?(?:must|should|needs? to|will)?\s*(?:be )?)?(deploy\w*|host(ed|ing)?|release\w*|publish\w*|ship\w*|runs? on|available on)\b/i;
const CI_REQ =
  /^(?:(?:it |we )?(?:must|should|needs? to|will)?\s*(?:have |use |set up |add )?)?(ci|continuous integration|github actions|gitlab ci|automated tests?|tests? run)\b/i;

function workstreams(requirements: Requirement[]): { title: string; items: Requirement[] }[] {
  const sections = [...new Set(requirements.map((r) => r.section))];
  const bySection =
    sections.filter((s) => s !== null).length >= 2 ||
    (sections.length === 1 && sections[0] !== null && requirements.length > 3);
  const groups = new Map<string, Requirement[]>();
  for (const r of requirements) {
    const key = bySection
      ? (r.section ?? "Overview")
      : (CATEGORIES.find((c) => c.re.test(r.text))?.title ?? CORE);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  if (!bySection) {
    // A category earns a workstream with two requirements or more; a lone match is more likely a
    // coincidence of words ("IAM roles" is not sign-in) and stays with the rest.
    for (const [title, items] of [...groups]) {
      if (title !== CORE && items.length < 2) {
        groups.delete(title);
        groups.set(CORE, [...(groups.get(CORE) ?? []), ...items]);
      }
    }
    const core = groups.get(CORE);
    if (core) core.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  }
  const order = bySection ? [...groups.keys()] : [...CATEGORIES.map((c) => c.title), CORE];
  return order.filter((k) => groups.has(k)).map((title) => ({ title, items: groups.get(title)! }));
}

// ---- cross-cutting steps --------------------------------------------------------------------------

function chooseStack(): OutlineNode {
  return leaf(
    "Choose the stack and record the decision",
    "The description names no technologies, so none is assumed here. Choose the language, framework, storage and hosting that fit the team, and write the choice down with its reasons.",
    [
      "A short decision record names the language, framework, storage and hosting, with the reasons",
      "The team has reviewed and accepted it",
    ],
    4,
  );
}

function repositorySetup(named: string[], stackName: string | null): OutlineNode {
  const uses = stackName
    ? `Use the chosen stack (${stackName}).`
    : named.length
      ? `Use what the description names: ${named.join(", ")}.`
      : "Use the stack chosen in the previous step.";
  return leaf(
    "Set up the repository, build and continuous integration",
    `${uses} One command builds the project and runs its tests; continuous integration runs the same on every push.`,
    [
      "A fresh clone builds and runs its tests with one documented command",
      "Continuous integration runs the build and the tests on every push and reports failures",
    ],
    6,
  );
}

function securityReview(): OutlineNode {
  return leaf(
    "Security review before release",
    "Walk through who can reach what: every entry point, what it trusts, and what it stores.",
    [
      "Every entry point checks who is asking and what they may do",
      "No secrets in the repository, logs or error messages",
      "Dependencies are checked for known vulnerabilities",
    ],
    6,
  );
}

function acceptanceRun(requirements: Requirement[]): OutlineNode {
  return leaf(
    "Acceptance run of every stated requirement",
    `Check each stated requirement (${idList(requirements)}) on the build that will be released, and record the result.`,
    [
      `Each of ${idList(requirements)} is checked on the release build and the result recorded`,
      "Problems found are fixed or explicitly deferred with the team's agreement",
    ],
    Math.min(16, 2 + requirements.length),
    requirements,
  );
}

function releaseStep(kind: Deliverable, tech: NamedTech): OutlineNode {
  const where = tech.deployment.filter(
    (d) => !/^(Docker|Terraform|Pulumi|Ansible|CloudFormation|GitHub Actions|GitLab CI)$/.test(d),
  );
  const titles: Record<Deliverable, string> = {
    service: where.length ? `Deploy to ${where.join(" and ")}` : "Deploy the first release",
    library: "Publish the first release with its documentation",
    cli: "Publish release builds with install instructions",
    extension: "Publish to the browser's extension store",
    mobile: "Submit the app for store review",
    infrastructure: "Apply to production from a reviewed plan",
    other: "Release the first version",
  };
  return leaf(
    titles[kind],
    "Release what the plan built, in a way the team can repeat and undo.",
    [
      "The release is made from a tagged version by a documented, repeatable procedure",
      "Someone other than its author has installed or opened the released version and checked it starts",
    ],
    6,
  );
}

function rollout(migration: boolean): OutlineNode[] {
  const steps = [
    leaf(
      "Roll out behind a switch, with a way back",
      "Ship the change so it can be turned on gradually and off again without a deploy.",
      [
        "The change can be turned off without a deploy",
        "A rollback has been rehearsed once before the rollout",
        "Existing flows are checked after the rollout",
      ],
      6,
    ),
  ];
  if (migration) {
    steps.unshift(
      leaf(
        "Cut over and verify the migrated data",
        "Move the data with a script that can be run again, compare old and new, and keep the old system until sign-off.",
        [
          "Row counts and checksums match between the old and the new system",
          "Going back to the old system stays possible until sign-off",
        ],
        12,
      ),
    );
  }
  return steps;
}

const performanceSteps = (goals: Requirement[]): OutlineNode[] => {
  const goal = `Goal as stated: ${goals.map(quote).join("; ")}.`;
  const step = (title: string, details: string, criteria: string[], hours: number) =>
    leaf(title, `${goal}\n${details}`, criteria, hours, goals);
  return [
    step(
      "Measure the current baseline",
      "Pick the scenario users feel, and measure it the same way every time.",
      [
        "The scenario, the metric and today's numbers (median and 95th percentile) are written down",
        "Anyone on the team can re-run the measurement with one command",
      ],
      6,
    ),
    step(
      "Profile where the time goes",
      "Trace the measured scenario end to end: client, network, server, storage, third parties.",
      ["A breakdown shows which parts take how much of the time", "The profile is kept with the baseline"],
      8,
    ),
    step(
      "Rank hypotheses by expected gain and cost",
      "For each slow part, what would make it faster, how much it could save, and what it costs.",
      [
        "Each hypothesis names the part, the expected saving and the cost",
        "The team agrees which to try first",
      ],
      3,
    ),
    step(
      "Fix the top hypotheses one change at a time",
      "Change one thing, measure again, keep it only if it helps.",
      [
        "Each change is measured against the baseline before the next one",
        "Changes that did not help are reverted",
      ],
      16,
    ),
    step(
      "Verify against the baseline and guard against regressions",
      "Compare with the baseline, and keep a check that fails if it gets slow again.",
      [
        "The final numbers are compared with the baseline and shared",
        "An automated check fails when the scenario slows down again",
      ],
      6,
    ),
  ];
};

function discoverySteps(): OutlineNode[] {
  return [
    leaf(
      "Clarify who the users are and what they need",
      "The description is short: talk to the people who asked for it before building.",
      ["The main users and their top three needs are written down", "The person who asked agrees with them"],
      4,
    ),
    leaf(
      "Write down the first release's requirements and non-goals",
      "Turn what was learned into a short list of requirements, and what is explicitly left out.",
      [
        "A list of requirements and non-goals exists and is agreed",
        "Each requirement can be checked by a test or a demo",
      ],
      4,
    ),
  ];
}

// ---- the outline ----------------------------------------------------------------------------------

export function buildOutline(brief: ProjectBrief, limits: Limits): Outline {
  const scope = brief.scope;
  const requirements = scope.requirements;
  // Only what is in scope counts: a technology or a platform named among the non-goals is not planned for.
  const text = [...requirements.map((r) => r.text), ...scope.context].join("\n");
  const kind = workKind(brief, text, requirements.length);
  const made = deliverable(brief, text);
  const tech = namedTechnologies(text);
  const named = allNamed(tech);
  const stackName = brief.stack?.name ?? null;

  const deployReqs = requirements.filter((r) => DEPLOY_REQ.test(r.text) && !CI_REQ.test(r.text));
  const ciReqs = requirements.filter((r) => CI_REQ.test(r.text));
  const special = new Set([...deployReqs, ...ciReqs]);
  const feature = requirements.filter((r) => !special.has(r));

  const streamsOut: Outline["workstreams"] = [];
  /** The workstream's name when the requirements sit directly on the first level. */
  let flatTitle: string | null = null;
  const first: OutlineNode[] = [];
  const middle: OutlineNode[] = [];
  const last: OutlineNode[] = [];

  if (kind === "performance") {
    middle.push(...inSequence(performanceSteps(requirements)));
    streamsOut.push({ title: "Performance, measured first", nodes: middle });
  } else {
    if (kind === "vague") first.push(...inSequence(discoverySteps()));
    if (kind === "change") {
      first.push(
        leaf(
          isMigration(brief)
            ? "Inventory what the migration moves: data, queries and features"
            : "Map the code and data the change touches",
          brief.repositorySummary
            ? "Start from the linked repository: find the modules, tables and endpoints involved."
            : "Find the modules, tables and endpoints involved before changing them.",
          [
            "The affected modules, tables and endpoints are listed in a short note",
            "The existing tests around them pass before any change",
          ],
          6,
        ),
      );
    } else {
      const setup = [
        ...(named.length === 0 && !stackName ? [chooseStack()] : []),
        ...(ciReqs.length ? ciReqs.map((r) => requirementLeaf(r)) : [repositorySetup(named, stackName)]),
      ];
      first.push(setup.length === 1 ? setup[0]! : group("Project setup", inSequence(setup)));
    }
    streamsOut.push({
      title:
        kind === "vague"
          ? "Discovery and setup"
          : kind === "change"
            ? "Understanding the current system"
            : "Project setup",
      nodes: [...first],
    });
    if (kind === "change") middle.push(...ciReqs.map((r) => requirementLeaf(r)));
    const streams = workstreams(feature);
    if (kind === "vague" && feature.length === 1) {
      middle.push(requirementLeaf(feature[0]!, `First release: ${feature[0]!.text}`));
      streamsOut.push({ title: "First release", nodes: [...middle] });
    } else if (streams.length <= 1 || feature.length <= 3) {
      const nodes = feature.map((r) => requirementLeaf(r));
      middle.push(...nodes);
      flatTitle = streams[0]?.title ?? CORE;
      streamsOut.push({ title: streams[0]?.title ?? CORE, nodes });
    } else {
      for (const s of streams) {
        // A one-word section heading ("Goals") says more with the requirements it holds.
        const title = /\s/.test(s.title) ? s.title : `${s.title} (${idList(s.items)})`;
        const node = group(
          title,
          s.items.map((r) => requirementLeaf(r)),
        );
        middle.push(node);
        streamsOut.push({ title, nodes: [node] });
      }
    }
    const release = [
      ...(needsSecurityReview(text, made) ? [as(securityReview(), "verify")] : []),
      ...(requirements.length > 1 ? [as(acceptanceRun(requirements), "verify")] : []),
      ...(kind === "change" ? inSequence(rollout(isMigration(brief))).map((n) => as(n, "ship")) : []),
      ...(deployReqs.length
        ? deployReqs.map((r) => as(requirementLeaf(r), "ship"))
        : kind === "change"
          ? []
          : [as(releaseStep(made, tech), "ship")]),
    ];
    const releaseTitle = kind === "change" ? "Roll out the change" : "Quality and release";
    last.push(release.length === 1 ? release[0]! : group(releaseTitle, release));
    streamsOut.push({ title: releaseTitle, nodes: [...last] });
  }

  return {
    scope,
    kind,
    deliverable: made,
    tech,
    workstreams: streamsOut.filter((w) => w.nodes.length > 0),
    children: fitFirstLevel(
      first.map((n) => as(n, "setup")),
      middle,
      last.map((n) => as(n, "release")),
      limits.maxSubtasks,
      flatTitle,
    ),
  };
}

/**
 * Makes every level fit `max` children: consecutive siblings are gathered under a node named after what
 * it gathers, so nothing is dropped when a split is capped at max_subtasks.
 */
function fitTree(nodes: OutlineNode[], max: number): OutlineNode[] {
  const fitted = nodes.map((n) => (n.children.length ? { ...n, children: fitTree(n.children, max) } : n));
  if (fitted.length <= max) return fitted;
  const size = Math.ceil(fitted.length / max);
  const chunks: OutlineNode[][] = [];
  for (let i = 0; i < fitted.length; i += size) chunks.push(fitted.slice(i, i + size));
  return fitTree(
    chunks.map((chunk) => (chunk.length === 1 ? chunk[0]! : group(chunkTitle(chunk), chunk))),
    max,
  );
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
  const gathered: OutlineNode[] = [];
  for (let i = 0; i < middle.length; i += max) {
    const chunk = fitTree(middle.slice(i, i + max), max);
    gathered.push(groups === 1 && coreTitle ? group(coreTitle, chunk) : group(chunkTitle(chunk), chunk));
  }
  return fitTree([...first, ...gathered, ...last], max);
}

function chunkTitle(chunk: OutlineNode[]): string {
  const ids = uniqueById(chunk.flatMap((c) => c.covers));
  const groups = chunk.filter((c) => c.children.length > 0 || c.covers.length !== 1);
  if (groups.length === 0 && ids.length) return `Requirements ${idList(ids)}`;
  const names = chunk.map((c) => c.title);
  const joined = names.join("; ");
  return joined.length <= 120 ? joined : `${names[0]} and ${names.length - 1} more`;
}
