import { ConfirmModal } from "./confirm-modal";

export type DeleteTaskModalProps = {
  open: boolean;
  /** The confirmation sentence (lib/task-text: deleteTaskConfirmation / deleteSubtaskConfirmation). */
  message: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  title?: string;
};

/** Deleting a task (and its subtasks): Cancel or Delete; nothing can dismiss it while the delete runs. */
export function DeleteTaskModal({ title = "Delete Task", ...props }: DeleteTaskModalProps) {
  return (
    <ConfirmModal {...props} title={title} confirmLabel="Delete" pendingLabel="Deleting..." tone="danger" />
  );
}
