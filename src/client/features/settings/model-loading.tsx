import { getErrorMessage } from "../../lib/api-error";

/** A spinner while one of the AI model tab's parts loads. */
export function Loading({ label }: { label: string }) {
  return (
    <div className="flex min-h-24 items-center justify-center">
      <span className="loading loading-spinner" role="status" aria-label={label} />
    </div>
  );
}

/** A provider that failed to load: the error and a way to ask again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="alert alert-error">
      <span>{getErrorMessage(error)}</span>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
