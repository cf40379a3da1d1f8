import { Modal } from "./modal";

export type ConfirmModalProps = {
  open: boolean;
  title: string;
  /** The question, e.g. 'Are you sure you want to delete this post?'. */
  message: string;
  confirmLabel: string;
  /** Shown on the confirm button while `pending`, e.g. "Deleting...". */
  pendingLabel?: string;
  /** Destructive actions use the error colour. */
  tone?: "danger" | "primary";
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** A yes/no question in a modal: Cancel or the action; nothing can dismiss it while the action runs. */
export function ConfirmModal({
  open,
  title,
  message,
  confirmLabel,
  pendingLabel,
  tone = "danger",
  pending = false,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
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
          <button
            type="button"
            className={`btn ${tone === "danger" ? "btn-error" : "btn-primary"}`}
            onClick={onConfirm}
            disabled={pending}
          >
            {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {pending ? (pendingLabel ?? confirmLabel) : confirmLabel}
          </button>
        </>
      }
    >
      <p className="break-words">{message}</p>
    </Modal>
  );
}
