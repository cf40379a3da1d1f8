import { useMutation } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useReducer, useRef, useState } from "react";
import type { ExportKind, ExportMessage } from "../../../../shared/schemas/integrations";
import { useToast } from "../../../components/toast";
import { apiErrorData, errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import {
  EXPORT_CONNECTION_ERROR,
  EXPORT_SUCCESS_DELAY_MS,
  exportReducer,
  failureToast,
  initialExportState,
  successToast,
} from "./export-state";

/**
 * Watches one export: subscribes to `exports.events` (which starts with the export's current state, so
 * this works after a reload too), folds the messages, and runs the callbacks: on success the
 * result shows (and its toast) 1 s later; on failure the failure toast. `notified` says the outcome's
 * toast was shown already (the session remembers it), `onNotified` records that it now was.
 */
export function useExportProgress({
  id,
  kind,
  notified,
  onNotified,
  onGone,
}: {
  id: string;
  kind: ExportKind;
  notified: boolean;
  onNotified: (notified: boolean) => void;
  /** The server does not know the export (deleted with its task, or another account's): forget it. */
  onGone: () => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const [state, dispatch] = useReducer(exportReducer, initialExportState);
  const [showResult, setShowResult] = useState(false);
  const onGoneRef = useRef(onGone);
  onGoneRef.current = onGone;

  const subscription = useSubscription(
    trpc.exports.events.subscriptionOptions(
      { id },
      {
        onData: (tracked) => dispatch({ type: "message", kind, message: tracked.data as ExportMessage }),
        onError: (err) => {
          if (apiErrorData(err)?.code === "NOT_FOUND") onGoneRef.current();
          else dispatch({ type: "connection_error" });
        },
      },
    ),
  );

  const notifiedRef = useRef(notified);
  notifiedRef.current = notified;
  const onNotifiedRef = useRef(onNotified);
  onNotifiedRef.current = onNotified;

  // The success callback fires 1 s after the success message.
  const result = state.result;
  useEffect(() => {
    if (state.phase !== "success" || !result) {
      setShowResult(false);
      return;
    }
    const timer = setTimeout(() => {
      setShowResult(true);
      if (!notifiedRef.current) {
        notifiedRef.current = true;
        toast.success(successToast(kind, result));
        onNotifiedRef.current(true);
      }
    }, EXPORT_SUCCESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.phase, result, kind, toast]);

  // A failure of the export itself (not of the connection) gets its failure toast, once.
  useEffect(() => {
    if (state.phase !== "error" || !state.error || state.error === EXPORT_CONNECTION_ERROR) return;
    if (notifiedRef.current) return;
    notifiedRef.current = true;
    toast.error(failureToast(kind, state.error));
    onNotifiedRef.current(true);
  }, [state.phase, state.error, kind, toast]);

  const retryMutation = useMutation(trpc.exports.retry.mutationOptions({ retry: false }));
  const [retryError, setRetryError] = useState<string | null>(null);

  /** A lost connection reconnects; a failed export runs again (exports.retry) and is watched again. */
  const retry = async () => {
    setRetryError(null);
    if (state.error === EXPORT_CONNECTION_ERROR) {
      subscription.reset();
      return;
    }
    try {
      await retryMutation.mutateAsync({ id });
      onNotifiedRef.current(false);
      notifiedRef.current = false;
      dispatch({ type: "retrying" });
      // The server's stream ended with the failure: start a new one.
      subscription.reset();
    } catch (err) {
      const message = errorDetailOf(err) ?? "Could not retry the export. Please try again.";
      setRetryError(message);
      toast.error(failureToast(kind, message));
    }
  };

  return {
    state,
    showResult: showResult && state.phase === "success",
    retry,
    retrying: retryMutation.isPending,
    retryError,
  };
}

export type ExportProgressApi = ReturnType<typeof useExportProgress>;
