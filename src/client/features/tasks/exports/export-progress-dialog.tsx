import { useEffect, useId, useRef, useState } from "react";
import { EXPORT_LABELS, type ExportKind } from "../../../../shared/schemas/integrations";
import { Modal } from "../../../components/modal";
import {
  dialogTitle,
  EXPORT_CONNECTION_ERROR,
  EXPORT_FAILED_DEFAULT,
  humanizeStep,
  RESULT_LINK_LABEL,
} from "./export-state";
import { type ExportProgressApi, useExportProgress } from "./use-export-progress";

function ResultSummary({ kind, api }: { kind: ExportKind; api: ExportProgressApi }) {
  const r = api.state.result;
  if (!r) return null;
  const n = r.count ?? 0;
  return (
    <div className="flex flex-col gap-3" data-testid="export-result">
      <p className="font-medium">
        {kind === "jira" && (
          <>
            Created {n} {n === 1 ? "issue" : "issues"}
            {r.name ? ` in project ${r.name}` : ""}
            {r.confluencePages ? ` and ${r.confluencePages} Confluence pages` : ""}.
          </>
        )}
        {kind === "trello" && (
          <>
            Created {n} {n === 1 ? "card" : "cards"}
            {r.name ? ` on the board ${r.name}` : ""}.
          </>
        )}
        {kind === "github" && (
          <>
            Created {n} {n === 1 ? "issue" : "issues"}
            {r.name ? ` in ${r.name}` : ""}.
          </>
        )}
      </p>
      {r.warnings.length > 0 && (
        <ul
          role="status"
          className="alert alert-warning alert-soft flex flex-col items-start gap-1 text-sm"
          data-testid="export-warnings"
        >
          {r.warnings.map((w) => (
            <li key={w} className="break-words">
              {w}
            </li>
          ))}
        </ul>
      )}
      {r.url && (
        <a
          className="btn btn-primary btn-sm self-start"
          href={r.url}
          target="_blank"
          rel="noopener noreferrer"
        >
          {RESULT_LINK_LABEL[kind]}
          <span aria-hidden="true">↗</span>
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      )}
    </div>
  );
}

/** The export progress dialog: step, a bar that never goes back, the message; result or failure. */
export function ExportProgressDialog({
  open,
  onClose,
  kind,
  api,
}: {
  open: boolean;
  onClose: () => void;
  kind: ExportKind;
  api: ExportProgressApi;
}) {
  const { state } = api;
  const labelId = useId();
  const failed = state.phase === "error";
  const finished = state.phase === "success" && api.showResult;
  const error = state.error ?? EXPORT_FAILED_DEFAULT;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={dialogTitle(kind, state.phase)}
      actions={
        <>
          {failed && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void api.retry()}
              disabled={api.retrying}
            >
              {api.retrying && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              Retry
            </button>
          )}
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {state.phase === "running" || state.phase === "connecting" ? "Hide" : "Close"}
          </button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <p className="text-sm text-base-content/70">
          {EXPORT_LABELS[kind]} export
          {state.phase === "running" || state.phase === "connecting"
            ? " - you can close this dialog, the export keeps running."
            : ""}
        </p>
        <div>
          <div className="mb-1 flex items-center justify-between gap-3 text-sm">
            <span id={labelId} className="font-medium" data-testid="export-step">
              {state.phase === "connecting"
                ? "Connecting..."
                : state.phase === "success"
                  ? "Completed"
                  : humanizeStep(state.step)}
            </span>
            <span className="tabular-nums text-base-content/70">{state.progress}%</span>
          </div>
          <progress
            className={`progress w-full ${failed ? "progress-error" : state.phase === "success" ? "progress-success" : "progress-primary"}`}
            value={state.progress}
            max={100}
            aria-labelledby={labelId}
            aria-valuetext={`${state.progress}%`}
          />
        </div>

        <div aria-live="polite" className="min-h-6 text-sm">
          {failed ? (
            <div role="alert" className="alert alert-error alert-soft text-sm">
              <span className="break-words">{error}</span>
            </div>
          ) : finished ? (
            <ResultSummary kind={kind} api={api} />
          ) : (
            state.message && <p className="break-words text-base-content/80">{state.message}</p>
          )}
        </div>
        {failed && state.error === EXPORT_CONNECTION_ERROR && (
          <p className="text-xs text-base-content/60">
            The export may still be running on the server. Retry reconnects to it.
          </p>
        )}
        {api.retryError && <p className="text-sm text-error">{api.retryError}</p>}
      </div>
    </Modal>
  );
}

const PILL_TEXT = { running: "Export in progress", success: "Export finished", error: "Export stopped" };

/**
 * One remembered export: watches it, shows a small pill that (re)opens its dialog, and the dialog.
 * `initiallyOpen`: just started from here (a reload shows the pill only).
 */
export function ExportWatcher({
  id,
  kind,
  notified,
  open,
  onOpenChange,
  onNotified,
  onForget,
}: {
  id: string;
  kind: ExportKind;
  notified: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onNotified: (notified: boolean) => void;
  onForget: () => void;
}) {
  const api = useExportProgress({ id, kind, notified, onNotified, onGone: onForget });
  const phase = api.state.phase;
  const pill = phase === "success" ? "success" : phase === "error" ? "error" : "running";
  // Closed once it succeeded: done with it, but the success callback (1 s later) still runs first.
  const [closedDone, setClosedDone] = useState(false);
  const onForgetRef = useRef(onForget);
  onForgetRef.current = onForget;
  useEffect(() => {
    if (closedDone && api.showResult) onForgetRef.current();
  }, [closedDone, api.showResult]);
  const close = () => {
    onOpenChange(false);
    if (phase === "success") setClosedDone(true);
  };

  return (
    <>
      {!open && !closedDone && (
        <span className="join" data-testid="export-pill">
          <button
            type="button"
            className={`btn btn-xs join-item ${
              pill === "error"
                ? "btn-error btn-outline"
                : pill === "success"
                  ? "btn-success btn-outline"
                  : "btn-info btn-soft"
            }`}
            onClick={() => onOpenChange(true)}
          >
            {pill === "running" && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {PILL_TEXT[pill]}
            <span className="sr-only"> ({EXPORT_LABELS[kind]})</span>
            <span aria-hidden="true" className="opacity-70">
              · {EXPORT_LABELS[kind]}
            </span>
          </button>
          {pill !== "running" && (
            <button
              type="button"
              className="btn btn-xs btn-ghost join-item"
              aria-label={`Dismiss ${EXPORT_LABELS[kind]} export status`}
              onClick={onForget}
            >
              <span aria-hidden="true">✕</span>
            </button>
          )}
        </span>
      )}
      <ExportProgressDialog open={open} onClose={close} kind={kind} api={api} />
    </>
  );
}
