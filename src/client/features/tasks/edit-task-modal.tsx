import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { EDITABLE_STATUSES, type Task, type UpdateTaskInput } from "../../../shared/schemas/tasks";
import { Modal } from "../../components/modal";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { statusBadge } from "../../lib/task-status";
import { useTRPC } from "../../lib/trpc";

type Editable = (typeof EDITABLE_STATUSES)[number];
const isEditable = (status: string): status is Editable =>
  (EDITABLE_STATUSES as readonly string[]).includes(status);

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
  const update = useMutation(trpc.tasks.update.mutationOptions({ retry: false }));

  // Each opening starts from the task as it is now.
  useEffect(() => {
    if (!open) return;
    setDescription(task.description);
    setStatus(isEditable(task.status) ? task.status : "");
    setError(null);
  }, [open, task.description, task.status]);

  const updates: UpdateTaskInput = {};
  if (description.trim() !== task.description.trim()) updates.description = description.trim();
  if (status && status !== task.status) updates.status = status as Editable;
  const unchanged = Object.keys(updates).length === 0;
  const blank = description.trim() === "";

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || blank || update.isPending) return;
    setError(null);
    try {
      const saved = await update.mutateAsync({ id: task.id, updates });
      toast.success("Task updated successfully");
      onSaved(saved);
      onClose();
    } catch (err) {
      const message = errorDetailOf(err) ?? "Failed to update task";
      setError(message);
      toast.error("Failed to update task");
    }
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Edit Task"
      size="lg"
      dismissible={!update.isPending}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={update.isPending}>
            Cancel
          </button>
          <button
            type="submit"
            form="edit-task-form"
            className="btn btn-primary"
            disabled={unchanged || blank || update.isPending}
          >
            {update.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {update.isPending ? "Saving..." : "Save"}
          </button>
        </>
      }
    >
      <form id="edit-task-form" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {error && (
          <div role="alert" className="alert alert-error text-sm">
            {error}
          </div>
        )}
        <div>
          <label htmlFor="edit-task-description" className="label mb-1 text-sm font-medium text-base-content">
            Description
          </label>
          <textarea
            id="edit-task-description"
            className={`textarea w-full ${blank ? "textarea-error" : ""}`}
            rows={8}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={blank ? true : undefined}
            aria-describedby={blank ? "edit-task-description-error" : undefined}
            required
          />
          {blank && (
            <p id="edit-task-description-error" className="mt-1 text-sm text-error">
              Please enter a task description
            </p>
          )}
        </div>
        <div>
          <label htmlFor="edit-task-status" className="label mb-1 text-sm font-medium text-base-content">
            Status
          </label>
          <select
            id="edit-task-status"
            className="select w-full"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            {!isEditable(task.status) && (
              <option value="">Keep current ({statusBadge(task.status, "detail").label})</option>
            )}
            {EDITABLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusBadge(s).label}
              </option>
            ))}
          </select>
        </div>
      </form>
    </Modal>
  );
}
