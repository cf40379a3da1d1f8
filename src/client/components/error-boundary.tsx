import { Component, type ErrorInfo, type ReactNode } from "react";
import { retryFailedPages } from "../lib/lazy-page";

export type ErrorBoundaryProps = {
  children: ReactNode;
  /** Changing any of these clears the error (e.g. the location, so navigating away recovers). */
  resetKeys?: unknown[];
  onReset?: () => void;
};

type State = { error: Error | null };

/** A generic error panel titled 'Something went wrong' with a 'Try Again' button. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("[atomize] render error", error, info.componentStack);
  }

  override componentDidUpdate(prev: ErrorBoundaryProps): void {
    if (this.state.error && !sameKeys(prev.resetKeys, this.props.resetKeys)) this.reset();
  }

  reset = () => {
    retryFailedPages();
    this.props.onReset?.();
    this.setState({ error: null });
  };

  override render() {
    if (!this.state.error) return this.props.children;
    return <ErrorPanel error={this.state.error} onRetry={this.reset} />;
  }
}

function sameKeys(a: unknown[] = [], b: unknown[] = []): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

export function ErrorPanel({ error, onRetry }: { error?: Error | null; onRetry: () => void }) {
  const isChunk = error?.name === "ChunkLoadError";
  return (
    <div role="alert" className="mx-auto my-12 max-w-lg px-4">
      <div className="card border border-error/40 bg-base-200 shadow">
        <div className="card-body items-center text-center">
          <h2 className="card-title text-error">Something went wrong</h2>
          <p className="text-base-content/80">
            {isChunk
              ? "Part of the application could not be loaded. Please check your connection and try again."
              : "An unexpected error occurred while showing this page."}
          </p>
          <div className="card-actions mt-2">
            <button type="button" className="btn btn-primary" onClick={onRetry}>
              Try Again
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
