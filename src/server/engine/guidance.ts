import { wordSet } from "../lib/words";

/**
 * What a re-plan's guidance asks for, read by rule. The model path gets the guidance as written; these
 * directives are also applied by the re-plan itself (detail) and by the offline planner (what to leave
 * out), which has no model to read the rest:
 * - "less detail" (fewer steps, simpler, coarser, high level): merge what is there (plan/coarsen.ts);
 * - "more detail" (finer, more steps): one level deeper than usual;
 * - "we already have X", "skip X", "without X", "drop X", "remove X", "no X": work on X is left out.
 */
export type Guidance = { lessDetail: boolean; moreDetail: boolean; leaveOut: string[]; text: string };

const LESS =
  /\b(?:less|fewer)\s+(?:detail|details|steps|tasks|subtasks|granular)\b|\b(?:simpler|coarser|high[- ]level)\b/i;
const MORE =
  /\bmore\s+(?:detail|details|steps|tasks|subtasks|granular)\b|\b(?:finer|granular|break (?:it )?down further)\b/i;
const LEAVE_OUT =
  /\b(?:(?:we|i|they)\s+)?(?:already\s+(?:have|has|built|did|done|got)|skip|without|drop|remove|no)\s+([^.,;!?\n]+)/gi;

export function readGuidance(text: string | undefined): Guidance {
  const t = (text ?? "").trim();
  const leaveOut = new Set<string>();
  for (const m of t.matchAll(LEAVE_OUT)) {
    for (const w of wordSet(m[1]!))
      if (w.length >= 3 && !/^(?:more|less|detail|details|any|need)$/.test(w)) leaveOut.add(w);
  }
  return { lessDetail: LESS.test(t), moreDetail: MORE.test(t), leaveOut: [...leaveOut], text: t };
}

/** A title about something the guidance leaves out: one of its words starts with a left-out word ("auth" -> "authentication"). */
export function leftOut(g: Guidance, title: string): boolean {
  if (g.leaveOut.length === 0) return false;
  const words = [...wordSet(title)];
  return g.leaveOut.some((out) =>
    words.some((w) => w.startsWith(out) || (out.startsWith(w) && w.length >= 4)),
  );
}
