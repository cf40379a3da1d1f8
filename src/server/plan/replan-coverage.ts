import type { ReplanChange } from "../../shared/schemas/replan";

/**
 * Which stated requirements a re-plan would leave with no task (issue 40: "less detail" on a project
 * removed the only work for R5, R8, R9 and R10, and nothing said so). Covered means named by a task below
 * the project (its requirement_ids). Pure: the plan's rows before, the changes applied.
 */
export function uncoveredBy(
  rows: readonly { id: string; parentId: string | null; requirementIds: readonly string[] }[],
  changes: readonly ReplanChange[],
  stated: readonly string[],
): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (!r.parentId) continue;
    const list = children.get(r.parentId) ?? [];
    list.push(r.id);
    children.set(r.parentId, list);
  }
  const removed = new Set<string>();
  const drop = (id: string) => {
    removed.add(id);
    for (const c of children.get(id) ?? []) drop(c);
  };
  const ids = new Map(rows.map((r) => [r.id, [...r.requirementIds]]));
  const added: string[][] = [];
  for (const c of changes) {
    if (c.op === "remove") drop(c.task_id);
    else if (c.op === "update" && c.after.requirement_ids) ids.set(c.task_id, [...c.after.requirement_ids]);
    else if (c.op === "add") added.push(c.after.requirement_ids);
  }
  const coveredBefore = new Set(rows.filter((r) => r.parentId).flatMap((r) => r.requirementIds));
  const coveredAfter = new Set([
    ...rows.filter((r) => r.parentId && !removed.has(r.id)).flatMap((r) => ids.get(r.id) ?? []),
    ...added.flat(),
  ]);
  return stated.filter((id) => coveredBefore.has(id) && !coveredAfter.has(id));
}

/** The refusal's sentence, naming what would be left without a task. */
export function uncoveredSentence(uncovered: readonly string[]): string {
  const list =
    uncovered.length === 1 ? uncovered[0] : `${uncovered.slice(0, -1).join(", ")} and ${uncovered.at(-1)}`;
  return `Accepting this leaves ${list} with no task: the plan would no longer cover ${uncovered.length === 1 ? "it" : "them"}.`;
}
