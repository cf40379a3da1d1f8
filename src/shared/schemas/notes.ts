import { z } from "zod";
import { isoTimestamp } from "./common";

/** Notes on a task (the side panel's Notes, the MCP `add_note` tool): what was learned doing it. */
export const NOTE_MAX = 5000;
/** The most notes one task keeps; past it, adding one is refused (a note is not a log stream). */
export const NOTES_PER_TASK_MAX = 200;

export const addNoteInput = z.strictObject({
  body: z
    .string({ error: "Write the note's text in body" })
    .trim()
    .min(1, "The note is empty")
    .max(NOTE_MAX, `A note is at most ${NOTE_MAX.toLocaleString("en")} characters`),
});

export const taskNote = z.object({
  id: z.string(),
  task_id: z.string(),
  body: z.string(),
  /** The personal access token's name when a script or coding agent wrote it; null from the app. */
  token_name: z.string().nullable(),
  created_at: isoTimestamp,
});
export type TaskNote = z.infer<typeof taskNote>;
export const taskNotes = z.object({ task_id: z.string(), notes: z.array(taskNote) });
export type TaskNotes = z.infer<typeof taskNotes>;
