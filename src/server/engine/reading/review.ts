import type { ReadingItem, ReadingItemInput, ReadingRole } from "../../../shared/schemas/reading";
import { similarity, wordSet } from "../../lib/words";
import { actorOf } from "./actors";
import { KIND_LABELS } from "./kind";
import type { KindReading, Requirement, StatedScope, WorkKind } from "./types";

/**
 * A reading a person checks before planning (issue 38; decision 032): the stated scope as a flat list of
 * items, each with a role, and the kind of work. What the review does not show rides on the stored items
 * (a requirement's section, actor, action, benefit, the sentence it was stated in, its step and its first
 * id; whether a context item was a step to reproduce, an observation or a done item) and on the reading
 * (title, subject, stated sequences), so an unchanged reading gives back exactly the scope it came from
 * and plans exactly like planning without a review.
 */

/** Where a context item came from in the scope. */
type ContextSource = "context" | "reproduction" | "observed" | "done";

export type StoredReadingItem = {
  text: string;
  role: ReadingRole;
  /** On a work item read from the text: its requirement as read, id included (sequences name it). */
  requirement?: Requirement;
  /** On a context item read from the text. */
  source?: ContextSource;
};

/** What the root keeps in its `reading` column once a reading is stored. */
export type StoredReading = {
  version: 1;
  kind: WorkKind;
  because: string[];
  /** Whether a person chose the kind (then the reasons say so). */
  chosen: boolean;
  /**
   * Whether a person changed anything (kind, roles, texts, items): the planners are then told the reading
   * was corrected, and plan from it rather than from the description. Unchanged, nothing is said, so the
   * plan is the one planning without a check makes.
   */
  changed: boolean;
  title: string | null;
  subject: string | null;
  /** Requirement ids as first read, in the stated sequences. */
  sequences: string[][];
  items: StoredReadingItem[];
};

export const KIND_CHOSEN_REASON = "you chose it when you checked the reading";

/** The scope and the kind as the reader found them, as items to check. */
export function readingOf(scope: StatedScope, kind: KindReading): StoredReading {
  const items: StoredReadingItem[] = [
    ...scope.requirements.map((r) => ({ text: r.text, role: "work" as const, requirement: r })),
    ...scope.context.map((text) => context(text, "context")),
    ...scope.reproduction.map((text) => context(text, "reproduction")),
    ...scope.observed.map((text) => context(text, "observed")),
    ...scope.done.map((text) => context(text, "done")),
    ...scope.nonGoals.map((text) => ({ text, role: "non_goal" as const })),
    ...scope.constraints.map((text) => ({ text, role: "constraint" as const })),
    ...scope.criteria.map((text) => ({ text, role: "criterion" as const })),
    ...scope.questions.map((text) => ({ text, role: "question" as const })),
  ];
  return {
    version: 1,
    kind: kind.id,
    because: kind.because,
    chosen: false,
    changed: false,
    title: scope.title,
    subject: scope.subject,
    sequences: scope.sequences,
    items,
  };
}

const context = (text: string, source: ContextSource): StoredReadingItem => ({
  text,
  role: "context",
  source,
});

/** The kind a stored reading plans as: the reader's, with its reasons, or the person's choice. */
export function kindOfReading(reading: StoredReading): KindReading {
  return { id: reading.kind, label: KIND_LABELS[reading.kind], because: reading.because };
}

/**
 * The scope a planner is given from a stored reading. Work items are numbered R1, R2, ... in order;
 * stated sequences keep the requirements still in them (a sequence of fewer than two is no order).
 */
export function scopeOfReading(reading: StoredReading): StatedScope {
  const requirements: Requirement[] = [];
  const renamed = new Map<string, string>();
  const of = (role: ReadingRole, source?: ContextSource) =>
    reading.items
      .filter((i) => i.role === role && (source === undefined || (i.source ?? "context") === source))
      .map((i) => i.text);
  for (const item of reading.items) {
    if (item.role !== "work") continue;
    const id = `R${requirements.length + 1}`;
    if (item.requirement) {
      renamed.set(item.requirement.id, id);
      requirements.push({ ...item.requirement, id, text: item.text });
    } else {
      requirements.push({ id, text: item.text, section: null, statedIn: null, ...actorOf(item.text) });
    }
  }
  const sequences = reading.sequences
    .map((s) => s.flatMap((old) => (renamed.has(old) ? [renamed.get(old)!] : [])))
    .filter((s) => s.length >= 2);
  return {
    title: reading.title,
    requirements,
    nonGoals: of("non_goal"),
    context: of("context", "context"),
    questions: of("question"),
    criteria: of("criterion"),
    constraints: of("constraint"),
    done: of("context", "done"),
    reproduction: of("context", "reproduction"),
    observed: of("context", "observed"),
    sequences,
    subject: reading.subject,
  };
}

/** The reading as the review shows it: work items with their ids, the others without. */
export function shownItems(reading: StoredReading): ReadingItem[] {
  let work = 0;
  return reading.items.map((i) => ({
    id: i.role === "work" ? `R${++work}` : null,
    text: i.text,
    role: i.role,
  }));
}

const same = (a: string) => a.replace(/\s+/g, " ").trim();

/** How alike an edited item's words must be to the item it was, to keep what was hidden on it. */
const EDITED = 0.5;

/**
 * A person's reading over the stored one. Each item sent takes what was hidden on a stored item with
 * the same text (the first not taken yet), so items kept, moved or given back unchanged keep it. A work
 * item whose words were edited keeps its requirement's place (section, sentence, step and first id, so a
 * stated order holds) from the most alike work item left, its actor read again from the new words. An
 * item whose role changed keeps only what that role has; an added one has nothing hidden.
 */
export function applyReading(
  stored: StoredReading,
  input: { kind: WorkKind; items: ReadingItemInput[] },
): StoredReading {
  const free = new Set(stored.items.keys());
  const take = (i: number) => {
    free.delete(i);
    return stored.items[i]!;
  };
  const exact = input.items.map((sent) => {
    const at = [...free].find((i) => same(stored.items[i]!.text) === same(sent.text));
    return at === undefined ? null : take(at);
  });
  const items = input.items.map((sent, n): StoredReadingItem => {
    const old = exact[n];
    if (old) {
      const text = old.role === sent.role ? old.text : sent.text;
      if (sent.role === "work" && old.requirement)
        return { text, role: "work", requirement: old.requirement };
      if (sent.role === "context" && old.source) return { text, role: "context", source: old.source };
      return { text, role: sent.role };
    }
    if (sent.role !== "work") return { text: sent.text, role: sent.role };
    const words = wordSet(sent.text);
    let best: { i: number; score: number } | null = null;
    for (const i of free) {
      const r = stored.items[i]!.requirement;
      if (stored.items[i]!.role !== "work" || !r) continue;
      const score = similarity(words, wordSet(r.text));
      if (score >= EDITED && (!best || score > best.score)) best = { i, score };
    }
    if (!best) return { text: sent.text, role: "work" };
    const was = take(best.i).requirement!;
    return { text: sent.text, role: "work", requirement: { ...was, text: sent.text, ...actorOf(sent.text) } };
  });
  const chosen = stored.chosen || input.kind !== stored.kind;
  const differs =
    input.kind !== stored.kind ||
    items.length !== stored.items.length ||
    items.some((item, i) => item.text !== stored.items[i]!.text || item.role !== stored.items[i]!.role);
  return {
    ...stored,
    kind: input.kind,
    because: input.kind === stored.kind ? stored.because : [KIND_CHOSEN_REASON],
    chosen,
    changed: stored.changed || differs,
    items,
  };
}

/** A root's `reading` column as a stored reading; null when it has none (or one this version cannot read). */
export function storedReadingOf(raw: unknown): StoredReading | null {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Partial<StoredReading>;
  if (r.version !== 1 || !Array.isArray(r.items) || typeof r.kind !== "string" || !(r.kind in KIND_LABELS))
    return null;
  return r as StoredReading;
}
