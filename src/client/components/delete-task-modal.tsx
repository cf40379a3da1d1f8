import { Modal } from "./modal";

export type DeleteTaskModalProps = {
  open: boolean;
  /** The confirmation sentence (lib/task-text: deleteTaskConfirmation / deleteSubtaskConfirmation). */
  message: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  title?: string;
};

/** Spec 2 "Delete Task confirmation": Cancel or Delete; nothing can dismiss it while the delete runs. */
export function DeleteTaskModal({
  open,
  message,
  onConfirm,
  onClose,
  pending = false,
  title = "Delete Task",
}: DeleteTaskModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      dismissible={!pending}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="button" className="btn btn-error" onClick={onConfirm} disabled={pending}>
            {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {pending ? "Deleting..." : "Delete"}
          </button>
        </>
      }
    >
      <p className="break-words">{message}</p>
    </Modal>
  );
}
