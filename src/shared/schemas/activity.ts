import { z } from "zod";
import { byline } from "../claims";
import { isoTimestamp } from "./common";

/**
 * A plan's activity (issue 41): who did what, when. Each entry names the person, and the agent when one of
 * their coding agents (a token) did it; none when the product did (a claim that ran out).
 */
export const ACTIVITY_KINDS = [
  "edit",
  "status",
  "structure",
  "claim",
  "comment",
  "review",
  "export",
  "tracker",
  "replan",
  "team",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ACTIVITY_PAGE_MAX = 100;

/** GET /tasks/{id}/activity?before=&limit=: newest first; `before` is the `next_before` of the last page. */
export const activityQuery = z.strictObject({
  before: z.coerce
    .number({ error: "before must be an entry id (the next_before of the previous page)" })
    .int("before must be an entry id (the next_before of the previous page)")
    .min(1, "before must be an entry id (the next_before of the previous page)")
    .max(Number.MAX_SAFE_INTEGER, "before must be an entry id (the next_before of the previous page)")
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}` })
    .int(`limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`)
    .max(ACTIVITY_PAGE_MAX, `limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`)
    .default(50),
});

export const activityEntry = z.object({
  id: z.number(),
  at: isoTimestamp,
  kind: z.enum(ACTIVITY_KINDS),
  /** The node it was about (it may since have been deleted), or null for the plan as a whole. */
  task_id: z.string().nullable(),
  /** The person, or null when the product did it. */
  actor: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  /** The coding agent's (the token's) name, when an agent did it. */
  agent: z.string().nullable(),
  /** What was done, without who: "marked “Set up CI” done". */
  summary: z.string(),
  /** The whole sentence: "Ada (agent: Claude Code) marked “Set up CI” done". */
  text: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

export const activityPage = z
  .object({
    entries: z.array(activityEntry),
    /** Pass as `before` for the next (older) page; null when this is the last. */
    next_before: z.number().nullable(),
  })
  .meta({ id: "ActivityPage" });
export type ActivityPage = z.infer<typeof activityPage>;

/** The sentence of an entry, as every client shows it. */
export function activityText(e: { actorName: string | null; agent: string | null; summary: string }): string {
  if (!e.actorName) return e.summary.charAt(0).toUpperCase() + e.summary.slice(1);
  return `${byline(e.actorName, e.agent)} ${e.summary}`;
}
