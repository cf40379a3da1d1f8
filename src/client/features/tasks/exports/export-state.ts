import { EXPORT_LABELS, type ExportKind, type ExportMessage } from "../../../../shared/schemas/integrations";
import type { Task } from "../../../../shared/schemas/tasks";

/** What every export dialog gets: whether it is open, the task, and what to do once its export started. */
export type ExportModalProps = {
  open: boolean;
  onClose: () => void;
  task: Task;
  onStarted: (exportId: string) => void;
};

/** The success callback fires 1 s after the success message. */
export const EXPORT_SUCCESS_DELAY_MS = 1_000;

export const EXPORT_FAILED_TITLE = "Export Failed";
export const EXPORT_FAILED_DEFAULT = "Export failed";
export const EXPORT_CONNECTION_ERROR = "Connection error during export";

export type ExportPhase = "connecting" | "running" | "success" | "error";

export type ExportResult = {
  count: number | null;
  /** Project key, board name or repository. */
  name: string | null;
  url: string | null;
  confluencePages: number | null;
  /** What the export could not do and says so (no Confluence, cut descriptions, no "Blocks" links). */
  warnings: string[];
};

/** The result's warnings: strings only, a few, each of bounded length (they come from a third party's site). */
function warningsOf(data: Record<string, unknown>): string[] {
  const raw = Array.isArray(data.warnings) ? data.warnings : [];
  return raw
    .filter((w): w is string => typeof w === "string" && w.length > 0)
    .slice(0, 10)
    .map((w) => w.slice(0, 500));
}

export type ExportProgressState = {
  phase: ExportPhase;
  step: string | null;
  /** 0-100, never lower than before. */
  progress: number;
  message: string | null;
  result: ExportResult | null;
  error: string | null;
};

export const initialExportState: ExportProgressState = {
  phase: "connecting",
  step: null,
  progress: 0,
  message: null,
  result: null,
  error: null,
};

const STEP_LABELS: Record<string, string> = {
  queued: "Waiting to start",
  retry: "Retrying",
  project_creation: "Creating project",
  issue_creation: "Creating issues",
  label_update: "Updating labels",
  board_creation: "Creating board",
  list_creation: "Creating lists",
  card_creation: "Creating cards",
  label_creation: "Creating labels",
  completion: "Finishing up",
};

/** project_creation → 'Creating project'; an unknown step reads as words. */
export function humanizeStep(step: string | null | undefined): string {
  if (!step) return "Starting";
  const known = STEP_LABELS[step];
  if (known) return known;
  const words = step.replace(/[_.-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Working";
}

function clampPercent(value: unknown): number | null {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return null;
  return Math.min(100, Math.max(0, Math.round(n)));
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : null);

/** Only http(s) links are offered (a result URL comes from a third party through the server). */
export function safeUrl(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  try {
    const url = new URL(s);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The export channel's success payload, per kind. */
export function resultOf(kind: ExportKind, data: Record<string, unknown>): ExportResult {
  if (kind === "jira") {
    return {
      count: num(data.issues_created),
      name: str(data.project_key),
      url: safeUrl(data.project_url),
      confluencePages: num(data.confluence_pages),
      warnings: warningsOf(data),
    };
  }
  if (kind === "trello") {
    return {
      count: num(data.cards_created),
      name: str(data.board_name),
      url: safeUrl(data.board_url),
      confluencePages: null,
      warnings: warningsOf(data),
    };
  }
  return {
    count: num(data.issues_created),
    name: str(data.repository),
    url: safeUrl(data.repository_url),
    confluencePages: null,
    warnings: warningsOf(data),
  };
}

export type ExportAction =
  | { type: "message"; kind: ExportKind; message: ExportMessage }
  | { type: "connection_error" }
  | { type: "retrying" }
  | { type: "reset" };

/** Folds the export channel's messages into what the dialog shows. */
export function exportReducer(state: ExportProgressState, action: ExportAction): ExportProgressState {
  switch (action.type) {
    case "reset":
      return initialExportState;
    case "retrying":
      return { ...state, phase: "running", error: null, message: "Retrying", result: null };
    case "connection_error":
      // A finished export stays finished; only a live one loses its connection.
      if (state.phase === "success" || state.phase === "error") return state;
      return { ...state, phase: "error", error: EXPORT_CONNECTION_ERROR };
    case "message": {
      const m = action.message;
      const type = m.type;
      if (type === "connection_established") {
        return state.phase === "connecting" || state.error === EXPORT_CONNECTION_ERROR
          ? { ...state, phase: "running", error: null }
          : state;
      }
      if (type.endsWith(".export.progress")) {
        const p = m as { step?: unknown; progress?: unknown; message?: unknown };
        // A late progress message does not undo a finish.
        if (state.phase === "success") return state;
        const percent = clampPercent(p.progress);
        return {
          ...state,
          phase: state.phase === "error" && state.error !== EXPORT_CONNECTION_ERROR ? "error" : "running",
          error: state.phase === "error" && state.error !== EXPORT_CONNECTION_ERROR ? state.error : null,
          step: str(p.step) ?? state.step,
          progress: percent === null ? state.progress : Math.max(state.progress, percent),
          message: typeof p.message === "string" && p.message !== "" ? p.message : state.message,
        };
      }
      if (type.endsWith(".export.success")) {
        const { type: _t, ...data } = m as Record<string, unknown>;
        return {
          ...state,
          phase: "success",
          step: "completion",
          progress: 100,
          error: null,
          result: resultOf(action.kind, data),
        };
      }
      if (type.endsWith(".export.error")) {
        const message = str((m as { message?: unknown }).message) ?? EXPORT_FAILED_DEFAULT;
        return { ...state, phase: "error", error: message, message };
      }
      return state;
    }
  }
}

/** Exports: the success toast, in each tracker's words (a new tracker adds its own: the typecheck asks). */
const SUCCESS: Record<ExportKind, (n: number, name: string | undefined) => string> = {
  jira: (n) => `Successfully created JIRA project with ${n} issues`,
  trello: (n) => `Successfully created Trello board with ${n} cards`,
  github: (n, name) => `Successfully created ${n} GitHub issues${name ? ` in ${name}` : ""}`,
};

export function successToast(kind: ExportKind, result: ExportResult): string {
  return SUCCESS[kind](result.count ?? 0, result.name ?? undefined);
}

/** Exports: the failure toast (default 'Unknown error'). */
export function failureToast(kind: ExportKind, message: string | null | undefined): string {
  return `${EXPORT_LABELS[kind]} export failed: ${message?.trim() || "Unknown error"}`;
}

export const RESULT_LINK_LABEL: Record<ExportKind, string> = {
  jira: "Open project in JIRA",
  trello: "Open board in Trello",
  github: "Open issues on GitHub",
};

export function dialogTitle(kind: ExportKind, phase: ExportPhase): string {
  if (phase === "error") return EXPORT_FAILED_TITLE;
  if (phase === "success") return "Export Complete";
  return `Exporting to ${EXPORT_LABELS[kind]}`;
}
