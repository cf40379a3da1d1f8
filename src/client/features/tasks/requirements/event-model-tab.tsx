import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import {
  type Chapter,
  type EventModelMetadata,
  type Swimlane,
  type Task,
  updateEventModelInput,
} from "../../../../shared/schemas/tasks";
import { EmptyState } from "../../../components/empty-state";
import { ErrorAlert } from "../../../components/error-alert";
import { Field } from "../../../components/field";
import { MarkdownView } from "../../../components/markdown-view";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { renderMarkdown } from "../../../lib/markdown";
import { useTRPC } from "../../../lib/trpc";

/** updateEventModelInput's one field. */
const FIELDS = { event_model_markdown: "markdown" } as const;

/** Swimlane cards show 3 items of each kind, then '+n more'. */
export const SWIMLANE_ITEMS_SHOWN = 3;

function ItemList({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  const shown = items.slice(0, SWIMLANE_ITEMS_SHOWN);
  const more = items.length - shown.length;
  return (
    <div>
      <p className="text-xs font-semibold uppercase tracking-wide text-base-content/60">{title}</p>
      <ul className="mt-1 space-y-0.5 text-sm">
        {shown.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; order is stable
          <li key={i} className="break-words">
            {item}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="mt-0.5 text-xs text-base-content/60">+{more} more</p>}
    </div>
  );
}

function SwimlaneCard({ lane }: { lane: Swimlane }) {
  return (
    <li className="card border border-base-300 bg-base-100">
      <div className="card-body gap-2 p-4">
        <h4 className="font-semibold">{lane.name}</h4>
        {lane.description && <p className="text-sm text-base-content/70">{lane.description}</p>}
        <ItemList title="Events" items={lane.events} />
        <ItemList title="Commands" items={lane.commands} />
        <ItemList title="Read models" items={lane.read_models} />
      </div>
    </li>
  );
}

function ChapterItem({ chapter }: { chapter: Chapter }) {
  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4">
      <h4 className="font-semibold">{chapter.name}</h4>
      {chapter.description && <p className="mt-1 text-sm text-base-content/70">{chapter.description}</p>}
      {chapter.sub_chapters.length > 0 && (
        <ul className="mt-3 space-y-2 border-l-2 border-base-300 pl-4">
          {chapter.sub_chapters.map((sub, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; order is stable
            <li key={i}>
              <p className="text-sm font-medium">{sub.name}</p>
              {sub.slices.length > 0 && (
                <ul className="mt-1 flex flex-wrap gap-1">
                  {sub.slices.map((slice, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; order is stable
                    <li key={j} className="badge badge-sm badge-outline h-auto py-0.5">
                      {slice}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function hasContent(meta: EventModelMetadata | null): meta is EventModelMetadata {
  return (
    !!meta &&
    (meta.event_model_markdown.trim() !== "" || meta.swimlanes.length > 0 || meta.chapters.length > 0)
  );
}

/** Event Model tab: swimlanes, chapters, rendered markdown and a view/edit toggle. */
export function EventModelTab({ task }: { task: Task }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const meta = task.metadata;
  const saved = meta?.event_model_markdown ?? "";
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(saved);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const html = useMemo(() => (saved.trim() ? renderMarkdown(saved) : ""), [saved]);

  const save = useMutation(
    trpc.tasks.updateEventModel.mutationOptions({
      retry: false,
      onSuccess: (metadata) => {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ id: task.id }), (old) =>
          old ? { ...old, metadata } : old,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.tasks.get.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.tasks.tree.pathKey() });
        toast.success("Event model updated successfully");
        setEditing(false);
      },
      onError: (err) => {
        const message = serverFieldErrors(err, FIELDS).markdown;
        if (message) setFieldError(message);
        else setSaveError(errorDetailOf(err) ?? "Failed to update event model");
        toast.error("Failed to update event model");
      },
    }),
  );

  const startEditing = () => {
    setDraft(saved);
    setSaveError(null);
    setFieldError(null);
    setEditing(true);
  };
  const cancel = () => {
    setDraft(saved);
    setSaveError(null);
    setFieldError(null);
    setEditing(false);
  };
  const submit = () => {
    if (draft === saved || save.isPending) return;
    const input = { event_model_markdown: draft };
    const found = schemaFieldErrors(updateEventModelInput, input, FIELDS).markdown;
    setFieldError(found ?? null);
    if (!found) save.mutate({ id: task.id, ...input });
  };

  if (task.parent_id) {
    return (
      <EmptyState title="No Event Model">
        The event model belongs to the root task of this tree. Open the root task to see or edit it.
      </EmptyState>
    );
  }

  const generating = task.status === "pending" || task.status === "processing" || task.status === "submitted";

  if (!editing && !hasContent(meta)) {
    return (
      <EmptyState
        title={generating ? "Generating Event Model" : "No Event Model"}
        actions={
          <button type="button" className="btn btn-sm btn-outline" onClick={startEditing}>
            Write Event Model
          </button>
        }
      >
        {generating
          ? task.status === "processing"
            ? "The event model is being built along with the plan."
            : "Decomposition has not run yet. The event model (events, commands, read models, swimlanes and chapters) is generated with it. You can also write one yourself in Markdown."
          : "No event model was made: the description states no actions or events to model. You can write one yourself in Markdown."}
      </EmptyState>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      {meta && meta.swimlanes.length > 0 && (
        <section aria-labelledby="swimlanes-heading">
          <h3 id="swimlanes-heading" className="mb-3 text-lg font-semibold">
            Swimlanes
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {meta.swimlanes.map((lane, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; order is stable
              <SwimlaneCard key={i} lane={lane} />
            ))}
          </ul>
        </section>
      )}

      {meta && meta.chapters.length > 0 && (
        <section aria-labelledby="chapters-heading">
          <h3 id="chapters-heading" className="mb-3 text-lg font-semibold">
            Chapters
          </h3>
          <ul className="flex flex-col gap-3">
            {meta.chapters.map((chapter, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; order is stable
              <ChapterItem key={i} chapter={chapter} />
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="event-model-doc-heading" className="card border border-base-300 bg-base-200">
        <div className="card-body gap-3 p-4 sm:p-5">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="event-model-doc-heading" className="text-lg font-semibold">
              Event Model Document
            </h3>
            {!editing && (
              <button type="button" className="btn btn-sm" onClick={startEditing}>
                Edit Event Model
              </button>
            )}
          </div>

          {editing ? (
            <form
              className="flex flex-col gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <ErrorAlert message={saveError} />
              <Field
                as="textarea"
                id="event-model-markdown"
                label="Event model markdown"
                error={fieldError}
                className="min-h-80 font-mono text-sm"
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value);
                  setFieldError(null);
                }}
                autoFocus
                placeholder={"# Event Model\n\n## Events\n- OrderPlaced\n\n## Commands\n- PlaceOrder"}
                disabled={save.isPending}
              />
              <div className="flex justify-end gap-2">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={cancel}
                  disabled={save.isPending}
                >
                  Cancel
                </button>
                <button
                  type="submit"
                  className="btn btn-primary btn-sm"
                  disabled={draft === saved || save.isPending}
                >
                  {save.isPending && (
                    <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                  )}
                  {save.isPending ? "Saving..." : "Save"}
                </button>
              </div>
            </form>
          ) : html ? (
            <MarkdownView html={html} />
          ) : (
            <p className="text-sm text-base-content/60">No event model document yet.</p>
          )}
        </div>
      </section>
    </div>
  );
}
