import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  EDITABLE_STATUSES,
  type Task,
  type UpdateTaskInput,
  updateTaskInput,
} from "../../../../shared/schemas/tasks";
import { ErrorAlert } from "../../../components/error-alert";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { type FieldErrors, hasErrors, schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { statusBadge } from "../../../lib/task-status";
import { useTRPC } from "../../../lib/trpc";

type Editable = (typeof EDITABLE_STATUSES)[number];
const isEditable = (status: string): status is Editable =>
  (EDITABLE_STATUSES as readonly string[]).includes(status);

type EditField = "description" | "status";
const FIELDS: Record<string, EditField> = { description: "description", status: "status" };

/** Edits a task's description and (hand-settable) status. */
export function EditTaskModal({
  open,
  task,
  onClose,
  onSaved,
}: {
  open: boolean;
  task: Task;
  onClose: () => void;
  onSaved: (task: Task) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const [description, setDescription] = useState(task.description);
  const [status, setStatus] = useState<string>(isEditable(task.status) ? task.status : "");
  const [error, setError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<FieldErrors<EditField>>({});
  const update = useMutation(trpc.tasks.update.mutationOptions({ retry: false }));

  // Each opening starts from the task as it is now.
  useEffect(() => {
    if (!open) return;
    setDescription(task.description);
    setStatus(isEditable(task.status) ? task.status : "");
    setError(null);
    setServerErrors({});
  }, [open, task.description, task.status]);

  const updates: UpdateTaskInput = {};
  if (description.trim() !== task.description.trim()) updates.description = description.trim();
  if (status && status !== task.status) updates.status = status as Editable;
  const unchanged = Object.keys(updates).length === 0;
  // Checked as the user types, with updateTaskInput (an unchanged form is simply not sent).
  const errors: FieldErrors<EditField> = unchanged ? {} : schemaFieldErrors(updateTaskInput, updates, FIELDS);
  const descriptionError = errors.description ?? serverErrors.description;
  const statusError = errors.status ?? serverErrors.status;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || hasErrors(errors) || update.isPending) return;
    setError(null);
    setServerErrors({});
    try {
      const saved = await update.mutateAsync({ id: task.id, updates });
      toast.success("Task updated successfully");
      onSaved(saved);
      onClose();
    } catch (err) {
      const fieldErrors = serverFieldErrors(err, FIELDS, "updates");
      setServerErrors(fieldErrors);
      const message = errorDetailOf(err) ?? "Failed to update task";
      if (!hasErrors(fieldErrors)) setError(message);
      toast.error("Failed to update task");
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Edit Task"
      size="lg"
      formId="edit-task-form"
      formClassName="flex flex-col gap-4"
      onSubmit={onSubmit}
      submitLabel={update.isPending ? "Saving..." : "Save"}
      pending={update.isPending}
      submitDisabled={unchanged || hasErrors(errors)}
    >
      <ErrorAlert message={error} />
      <Field
        as="textarea"
        id="edit-task-description"
        label="Description"
        required
        error={descriptionError}
        rows={8}
        value={description}
        onChange={(e) => {
          setDescription(e.target.value);
          setServerErrors({});
        }}
      />
      <Field
        as="select"
        id="edit-task-status"
        label="Status"
        error={statusError}
        value={status}
        onChange={(e) => {
          setStatus(e.target.value);
          setServerErrors({});
        }}
      >
        {!isEditable(task.status) && (
          <option value="">Keep current ({statusBadge(task.status, "detail").label})</option>
        )}
        {EDITABLE_STATUSES.map((s) => (
          <option key={s} value={s}>
            {statusBadge(s).label}
          </option>
        ))}
      </Field>
    </FormModal>
  );
}
