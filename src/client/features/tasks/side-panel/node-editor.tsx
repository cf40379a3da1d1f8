import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  STORY_POINTS,
  type TaskTreeNode,
  type UpdateTaskInput,
  updateTaskInput,
} from "../../../../shared/schemas/tasks";
import { ErrorAlert } from "../../../components/error-alert";
import { Field } from "../../../components/field";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { type FieldErrors, hasErrors, schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";
import { useRefreshTask } from "../shared/use-task-detail";

type NodeField =
  | "description"
  | "implementation_details"
  | "story_points"
  | "complexity_score"
  | "acceptance_criteria";
const FIELDS = (path: string): NodeField | undefined => {
  const head = path.split(".")[0];
  return head === "description" ||
    head === "implementation_details" ||
    head === "story_points" ||
    head === "complexity_score" ||
    head === "acceptance_criteria"
    ? head
    : undefined;
};

/** One criterion per line; blank lines are dropped. */
const criteriaOf = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** The form's text as the update it asks for: only what changed (an unchanged form sends nothing). */
export function nodeUpdates(
  node: Pick<
    TaskTreeNode,
    "description" | "implementation_details" | "story_points" | "complexity_score" | "acceptance_criteria"
  >,
  form: { description: string; details: string; points: string; complexity: string; criteria?: string },
): UpdateTaskInput {
  const updates: UpdateTaskInput = {};
  if (form.description.trim() !== node.description.trim()) updates.description = form.description.trim();
  const details = form.details.trim() === "" ? null : form.details.trim();
  if (details !== (node.implementation_details?.trim() || null)) updates.implementation_details = details;
  const points = form.points === "" ? null : Number(form.points);
  if (points !== node.story_points) updates.story_points = points;
  const complexity = form.complexity.trim() === "" ? null : Number(form.complexity);
  if (complexity !== node.complexity_score) updates.complexity_score = complexity;
  if (form.criteria !== undefined) {
    const criteria = criteriaOf(form.criteria);
    if (criteria.join("\n") !== (node.acceptance_criteria ?? []).join("\n"))
      updates.acceptance_criteria = criteria;
  }
  return updates;
}

/**
 * A node's text and numbers, edited in place in the side panel: checked with the server's schema as the
 * user types; only what changed is sent. Other open tabs update from the realtime event.
 */
export function NodeEditor({ node, onDone }: { node: TaskTreeNode; onDone: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(node.id);
  const [form, setForm] = useState({
    description: node.description,
    details: node.implementation_details ?? "",
    points: node.story_points === null ? "" : String(node.story_points),
    complexity: node.complexity_score === null ? "" : String(node.complexity_score),
    criteria: (node.acceptance_criteria ?? []).join("\n"),
  });
  const [serverErrors, setServerErrors] = useState<FieldErrors<NodeField>>({});
  const [error, setError] = useState<string | null>(null);
  const update = useMutation(trpc.tasks.update.mutationOptions({ retry: false }));
  const updates = nodeUpdates(node, form);
  const unchanged = Object.keys(updates).length === 0;
  const errors: FieldErrors<NodeField> = unchanged ? {} : schemaFieldErrors(updateTaskInput, updates, FIELDS);
  const set = (key: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors({});
    setError(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || hasErrors(errors) || update.isPending) return;
    try {
      await update.mutateAsync({ id: node.id, updates });
      toast.success("Subtask updated");
      void refresh();
      onDone();
    } catch (err) {
      const fieldErrors = serverFieldErrors(err, FIELDS, "updates");
      setServerErrors(fieldErrors);
      if (!hasErrors(fieldErrors)) setError(errorDetailOf(err) ?? "Could not save the changes");
    }
  };

  const id = (f: string) => `node-${f}-${node.id}`;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={onSubmit}
      noValidate
      aria-label="Edit subtask"
      onKeyDown={(e) => {
        if (e.key === "Escape" && !update.isPending) {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <ErrorAlert message={error} />
      <Field
        as="textarea"
        id={id("description")}
        label="Description"
        hint="The first line is the title."
        required
        // Opened from "Edit Subtask", which it replaces: the keyboard continues here.
        autoFocus
        rows={5}
        error={errors.description ?? serverErrors.description}
        value={form.description}
        onChange={(e) => set("description")(e.target.value)}
      />
      <Field
        as="textarea"
        id={id("details")}
        label="Implementation details"
        optional
        rows={4}
        error={errors.implementation_details ?? serverErrors.implementation_details}
        value={form.details}
        onChange={(e) => set("details")(e.target.value)}
      />
      <Field
        as="textarea"
        id={id("criteria")}
        label="Acceptance criteria"
        hint="One per line, at most 10."
        optional
        rows={4}
        error={errors.acceptance_criteria ?? serverErrors.acceptance_criteria}
        value={form.criteria}
        onChange={(e) => set("criteria")(e.target.value)}
      />
      <div className="grid grid-cols-2 gap-2">
        <Field
          as="select"
          id={id("points")}
          label="Story points"
          error={errors.story_points ?? serverErrors.story_points}
          value={form.points}
          onChange={(e) => set("points")(e.target.value)}
        >
          <option value="">Not estimated</option>
          {STORY_POINTS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </Field>
        <Field
          id={id("complexity")}
          label="Complexity (1-10)"
          type="number"
          inputMode="numeric"
          min={1}
          max={10}
          className="input-sm"
          error={errors.complexity_score ?? serverErrors.complexity_score}
          value={form.complexity}
          onChange={(e) => set("complexity")(e.target.value)}
        />
      </div>
      <div className="flex gap-2">
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={unchanged || hasErrors(errors) || update.isPending}
        >
          {update.isPending ? "Saving..." : "Save changes"}
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onDone} disabled={update.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
