import { z } from "zod";

/**
 * What the reader made of a description, for the user to check before planning (issue 38; decision 032):
 * the kind of work and each item with its role. Only `work` items are planned, each as a requirement
 * traced to its id (R1, R2, ... in order); the other roles are kept apart from the work.
 */

export const READING_ROLES = ["work", "context", "non_goal", "constraint", "criterion", "question"] as const;
export type ReadingRole = (typeof READING_ROLES)[number];

/** The kinds a user may choose (engine/reading/kind.ts `WorkKind`; a test keeps the two lists equal). */
export const READING_KINDS = [
  "product",
  "feature",
  "bug",
  "performance",
  "migration",
  "infrastructure",
  "data",
  "spike",
] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

/** Bounds of a reading a person sends: as many items as a long description gives, each a paragraph at most. */
export const READING_ITEMS_MAX = 300;
export const READING_ITEM_TEXT_MAX = 2000;
/** Projects one user may keep waiting for a check of their reading (nothing is counted until they plan). */
export const AWAITING_REVIEW_MAX = 20;

export const readingItem = z.object({
  /** "R1", "R2", ... on work items in order; null on the others (only work is traced). */
  id: z.string().nullable(),
  text: z.string(),
  role: z.enum(READING_ROLES),
});
export type ReadingItem = z.infer<typeof readingItem>;

export const reading = z.object({
  project_id: z.string(),
  status: z.string(),
  kind: z.enum(READING_KINDS),
  kind_label: z.string(),
  /** Why the reader chose the kind; after a person chose it, says so. */
  kind_reasons: z.array(z.string()),
  kinds: z.array(z.object({ id: z.enum(READING_KINDS), label: z.string() })),
  items: z.array(readingItem),
});
export type Reading = z.infer<typeof reading>;

const roleError = `role must be one of ${READING_ROLES.join(", ")}`;

export const readingItemInput = z.strictObject({
  text: z
    .string({ error: "Enter the item's text" })
    .trim()
    .min(1, "Enter the item's text (delete the item to drop it)")
    .max(
      READING_ITEM_TEXT_MAX,
      `An item is at most ${READING_ITEM_TEXT_MAX.toLocaleString("en")} characters`,
    ),
  role: z.enum(READING_ROLES, { error: roleError }),
});
export type ReadingItemInput = z.infer<typeof readingItemInput>;

export const setReadingInput = z.strictObject({
  kind: z.enum(READING_KINDS, { error: `kind must be one of ${READING_KINDS.join(", ")}` }),
  items: z
    .array(readingItemInput, { error: "items must be a list of {text, role}" })
    .max(READING_ITEMS_MAX, `A reading has at most ${READING_ITEMS_MAX} items`)
    .refine(
      (items) => items.some((i) => i.role === "work"),
      "Keep at least one work item: it is what gets planned",
    ),
});
export type SetReadingInput = z.input<typeof setReadingInput>;
