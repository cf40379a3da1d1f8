import { z } from "zod";
import { isoTimestamp } from "./common";
import { EXPORT_KINDS } from "./integrations";

/**
 * Edits people made on JIRA, GitHub or Trello since the last export or sync, brought back for review
 * (services/exports/tracker-changes.ts, decision 030): one field of one item each, or an item added or
 * closed there. Each is taken ("theirs") or declined ("ours") on its own.
 */

export const TRACKER_FIELDS = [
  "title",
  "description",
  "story_points",
  "parent",
  "status",
  "added",
  "closed",
] as const;
export type TrackerField = (typeof TRACKER_FIELDS)[number];
export const TRACKER_DECISIONS = ["theirs", "ours"] as const;

/** POST /tasks/{id}/tracker-changes/{change_id} */
export const resolveTrackerChangeInput = z.strictObject({
  change_id: z.uuid({ error: "Unknown change" }),
  decision: z.enum(TRACKER_DECISIONS, { error: 'decision must be "theirs" or "ours"' }),
});

export const trackerChange = z
  .object({
    id: z.string(),
    service: z.enum(EXPORT_KINDS),
    /** "SYNC-12", "#34", a card's short link. */
    key: z.string(),
    url: z.string(),
    field: z.enum(TRACKER_FIELDS),
    /** The task it concerns (null for an item added there: it becomes a task when taken). */
    task_id: z.string().nullable(),
    task_title: z.string().nullable(),
    /** The value there and the value in Atomize, in words ready to show (a title, a text, "5", "To Do"). */
    theirs: z.string(),
    ours: z.string(),
    /** The task was changed in Atomize since too: neither side is applied without a choice. */
    conflict: z.boolean(),
    changed_at: isoTimestamp,
  })
  .meta({ id: "TrackerChange" });
export type TrackerChange = z.infer<typeof trackerChange>;

export const trackerChanges = z
  .object({ project_id: z.string(), changes: z.array(trackerChange) })
  .meta({ id: "TrackerChanges" });
export type TrackerChanges = z.infer<typeof trackerChanges>;

export const resolvedTrackerChange = z
  .object({
    id: z.string(),
    decision: z.enum(TRACKER_DECISIONS),
    /** The task the change applied to or made (null when ours was kept or the task was removed). */
    task_id: z.string().nullable(),
    remaining: z.number().int(),
  })
  .meta({ id: "ResolvedTrackerChange" });

/** The field in people's words, for the review list. */
export const TRACKER_FIELD_LABEL: Record<TrackerField, string> = {
  title: "Title",
  description: "Description",
  story_points: "Story points",
  parent: "Parent",
  status: "Status",
  added: "Added there",
  closed: "Closed there",
};
