import { useSyncExternalStore } from "react";
import { listenerSet } from "../lib/listeners";

/**
 * The modal dialogs open now, the topmost last. A modal <dialog> (showModal) sits in the browser's top
 * layer and makes everything outside it inert, so what must stay above it and usable (the toasts) is
 * rendered inside the topmost one (components/toast.tsx).
 */
const open: HTMLDialogElement[] = [];
const listeners = listenerSet();
const changed = listeners.notify;

/** Called by Modal once its dialog is shown with showModal(). */
export function enterTopLayer(dialog: HTMLDialogElement): void {
  const i = open.indexOf(dialog);
  if (i >= 0) open.splice(i, 1);
  open.push(dialog);
  changed();
}

/** Called by Modal when its dialog closes or unmounts. */
export function leaveTopLayer(dialog: HTMLDialogElement): void {
  const i = open.indexOf(dialog);
  if (i < 0) return;
  open.splice(i, 1);
  changed();
}

export function topmostDialog(): HTMLDialogElement | null {
  return open.at(-1) ?? null;
}

/** The topmost open modal dialog (null when none is open, and on the server), re-rendering as it changes. */
export function useTopmostDialog(): HTMLDialogElement | null {
  return useSyncExternalStore(listeners.subscribe, topmostDialog, () => null);
}
