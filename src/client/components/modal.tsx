import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { enterTopLayer, leaveTopLayer } from "./top-layer";

const SIZES = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-3xl", xl: "max-w-5xl" } as const;

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons shown at the bottom (daisyUI modal-action). */
  actions?: ReactNode;
  size?: keyof typeof SIZES;
  /** Whether Escape, the ✕ button and a backdrop click close it (default true); off while a request runs. */
  dismissible?: boolean;
};

/**
 * A modal dialog on the native <dialog> element: showModal() puts it in the top layer and makes the
 * rest of the page inert (the focus trap), Escape closes it, and so does a click on the backdrop. While
 * it is the topmost, the toasts render inside it (components/top-layer.ts), above it and clickable.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  actions,
  size = "md",
  dismissible = true,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const dismissibleRef = useRef(dismissible);
  dismissibleRef.current = dismissible;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Escape fires "cancel", then the browser closes the dialog; "close" tells the parent.
    const onCancel = (event: Event) => {
      if (!dismissibleRef.current) event.preventDefault();
    };
    const onNativeClose = () => {
      // A late event from a close() we made ourselves (StrictMode re-runs effects) finds it open again.
      if (dialog.open) return;
      leaveTopLayer(dialog);
      onCloseRef.current();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onNativeClose);
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    enterTopLayer(dialog);
    return () => {
      leaveTopLayer(dialog);
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onNativeClose);
      if (dialog.open) {
        if (typeof dialog.close === "function") dialog.close();
        else dialog.removeAttribute("open");
      }
      returnFocus?.focus();
    };
  }, [open]);

  if (!open) return null;

  const dismiss = () => {
    if (dismissibleRef.current) onCloseRef.current();
  };

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-modal="true"
      aria-labelledby={titleId}
    >
      <div className={`modal-box ${SIZES[size]}`}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-bold">
            {title}
          </h2>
          {dismissible && (
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-circle"
              aria-label="Close dialog"
              onClick={dismiss}
            >
              <span aria-hidden="true">✕</span>
            </button>
          )}
        </div>
        <div>{children}</div>
        {actions && <div className="modal-action">{actions}</div>}
      </div>
      <div className="modal-backdrop">
        <button type="button" tabIndex={-1} aria-hidden="true" className="cursor-default" onClick={dismiss}>
          close
        </button>
      </div>
    </dialog>
  );
}

export type FormModalProps = Omit<ModalProps, "actions" | "dismissible"> & {
  /** The form's id, which the submit button among the modal's actions names. */
  formId: string;
  formClassName?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** What the submit button says; it shows a spinner while `pending`. */
  submitLabel: ReactNode;
  /** The submit button's colour class. */
  submitClassName?: string;
  /** A request runs: Cancel and the submit button are off, and nothing dismisses the modal. */
  pending: boolean;
  /** The submit button is off for another reason too (e.g. nothing to send). */
  submitDisabled?: boolean;
};

/** A form in a modal, with Cancel and its submit button at the bottom. */
export function FormModal({
  formId,
  formClassName,
  onSubmit,
  submitLabel,
  submitClassName = "btn-primary",
  pending,
  submitDisabled = false,
  children,
  ...modal
}: FormModalProps) {
  return (
    <Modal
      {...modal}
      dismissible={!pending}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={modal.onClose} disabled={pending}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className={`btn ${submitClassName}`}
            disabled={submitDisabled || pending}
          >
            {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}
