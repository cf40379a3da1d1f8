import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { useTopmostDialog } from "./top-layer";

/**
 * Notifications (toasts): top right, auto-hide after 5 s except errors. Above everything, an open modal
 * dialog included: while one is open they render inside it (the rest of the page is inert then).
 */
export type ToastType = "success" | "error" | "warning" | "info";

export type ToastOptions = {
  title?: string;
  /** Milliseconds before it hides; null keeps it until closed. Default 5000, errors stay. */
  duration?: number | null;
  isClosable?: boolean;
  /** Reusing an id replaces the toast that has it. */
  id?: string;
};

export type Toast = {
  id: string;
  type: ToastType;
  message: string;
  title?: string;
  duration: number | null;
  isClosable: boolean;
  timestamp: number;
};

export type ToastApi = {
  show: (type: ToastType, message: string, options?: ToastOptions) => string;
  success: (message: string, options?: ToastOptions) => string;
  error: (message: string, options?: ToastOptions) => string;
  warning: (message: string, options?: ToastOptions) => string;
  info: (message: string, options?: ToastOptions) => string;
  dismiss: (id: string) => void;
  clear: () => void;
};

export const TOAST_DURATION_MS = 5_000;
/** At most two at once (issue 40: five piled up after saving hours); an error outlives the others. */
export const MAX_TOASTS = 2;

/** The list with `toast` added, kept to MAX_TOASTS: the oldest that is not an error goes first. */
export function withToast<T extends { id: string; type: string }>(list: T[], toast: T): T[] {
  const next = [...list.filter((t) => t.id !== toast.id), toast];
  while (next.length > MAX_TOASTS) {
    const i = next.findIndex((t) => t.type !== "error");
    next.splice(i >= 0 && i < next.length - 1 ? i : 0, 1);
  }
  return next;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used inside <ToastProvider>");
  return api;
}

let nextId = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);

  const dismiss = useCallback((id: string) => setToasts((list) => list.filter((t) => t.id !== id)), []);

  const api = useMemo<ToastApi>(() => {
    const show = (type: ToastType, message: string, options: ToastOptions = {}) => {
      const id = options.id ?? `toast-${++nextId}`;
      const toast: Toast = {
        id,
        type,
        message,
        ...(options.title ? { title: options.title } : {}),
        duration:
          options.duration !== undefined ? options.duration : type === "error" ? null : TOAST_DURATION_MS,
        isClosable: options.isClosable ?? true,
        timestamp: Date.now(),
      };
      setToasts((list) => withToast(list, toast));
      return id;
    };
    return {
      show,
      success: (message, options) => show("success", message, options),
      error: (message, options) => show("error", message, options),
      warning: (message, options) => show("warning", message, options),
      info: (message, options) => show("info", message, options),
      dismiss,
      clear: () => setToasts([]),
    };
  }, [dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastViewport toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

const ALERT_CLASS: Record<ToastType, string> = {
  success: "alert-success",
  error: "alert-error",
  warning: "alert-warning",
  info: "alert-info",
};

function ToastViewport({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: string) => void }) {
  const dialog = useTopmostDialog();
  if (toasts.length === 0 || typeof document === "undefined") return null;
  return createPortal(
    <section
      aria-label="Notifications"
      // Bottom corner: never over the navigation or the page's header (issue 40).
      className="toast toast-bottom toast-end z-[1000] max-w-[calc(100vw-1rem)]"
      data-testid="toast-region"
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} onDismiss={onDismiss} />
      ))}
    </section>,
    dialog ?? document.body,
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;

  // From when it was shown: moving into or out of a dialog remounts it, which must not restart the clock.
  useEffect(() => {
    if (toast.duration === null) return;
    const left = Math.max(0, toast.timestamp + toast.duration - Date.now());
    const timer = setTimeout(() => dismissRef.current(toast.id), left);
    return () => clearTimeout(timer);
  }, [toast.id, toast.duration, toast.timestamp]);

  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      aria-live={toast.type === "error" ? "assertive" : "polite"}
      className={`alert ${ALERT_CLASS[toast.type]} w-80 max-w-full items-start whitespace-normal text-left shadow-lg sm:w-96`}
    >
      <div className="min-w-0 flex-1">
        {toast.title && <p className="font-semibold">{toast.title}</p>}
        <p className="break-words text-sm">{toast.message}</p>
      </div>
      {toast.isClosable && (
        <button
          type="button"
          className="btn btn-ghost btn-xs btn-circle"
          aria-label="Close notification"
          onClick={() => onDismiss(toast.id)}
        >
          <span aria-hidden="true">✕</span>
        </button>
      )}
    </div>
  );
}
