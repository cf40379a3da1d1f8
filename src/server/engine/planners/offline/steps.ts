import type { Deliverable, NamedTech } from "../../reading/signals";
import type { Requirement, StatedScope } from "../../reading/types";
import { idList, leaf, type OutlineNode, quote, titleText } from "./nodes";

/**
 * The steps the offline planner adds around the stated requirements, by kind of work (issue 28): each is
 * fixed wording with checkable criteria, and each is added only where the kind calls for it (a bug is
 * reproduced, a new product chooses its stack, a migration is rehearsed). What the text itself states
 * (its acceptance criteria, expected behaviour, constraints, questions, steps to reproduce) is carried
 * into these steps' notes, so nothing stated is lost and none of it becomes work of its own.
 */

/** Notes that quote stated lines under a heading, bounded so a long list cannot swamp a node. */
function quoted(heading: string, lines: string[], max = 12): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, max).map((l) => `- ${l.length > 300 ? `${l.slice(0, 297)}...` : l}`);
  return [
    heading,
    ...shown,
    ...(lines.length > max ? [`- ... and ${lines.length - max} more (see the description)`] : []),
  ];
}

// ---- new products -----------------------------------------------------------------------------------

export function chooseStack(): OutlineNode {
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

/**
 * The data model, when the requirements store things: the entities they name, as a schema with
 * migrations, before the features that read and write them.
 */
export function dataModel(stored: Requirement[]): OutlineNode {
  return leaf(
    "Design the data model: the schema and its migrations",
    [
      "The entities the requirements store, their fields and relations, as a schema created by migrations.",
      ...quoted(
        "Requirements that store data:",
        stored.map((r) => `${r.id}: ${r.text}`),
        8,
      ),
    ].join("\n"),
    [
      "Every entity the requirements store has a table (or collection) with its fields and relations",
      "The schema is created from an empty database by migrations in the repository",
    ],
    5,
  );
}

export function repositorySetup(named: string[], stackName: string | null): OutlineNode {
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
    5,
  );
}

export function discoverySteps(): OutlineNode[] {
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

/** The questions the text leaves open, answered before the work they affect. */
export function openQuestions(questions: string[]): OutlineNode {
  return leaf(
    "Settle the open questions with the people who asked",
    quoted("The description leaves these open:", questions).join("\n"),
    [
      "Each open question has a written answer or a decision",
      "Requirements that change because of an answer are updated",
    ],
    Math.min(6, 1 + questions.length),
  );
}

// ---- checks and release -----------------------------------------------------------------------------

export function securityReview(constraints: string[]): OutlineNode {
  return leaf(
    "Security review before release",
    [
      "Walk through who can reach what: every entry point, what it trusts, and what it stores.",
      ...quoted("Rules the description sets:", constraints),
    ].join("\n"),
    [
      "Every entry point checks who is asking and what they may do",
      constraints.length
        ? "Each rule the description sets holds (see the notes)"
        : "No secrets in the repository, logs or error messages",
      "Dependencies are checked for known vulnerabilities",
    ],
    6,
  );
}

export function acceptanceRun(
  requirements: Requirement[],
  scope: Pick<StatedScope, "criteria" | "constraints">,
): OutlineNode {
  return leaf(
    "Acceptance run of every stated requirement",
    [
      `Check each stated requirement (${idList(requirements, 600)}) on the build that will be released, and record the result.`,
      ...quoted("Acceptance criteria as stated:", scope.criteria),
      ...quoted("Constraints as stated:", scope.constraints),
    ].join("\n"),
    [
      `Each of ${idList(requirements, 300)} is checked on the release build and the result recorded`,
      ...(scope.criteria.length ? ["Every stated acceptance criterion holds (see the notes)"] : []),
      "Problems found are fixed or explicitly deferred with the team's agreement",
    ],
    Math.min(16, 2 + requirements.length),
    requirements,
  );
}

export function releaseStep(kind: Deliverable, tech: NamedTech): OutlineNode {
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
    4.5,
  );
}

// ---- changes to something that exists ----------------------------------------------------------------

/** The first step of any change: what exists, as the text describes it. */
export function mapTheSystem(
  title: string,
  what: string,
  context: string[],
  repositoryLinked: boolean,
): OutlineNode {
  return leaf(
    title,
    [
      repositoryLinked ? `Start from the linked repository: ${what}` : `Before changing anything: ${what}`,
      ...quoted("What the description says exists today:", context, 8),
    ].join("\n"),
    [
      "The affected modules, data and interfaces are listed in a short note",
      "The existing tests around them pass before any change",
    ],
    5,
  );
}

export function shipChange(): OutlineNode {
  return leaf(
    "Release the change and check the existing flows",
    "Ship the change through the usual release, then check that what worked before still works.",
    [
      "The change is released by the team's usual, repeatable procedure",
      "The main existing flows are checked after the release and nothing regressed",
    ],
    4,
  );
}

export function rolloutBehindSwitch(): OutlineNode {
  return leaf(
    "Roll out behind a switch, with a way back",
    "Ship the change so it can be turned on gradually and off again without a deploy.",
    [
      "The change can be turned off without a deploy",
      "A rollback has been rehearsed once before the rollout",
      "Existing flows are checked after the rollout",
    ],
    5.5,
  );
}

// ---- bugs -------------------------------------------------------------------------------------------

/** What a report says of the cause: "caused by", an error's name, a file, a function, a line. */
const CAUSE_CLUE =
  /\b(?:caused by|because|the cause|root cause|due to|comes from|off[- ]by[- ]one|offset|line \d+|[\w/.-]+\.(?:js|ts|tsx|jsx|py|rb|go|java|php|cs|kt|swift|rs|c|cpp|sql)\b|[A-Z]\w*(?:Error|Exception)\b|_?[a-z]+[A-Z]\w*\(?|\w+_\w+\(?)/;
/** A fix someone suggested in the report or its thread. */
const SUGGESTED_FIX =
  /^(?:an? (?:easy|simple|quick|possible|proposed|suggested) (?:fix|solution|workaround)|(?:possible |proposed |suggested )?(?:fix|solution|workaround)\s*:|simply\b|just (?:add|change|remove|set|replace)\b)/i;
/** Where a report was seen: versions, systems, browsers, settings. */
const ENVIRONMENT =
  /\b(?:version|v?\d+\.\d+(?:\.\d+)?|windows|macos|mac os|linux|ubuntu|android|ios|chrome|firefox|safari|edge|browser|locale|language|time ?zone|utc|region(?:al)?|settings?|python|node(?:\.js)?|django|rails|java)\b/i;

/** The sentences of the report that match, each once, at most `max`. */
function said(scope: StatedScope, re: RegExp, max = 4): string[] {
  const out: string[] = [];
  for (const line of [...scope.observed, ...scope.context, ...scope.reproduction])
    if (re.test(line) && !out.includes(line) && out.length < max) out.push(line);
  return out;
}

/** A leaf's description under its title: what the report says that bears on this step. */
function bodyOf(heading: string, lines: string[]): string | undefined {
  if (lines.length === 0) return undefined;
  const text = `${heading} ${lines.map((l) => (l.length > 200 ? `${l.slice(0, 197)}...` : l)).join(" / ")}`;
  return text.length > 900 ? `${text.slice(0, 897)}...` : text;
}

export function bugSteps(
  bug: string,
  scope: StatedScope,
): { before: OutlineNode[]; after: OutlineNode[]; test: OutlineNode } {
  const steps = quoted("Steps to reproduce, as reported:", scope.reproduction);
  const observed = quoted("What was observed:", scope.observed, 8);
  const expected = quoted("What should happen instead:", scope.criteria);
  const environment = said(scope, ENVIRONMENT).filter((l) => !CAUSE_CLUE.test(l) || l.length < 80);
  // An error's name and what the report says caused it come before code names seen in passing.
  const strong =
    /\b(?:[A-Z]\w*(?:Error|Exception)|traceback|caused by|because|the cause|root cause|due to)\b/;
  const clueLines = said(scope, CAUSE_CLUE, 40).filter((l) => !SUGGESTED_FIX.test(l));
  const clues = [
    ...clueLines.filter((l) => strong.test(l)),
    ...clueLines.filter((l) => !strong.test(l)),
  ].slice(0, 4);
  return {
    before: [
      withBody(
        leaf(
          `Reproduce: ${bug}`,
          [`The report: "${bug}"`, ...steps, ...observed].join("\n"),
          [
            "The failure is reproduced on a current build, with the steps written down",
            "The version, environment and data it needs are recorded",
          ],
          3,
        ),
        bodyOf("Where it was seen:", environment),
      ),
    ],
    test: leaf(
      "Write a failing regression test that shows the bug",
      ["An automated test that fails the way the report describes, before any fix.", ...expected].join("\n"),
      ["The test fails on the current code for the reported reason", "It runs in continuous integration"],
      3,
    ),
    after: [
      withBody(
        leaf(
          "Find the cause",
          [
            "Trace the failure from the test to its cause, and check where else the same cause can strike.",
            ...observed,
          ].join("\n"),
          [
            "The cause is written down, with the code it lives in",
            "Other places with the same cause are listed",
          ],
          4,
        ),
        bodyOf(`Of "${bug}". Clues in the report:`, clues),
      ),
    ],
  };
}

const withBody = (node: OutlineNode, body: string | undefined): OutlineNode =>
  body ? { ...node, body } : node;

/** Fixes suggested in the report, as a note on the fix (to weigh, not to apply blindly). */
export function suggestedFixes(scope: StatedScope): string | undefined {
  const lines = said(scope, /\S/, 40).filter((l) => SUGGESTED_FIX.test(l));
  return bodyOf("Suggested in the report (check it against the cause found):", lines.slice(0, 3));
}

export function bugFix(scope: StatedScope, covers: Requirement[] = []): OutlineNode {
  const fixes = suggestedFixes(scope);
  const node = leaf(
    "Fix the cause",
    ["Fix the cause found, not the symptom.", ...quoted("What should happen instead:", scope.criteria)].join(
      "\n",
    ),
    [
      "The failing test passes, and the rest of the suite still does",
      scope.criteria.length
        ? "What should happen, as stated, happens (see the notes)"
        : "The reported steps no longer fail",
    ],
    6,
    covers,
  );
  const stated = covers.map((r) => r.text).join(" / ");
  return withBody(node, [stated && `The report: "${stated}".`, fixes].filter(Boolean).join(" ") || undefined);
}

export function bugClose(scope: StatedScope): OutlineNode[] {
  return [
    leaf(
      "Verify the fix where it was reported",
      [
        "Follow the reported steps again on the fixed build, in the reported environment.",
        ...quoted("What should happen:", scope.criteria),
      ].join("\n"),
      ["The reported steps no longer fail", "Nothing around the fix regressed"],
      2,
    ),
    leaf(
      "Release the fix with a note",
      "Release it through the usual procedure and say what was fixed, for whom, and from which version.",
      ["The fix is in a released version", "The release note names the bug and the version that fixes it"],
      2,
    ),
  ];
}

// ---- performance ------------------------------------------------------------------------------------

export function measureBaseline(goals: string[]): OutlineNode {
  return leaf(
    "Measure the current baseline",
    [
      "Pick the scenario users feel, and measure it the same way every time.",
      ...quoted("Goals as stated:", goals),
    ].join("\n"),
    [
      "The scenario, the metric and today's numbers (median and 95th percentile) are written down",
      "Anyone on the team can re-run the measurement with one command",
    ],
    5,
  );
}

export function profileStep(): OutlineNode {
  return leaf(
    "Profile where the time goes",
    "Trace the measured scenario end to end: client, network, server, storage, third parties.",
    ["A breakdown shows which parts take how much of the time", "The profile is kept with the baseline"],
    8,
  );
}

export function hypothesisSteps(): OutlineNode[] {
  return [
    leaf(
      "Rank hypotheses by expected gain and cost",
      "For each slow part, what would make it faster, how much it could save, and what it costs.",
      [
        "Each hypothesis names the part, the expected saving and the cost",
        "The team agrees which to try first",
      ],
      3,
    ),
    leaf(
      "Fix the top hypotheses one change at a time",
      "Change one thing, measure again, keep it only if it helps.",
      [
        "Each change is measured against the baseline before the next one",
        "Changes that did not help are reverted",
      ],
      16,
    ),
  ];
}

export function verifyPerformance(goals: string[], covers: Requirement[]): OutlineNode {
  return leaf(
    "Verify against the baseline and guard against regressions",
    [
      "Compare with the baseline, and keep a check that fails if it gets slow again.",
      ...quoted("Goals as stated:", goals),
    ].join("\n"),
    [
      goals.length
        ? "Each stated goal is met, measured the same way as the baseline"
        : "The final numbers are compared with the baseline and shared",
      "An automated check fails when the scenario slows down again",
    ],
    4.5,
    covers,
  );
}

// ---- migrations and upgrades ------------------------------------------------------------------------

export function rehearsal(): OutlineNode {
  return leaf(
    "Rehearse the migration on a copy",
    "Run the whole migration on a copy of production, timed, and fix what breaks before the real one.",
    [
      "The rehearsal ran end to end on a copy, and its duration is written down",
      "Every problem it found is fixed or has a workaround",
    ],
    8,
  );
}

export function verifyData(): OutlineNode {
  return leaf(
    "Verify the migrated data",
    "Compare old and new with a script that can be run again: counts, checksums, and a sample read by a person.",
    [
      "Row counts and checksums match between the old and the new system",
      "A sample of records was read back and checked by hand",
    ],
    5,
  );
}

export function cutOver(): OutlineNode {
  return leaf(
    "Cut over, with a way back",
    "Back up the old system's data first, switch to the new system at a planned time, watch it, and keep the old one ready to roll back to until sign-off.",
    [
      "The cut-over follows a written runbook with a point to stop and go back",
      "Going back to the old system stays possible until sign-off",
    ],
    4,
  );
}

export function decommission(): OutlineNode {
  return leaf(
    "Retire the old system after sign-off",
    "Once the new system has run cleanly for the agreed time, turn the old one off and remove what pointed at it.",
    [
      "The old system is off, with its data archived as agreed",
      "Nothing points at it any more (configuration, jobs, documentation)",
    ],
    3,
  );
}

export function verifyUpgrade(criteria: string[]): OutlineNode {
  return leaf(
    "Run the full test suite and compare behaviour",
    [
      "Every test passes on the new version, and the main flows behave as before.",
      ...quoted("Done when, as stated:", criteria),
    ].join("\n"),
    [
      "The whole test suite passes on the new version without new warnings",
      "The main flows were checked by hand against the old version",
    ],
    4,
  );
}

export function deployUpgrade(): OutlineNode {
  return leaf(
    "Deploy the upgraded version",
    "Release through the usual procedure, watch errors and performance, and keep the previous build ready to roll back to.",
    [
      "The upgraded version runs in production",
      "Errors and response times after the deploy are no worse than before",
    ],
    3,
  );
}

// ---- infrastructure ---------------------------------------------------------------------------------

export function infrastructureRelease(): OutlineNode[] {
  return [
    leaf(
      "Review the plan before applying it",
      "Produce the change as a plan or dry run (what will be created, changed and destroyed) and have a second person review it. Credentials live in the secret store, never in the code; every artefact is tagged with the commit it was built from.",
      [
        "The plan lists every resource it creates, changes or destroys",
        "A second person reviewed and approved it",
      ],
      3,
    ),
    leaf(
      "Apply to staging and check it",
      "Apply the reviewed change to staging first and check that everything on it still works.",
      [
        "The change is applied to staging from the reviewed plan",
        "Health checks and alerts on staging are green afterwards",
      ],
      4,
    ),
    leaf(
      "Apply to production, with a rollback path",
      "Apply the same change to production at a planned time, knowing how to undo it.",
      [
        "The change is applied to production from a reviewed plan",
        "How to roll it back is written down and was tried on staging",
      ],
      4,
    ),
    leaf(
      "Write the runbook",
      "What it is, how to operate it, what its alerts mean and what to do about each.",
      [
        "The runbook covers normal operation and every alert",
        "Someone other than its author followed it once",
      ],
      3,
    ),
  ];
}

// ---- data and machine learning ----------------------------------------------------------------------

export function collectData(context: string[]): OutlineNode {
  const sources = context.filter((c) =>
    /\b(?:data|rows|records|events|tables?|logs?|history|years? of|months? of|dataset|csv|exports?|database|postgres\w*|mysql|warehouse|bigquery|snowflake|s3|api|sensors?|readings|tickets|orders|transactions)\b/i.test(
      c,
    ),
  );
  return leaf(
    "Collect the data and check its quality",
    [
      "Find the sources, pull a first extract, and look at it: volume, gaps, duplicates, and how far back it goes.",
      ...quoted("What the description says of the data:", sources, 8),
    ].join("\n"),
    [
      "Each source, its owner and how it is read are written down",
      "A first extract was checked for gaps, duplicates and odd values",
    ],
    7,
  );
}

/** An existing pipeline changed (DAGs, jobs, schedules): what runs, what it feeds, and when. */
export function mapPipeline(context: string[]): OutlineNode {
  const seen = context.filter((c) =>
    /\b(?:dags?|jobs?|runs?|schedules?|pipelines?|warehouse|transforms?|refresh\w*|downstream|upstream|costs?)\b/i.test(
      c,
    ),
  );
  return leaf(
    "Map the pipeline: its jobs, their dependencies and schedules",
    [
      "List the jobs (DAGs, models, tasks) the change touches, what runs upstream and downstream of each, and when each runs today.",
      ...quoted("What the description says of it:", seen, 8),
    ].join("\n"),
    [
      "Each job the change touches, its upstream and downstream dependencies and its schedule are written down",
      "The people who read its outputs are known",
    ],
    5,
  );
}

/** Outputs of a changed pipeline checked against what it produced before. */
export function compareOutputs(): OutlineNode {
  return leaf(
    "Compare the new outputs with the current ones",
    "Run the changed pipeline beside the current one (or on a copy) and compare row counts, totals and freshness of what it produces.",
    [
      "Row counts and totals match the current outputs, or every difference is explained",
      "Downstream readers see their data as fresh as they need it",
    ],
    5,
  );
}

/** A change made to save money: the saving is measured, not assumed. */
export function measureCost(context: string[]): OutlineNode {
  return leaf(
    "Measure the cost before and after the change",
    [
      "Record what it costs now, then again once the change has run for a while, from the provider's billing.",
      ...quoted("What the description says of the cost:", context, 4),
    ].join("\n"),
    ["The cost before and after is recorded from billing, and the saving stated"],
    3,
  );
}

export function validateResults(): OutlineNode {
  return leaf(
    "Evaluate the results on held-out data against a baseline",
    "Check the output on data it has not seen (accuracy or the measure that matters), against a simple baseline, the current version, or the numbers people trust today.",
    [
      "The results are measured on held-back data and compared with a baseline",
      "The people who will use them agree the numbers make sense",
    ],
    5,
  );
}

export function scheduleAndMonitor(): OutlineNode {
  return leaf(
    "Run it on a schedule and watch it",
    "Put it where it runs without anyone starting it, alert when its inputs or outputs drift, and keep the previous version (or model) to roll back to.",
    [
      "It runs on its own, on a schedule or on new data",
      "An alert fires when a run fails or its numbers drift",
    ],
    4.5,
  );
}

// ---- research spikes --------------------------------------------------------------------------------

export function spikeStart(questions: string[], context: string[]): OutlineNode {
  return leaf(
    "Write down the questions and the time box",
    [
      "Agree what must be answered, how each answer will be judged, and how long to spend.",
      ...quoted("Questions as stated:", questions),
      ...quoted("What the description says of the situation:", context, 6),
    ].join("\n"),
    ["Each question has a way to judge its answer", "The time box is agreed"],
    2,
  );
}

/** A question of a spike as a piece of investigation (its title drops the question mark). */
export function investigate(question: string): OutlineNode {
  const body = question.replace(/\?+\s*$/, "").trim();
  return leaf(
    `Find out: ${titleText(`${body.charAt(0).toLowerCase()}${body.slice(1)}`, 110).replace(/^./, (c) => c.toLowerCase())}`,
    `The question as stated: "${question}"`,
    ["The answer is written down with the evidence behind it", "Someone else can repeat how it was found"],
    4,
  );
}

export function prototype(): OutlineNode {
  return leaf(
    "Prototype the most promising option",
    "Build the smallest thing that shows whether the option works for our case; it is thrown away afterwards.",
    ["The prototype answers the question it was built for", "What it did not show is written down"],
    8,
  );
}

export function recommendation(covers: Requirement[]): OutlineNode {
  return leaf(
    "Write up the findings and a recommendation",
    [
      "A short document: what was asked, what was found, what we recommend and what it will cost.",
      ...(covers.length ? [`It answers ${covers.map(quote).join("; ")}.`] : []),
    ].join("\n"),
    [
      "The recommendation is written down with the evidence",
      "The people who decide have read it and decided",
    ],
    3,
  );
}
