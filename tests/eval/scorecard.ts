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
