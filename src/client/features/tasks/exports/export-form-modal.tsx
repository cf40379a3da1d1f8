import type { FormEvent, ReactNode } from "react";
import { Modal } from "../../../components/modal";

/** The shell every export dialog shares: a form in a modal with Cancel and a submit that shows it is starting. */
export function ExportFormModal(props: {
  open: boolean;
  onClose: () => void;
  title: string;
  formId: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  size?: "lg";
  children: ReactNode;
}) {
  const { open, onClose, title, formId, submitLabel, pending, onSubmit, size, children } = props;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      {...(size ? { size } : {})}
      dismissible={!pending}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={pending}>
            {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {pending ? "Starting..." : submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}
