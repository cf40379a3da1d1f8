import { z } from "zod";
import { isoTimestamp } from "./common";

/**
 * Notes on a task, which are its comments (issue 41): the side panel's Notes, the MCP `add_comment` tool,
 * /tasks/{id}/notes and /tasks/{id}/comments alike. Markdown, shown sanitised; an @username mention of a
 * member of the plan's team tells them, once.
 */
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

export const taskNote = z
  .object({
    id: z.string(),
    task_id: z.string(),
    /** Markdown, as written. */
    body: z.string(),
    /** The body rendered and sanitised as the blog's posts are: safe to show as HTML. */
    html: z.string(),
    /** The personal access token's name when a script or coding agent wrote it; null from the app. */
    token_name: z.string().nullable(),
    /** Who wrote it (null for notes from before comments had authors, or a deleted account). */
    author_id: z.string().nullable(),
    author_name: z.string().nullable(),
    created_at: isoTimestamp,
    edited_at: isoTimestamp.nullable(),
  })
  .meta({ id: "Comment" });
export type TaskNote = z.infer<typeof taskNote>;
export const taskNotes = z.object({ task_id: z.string(), notes: z.array(taskNote) }).meta({ id: "Comments" });

/** PATCH /tasks/{id}/comments/{comment_id}: the author's new text. */
export const editNoteInput = addNoteInput;
export type TaskNotes = z.infer<typeof taskNotes>;
