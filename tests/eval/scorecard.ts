/** The readable scorecard of an evaluation, and a plan's tree for `--case`. */
import type { PlanRecord } from "./driver";
import type { Evaluation } from "./harness";
import type { GateRule, PlanScore } from "./metrics";

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(0)}%`);
const pad = (s: string | number, n: number) => String(s).padStart(n);

const COLUMNS = [
  ["case", 30],
  ["nodes", 6],
  ["leaves", 7],
  ["covered", 8],
  ["wrong", 6],
  ["invent", 7],
  ["nongoal", 8],
  ["dup", 4],
  ["near", 5],
  ["garbled", 8],
  ["SP", 3],
  ["AC2-5", 6],
  ["req", 5],
  ["calls", 6],
  ["tok/node", 9],
  ["ms", 7],
] as const;

export function caseLine(s: PlanScore): string {
  const values = [
    s.caseId,
    s.nodes,
    s.leaves,
    `${s.requirements.covered}/${s.requirements.total}`,
    s.wrongStack.length,
    s.invented.length,
    s.nonGoals.length,
    s.exactDuplicates.length,
    s.nearDuplicates.length,
    s.garbled.length,
    Object.keys(s.storyPoints).length,
    pct(s.acceptance && (s.acceptance.leaves ? s.acceptance.twoToFive / s.acceptance.leaves : 0)),
    pct(
      s.requirementIds && (s.requirementIds.leaves ? s.requirementIds.withIds / s.requirementIds.leaves : 0),
    ),
    s.calls,
    s.nodes ? ((s.promptTokens + s.completionTokens) / s.nodes).toFixed(0) : "0",
    s.wallMs.toFixed(0),
  ];
  const line = COLUMNS.map(([, w], k) => (k === 0 ? String(values[k]).padEnd(w) : pad(values[k]!, w))).join(
    " ",
  );
  return s.error ? `${line}  FAILED: ${s.error.slice(0, 120)}` : line;
}

const RULE_TITLES: Record<GateRule, string> = {
  "plan-failed": "Plans that failed",
  "uncovered-requirement": "Uncovered requirements",
  "wrong-stack": "Wrong stack (technologies contradicting the text)",
  "non-goal-planned": "Non-goals planned as work",
  "exact-duplicate": "Exact duplicate titles",
  "near-duplicate": "Near-duplicate titles",
  "garbled-title": "Garbled titles",
  "too-few-leaves": "Plans with too few leaves",
  "uniform-story-points": "Story points",
  "dependency-cycle": "Dependencies that form a cycle",
  "non-work-leaf": "Leaves planned from text that is not work",
  "merged-features": "Separate features merged into one leaf",
  "wrong-kind": "Plans read as the wrong kind of work",
  "misfit-step": "Steps that do not fit the kind of work",
  "scope-error": "Scope read wrongly (non-goals missed, or work taken for a non-goal)",
  "order-violation": "Order: stated sequences not kept, or order invented",
};

export function formatScorecard(e: Evaluation, opts: { maxPerRule?: number } = {}): string {
  const max = opts.maxPerRule ?? 40;
  const t = e.totals;
  const out: string[] = [];
  out.push(`Planner: ${e.planner}${e.model ? ` (${e.model})` : ""}, ${t.cases} cases`);
  out.push("");
  out.push(COLUMNS.map(([h, w], k) => (k === 0 ? h.padEnd(w) : pad(h, w))).join(" "));
  for (const s of e.scores) out.push(caseLine(s));
  out.push("");
  const sp = Object.entries(t.storyPoints)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  out.push("Totals");
  out.push(`  requirement coverage   ${t.covered}/${t.requirements} (${pct(t.coverage)})`);
  out.push(`  wrong stack            ${t.wrongStack}`);
  out.push(`  invented technologies  ${t.invented}`);
  out.push(`  non-goals planned      ${t.nonGoals}`);
  out.push(`  duplicates             ${t.exactDuplicates} exact, ${t.nearDuplicates} near`);
  out.push(
    `  garbled titles         ${t.garbled}${
      t.garbled
        ? ` (${Object.entries(t.garbledByRule)
            .map(([r, n]) => `${r} ${n}`)
            .join(", ")})`
        : ""
    }`,
  );
  out.push(`  plans failed           ${t.failedPlans}; splits needing attention ${t.needsAttention}`);
  out.push(`  nodes / leaves         ${t.nodes} / ${t.leaves} (fewest leaves in a plan: ${t.minLeaves})`);
  out.push(`  leaf story points      ${sp || "none"} (${t.distinctStoryPoints} distinct values)`);
  out.push(`  leaves <= 16 h         ${pct(t.hoursAtMost16)}`);
  out.push(`  leaves with 2-5 AC     ${pct(t.acceptance2to5)}`);
  out.push(`  leaves with req ids    ${pct(t.withRequirementIds)}`);
  out.push(
    `  dependencies           ${t.dependencies} (in ${t.plansWithDependencies} of ${t.cases} plans); plans with a cycle ${t.cyclicPlans}`,
  );
  out.push(`  non-work leaves        ${t.nonWork}`);
  out.push(`  merged features        ${t.merged}`);
  out.push(`  kind right             ${t.kinds.right}/${t.kinds.stated}`);
  out.push(`  misfit steps           ${t.misfits}`);
  out.push(`  scope errors           ${t.scopeErrors}`);
  out.push(`  order violations       ${t.orderViolations}`);
  out.push(
    `  model calls / tokens   ${t.calls} calls, ${t.promptTokens + t.completionTokens} tokens (${t.promptTokens} prompt, ${t.completionTokens} completion), ${t.tokensPerNode.toFixed(0)} per node`,
  );
  out.push(`  wall time              ${(t.wallMs / 1000).toFixed(2)} s`);
  out.push("");
  if (e.failures.length === 0) out.push("Gate: PASS");
  else {
    out.push(`Gate: FAIL (${e.failures.length} failures)`);
    const byRule = new Map<GateRule, string[]>();
    for (const f of e.failures) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f.message]);
    for (const [rule, messages] of byRule) {
      out.push("");
      out.push(`${RULE_TITLES[rule]} (${messages.length})`);
      for (const m of messages.slice(0, max)) out.push(`  ${m}`);
      if (messages.length > max) out.push(`  ... and ${messages.length - max} more (--json for all)`);
    }
  }
  const invented = e.scores.flatMap((s) =>
    s.invented.map((i) => `[${s.caseId}] ${i.name} (${i.where} "${i.title}")`),
  );
  if (invented.length) {
    out.push("");
    out.push(`Invented technologies, not gated (${invented.length})`);
    for (const line of invented.slice(0, max)) out.push(`  ${line}`);
    if (invented.length > max) out.push(`  ... and ${invented.length - max} more`);
  }
  return out.join("\n");
}

/** The plan as an indented tree: title, complexity/story points, and the extra fields when present. */
export function formatTree(record: PlanRecord): string {
  const out: string[] = [];
  for (const n of record.nodes) {
    const indent = "  ".repeat(n.depth);
    const flags = [
      `${n.id}`,
      `c${n.complexity_score ?? "-"}`,
      `sp${n.story_points ?? "-"}`,
      ...(typeof n.estimated_hours === "number" ? [`${n.estimated_hours}h`] : []),
      ...(n.isAtomic ? ["atomic"] : []),
      ...(n.requirement_ids?.length ? [n.requirement_ids.join(",")] : []),
      ...(n.needsAttention ? [`NEEDS ATTENTION: ${n.needsAttention}`] : []),
    ];
    out.push(`${indent}${n.depth === 0 ? n.title.slice(0, 100) : n.title}  [${flags.join(" ")}]`);
    for (const ac of n.acceptance_criteria ?? []) out.push(`${indent}    - ${ac}`);
  }
  if (record.context) {
    out.push("");
    out.push(`Epics: ${record.context.epics.map((e) => e.title).join("; ")}`);
    out.push(`User stories: ${record.context.user_stories.length}`);
  }
  if (record.eventModel)
    out.push(
      `Event model: ${record.eventModel.events.length} events, ${record.eventModel.commands.length} commands, ${record.eventModel.read_models.length} read models`,
    );
  return out.join("\n");
}

/**
 * The held-out cases' scores without a word of their texts or plans: totals, and how many failures each
 * rule has in each case (by id), so a tuning loop cannot fit them.
 */
export function formatHeldOut(e: Evaluation): string {
  const t = e.totals;
  const out = [
    `Held-out cases: ${t.cases} (${e.planner})`,
    `  requirement coverage   ${t.covered}/${t.requirements} (${pct(t.coverage)})`,
    `  non-goals planned      ${t.nonGoals}`,
    `  non-work leaves        ${t.nonWork}`,
    `  merged features        ${t.merged}`,
    `  kind right             ${t.kinds.right}/${t.kinds.stated}`,
    `  misfit steps           ${t.misfits}`,
    `  scope errors           ${t.scopeErrors}`,
    `  order violations       ${t.orderViolations}`,
    `  wrong stack / invented ${t.wrongStack} / ${t.invented}`,
    `  duplicates / garbled   ${t.exactDuplicates + t.nearDuplicates} / ${t.garbled}`,
    `  plans failed           ${t.failedPlans}`,
    `  nodes / leaves         ${t.nodes} / ${t.leaves}`,
    "",
    e.failures.length === 0 ? "Gate: PASS" : `Gate: FAIL (${e.failures.length} failures)`,
  ];
  const counts = new Map<string, number>();
  for (const f of e.failures) {
    const key = `${f.caseId ?? "corpus"} ${f.rule}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, n] of [...counts].sort()) out.push(`  ${key}: ${n}`);
  return out.join("\n");
}
