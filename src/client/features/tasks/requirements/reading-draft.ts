import {
  READING_ITEM_TEXT_MAX,
  READING_ITEMS_MAX,
  READING_ROLES,
  type Reading,
  type ReadingKind,
  type ReadingRole,
  type SetReadingInput,
} from "../../../../shared/schemas/reading";

/**
 * The reading a person edits before planning (issue 38): the kind and the items, with what the edits
 * do (change a role or a text, split, merge, delete, add a work item). The panel only draws it.
 */

export type DraftItem = { key: number; text: string; role: ReadingRole };
export type ReadingDraft = { kind: ReadingKind; items: DraftItem[]; nextKey: number };

export const ROLE_LABELS: Record<ReadingRole, string> = {
  work: "Work to plan",
  context: "Context",
  non_goal: "Out of scope",
  constraint: "Constraint",
  criterion: "Acceptance criterion",
  question: "Open question",
};
export const ROLE_OPTIONS = READING_ROLES.map((id) => ({ id, label: ROLE_LABELS[id] }));

export function draftOf(reading: Reading): ReadingDraft {
  return {
    kind: reading.kind,
    items: reading.items.map((item, key) => ({ key, text: item.text, role: item.role })),
    nextKey: reading.items.length,
  };
}

const replace = (draft: ReadingDraft, index: number, items: Omit<DraftItem, "key">[]): ReadingDraft => {
  const made = items.map((item, i) => ({ ...item, key: draft.nextKey + i }));
  return {
    ...draft,
    items: [...draft.items.slice(0, index), ...made, ...draft.items.slice(index + 1)],
    nextKey: draft.nextKey + made.length,
  };
};

export function setKind(draft: ReadingDraft, kind: ReadingKind): ReadingDraft {
  return { ...draft, kind };
}

export function setRole(draft: ReadingDraft, index: number, role: ReadingRole): ReadingDraft {
  return { ...draft, items: draft.items.map((item, i) => (i === index ? { ...item, role } : item)) };
}

export function setText(draft: ReadingDraft, index: number, text: string): ReadingDraft {
  return { ...draft, items: draft.items.map((item, i) => (i === index ? { ...item, text } : item)) };
}

/**
 * Where an item's text splits: at the caret when it sits inside the text, else at the sentence, semicolon,
 * comma or "and" nearest the middle. Null when there is nothing to split.
 */
export function splitPoint(text: string, caret: number | null): number | null {
  const inside = (at: number) => text.slice(0, at).trim() !== "" && text.slice(at).trim() !== "";
  if (caret !== null && caret > 0 && caret < text.length && inside(caret)) return caret;
  const points: number[] = [];
  for (const m of text.matchAll(/[.;,]\s+|\s+and\s+/g)) points.push(m.index + m[0].length);
  const middle = text.length / 2;
  const best = points.filter(inside).sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle))[0];
  return best ?? null;
}

/** Two items from one, each keeping its role. */
export function splitItem(draft: ReadingDraft, index: number, caret: number | null): ReadingDraft {
  const item = draft.items[index];
  const at = item ? splitPoint(item.text, caret) : null;
  if (!item || at === null) return draft;
  const first = item.text
    .slice(0, at)
    .trim()
    .replace(/(?:[,;]|\s+and)$/, "");
  const second = item.text.slice(at).trim();
  return replace(draft, index, [
    { text: first, role: item.role },
    { text: second.charAt(0).toUpperCase() + second.slice(1), role: item.role },
  ]);
}

/** An item and the next as one, with the first one's role. */
export function mergeWithNext(draft: ReadingDraft, index: number): ReadingDraft {
  const [a, b] = [draft.items[index], draft.items[index + 1]];
  if (!a || !b) return draft;
  const joined = `${a.text.trim().replace(/[.;,]$/, "")}; ${b.text.trim()}`;
  const items = [...draft.items.slice(0, index), { ...a, text: joined }, ...draft.items.slice(index + 2)];
  return { ...draft, items };
}

export function removeItem(draft: ReadingDraft, index: number): ReadingDraft {
  return { ...draft, items: draft.items.filter((_, i) => i !== index) };
}

/** A new, empty work item at the end. */
export function addWorkItem(draft: ReadingDraft): ReadingDraft {
  return replace(draft, draft.items.length, [{ text: "", role: "work" }]);
}

/** R1, R2, ... as the plan will number the work items; null for the others. */
export function requirementIds(draft: ReadingDraft): (string | null)[] {
  let n = 0;
  return draft.items.map((item) => (item.role === "work" ? `R${++n}` : null));
}

export type DraftErrors = { items: Record<number, string>; form: string | null };

/** What the server would refuse, said before sending: per item (by index), and for the whole reading. */
export function draftErrors(draft: ReadingDraft): DraftErrors {
  const items: Record<number, string> = {};
  draft.items.forEach((item, i) => {
    if (item.text.trim() === "") items[i] = "Enter the item's text, or delete the item.";
    else if (item.text.trim().length > READING_ITEM_TEXT_MAX)
      items[i] = `An item is at most ${READING_ITEM_TEXT_MAX.toLocaleString("en")} characters.`;
  });
  const form = !draft.items.some((i) => i.role === "work")
    ? "Keep at least one work item: it is what gets planned."
    : draft.items.length > READING_ITEMS_MAX
      ? `A reading has at most ${READING_ITEMS_MAX} items.`
      : null;
  return { items, form };
}

export function hasDraftErrors(errors: DraftErrors): boolean {
  return errors.form !== null || Object.keys(errors.items).length > 0;
}

/** The server's field errors (`items.3.text`) on the draft's items. */
export function serverDraftErrors(errors: readonly { field: string; message: string }[]): DraftErrors {
  const out: DraftErrors = { items: {}, form: null };
  for (const { field, message } of errors) {
    const m = /^items\.(\d+)/.exec(field);
    if (m) out.items[Number(m[1])] ??= message;
    else out.form ??= message;
  }
  return out;
}

export function readingInput(draft: ReadingDraft): SetReadingInput {
  return { kind: draft.kind, items: draft.items.map(({ text, role }) => ({ text: text.trim(), role })) };
}

/** Whether the draft says something else than the reading it started from. */
export function isChanged(draft: ReadingDraft, reading: Reading): boolean {
  return (
    draft.kind !== reading.kind ||
    draft.items.length !== reading.items.length ||
    draft.items.some(
      (item, i) => item.text.trim() !== reading.items[i]!.text || item.role !== reading.items[i]!.role,
    )
  );
}
