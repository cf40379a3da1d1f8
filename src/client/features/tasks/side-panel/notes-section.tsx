import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { NOTE_MAX } from "../../../../shared/schemas/notes";
import { ErrorAlert } from "../../../components/error-alert";
import { MarkdownView } from "../../../components/markdown-view";
import { errorDetailOf } from "../../../lib/api-error";
import { useAuth } from "../../../lib/auth";
import { renderMarkdown } from "../../../lib/markdown";
import { useTRPC } from "../../../lib/trpc";

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A task's notes in the side panel, which are its comments (issue 41), oldest first: Markdown from a
 * person or a coding agent (signed with its token's name), with who wrote it; a new one is added below
 * (Ctrl+Enter from the text box), and its author deletes their own. A team's viewers comment too.
 */
export function NotesSection({ taskId }: { taskId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const notes = useQuery(trpc.tasks.notes.queryOptions({ id: taskId }));
  const { user } = useAuth();
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = useMutation(
    trpc.tasks.addNote.mutationOptions({
      retry: false,
      onSuccess: () => {
        setBody("");
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.tasks.notes.queryKey({ id: taskId }) });
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The note could not be added."),
    }),
  );
  const remove = useMutation(
    trpc.tasks.deleteNote.mutationOptions({
      retry: false,
      onSuccess: () =>
        void queryClient.invalidateQueries({ queryKey: trpc.tasks.notes.queryKey({ id: taskId }) }),
      onError: (err) => setError(errorDetailOf(err) ?? "The note could not be deleted."),
    }),
  );
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!body.trim()) {
      setError("The note is empty");
      return;
    }
    add.mutate({ id: taskId, body });
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2" data-testid="notes">
      <h4 id={`${id}-title`} className="text-sm font-semibold">
        Notes
      </h4>
      {notes.isPending ? (
        <p className="text-sm text-base-content/60">Loading notes...</p>
      ) : notes.isError ? (
        <ErrorAlert message={errorDetailOf(notes.error) ?? "The notes could not be loaded."} line />
      ) : notes.data.notes.length === 0 ? (
        <p className="text-sm text-base-content/60">No notes yet.</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {notes.data.notes.map((n) => (
            <li key={n.id} className="rounded-box border border-base-300 p-2 text-sm" data-testid="note">
              {/* Markdown, sanitised as everything the app renders (lib/markdown.ts). */}
              <MarkdownView html={renderMarkdown(n.body)} className="break-words text-sm" />
              <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-base-content/70">
                <span>
                  {n.author_name ?? "Someone"}
                  {n.token_name ? ` (agent: ${n.token_name})` : ""}
                </span>
                <time dateTime={n.created_at}>{when(n.created_at)}</time>
                {n.edited_at && <span>(edited)</span>}
                {n.author_id === user?.id && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ id: taskId, comment_id: n.id })}
                  >
                    Delete
                  </button>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      <form className="flex flex-col gap-2" onSubmit={submit}>
        <label className="flex flex-col gap-1 text-sm">
          <span className="sr-only">New note</span>
          <textarea
            className="textarea textarea-bordered textarea-sm"
            rows={2}
            maxLength={NOTE_MAX}
            placeholder="Add a note... (Markdown; @name tells a team member)"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit();
            }}
          />
        </label>
        <ErrorAlert message={error} line />
        <button type="submit" className="btn btn-sm btn-outline self-start" disabled={add.isPending}>
          {add.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Add note
        </button>
      </form>
    </section>
  );
}
