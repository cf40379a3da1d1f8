import type { ReactNode } from "react";

/** A centred "nothing here yet" panel: a heading, a sentence and optional actions. */
export function EmptyState({
  title,
  children,
  actions,
  headingLevel = 3,
  className = "",
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  headingLevel?: 2 | 3 | 4;
  className?: string;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div
      className={`flex flex-col items-center gap-2 rounded-box border border-dashed border-base-300 bg-base-200/40 px-6 py-10 text-center ${className}`}
    >
      <Heading className="text-lg font-semibold">{title}</Heading>
      {children && <div className="max-w-prose text-sm text-base-content/70">{children}</div>}
      {actions && <div className="mt-3 flex flex-wrap justify-center gap-2">{actions}</div>}
    </div>
  );
}

/** A load that failed: what failed, why (the children), and a button to try again. */
export function LoadError({
  title,
  onRetry,
  retryLabel = "Retry",
  children,
}: {
  title: string;
  onRetry: () => void;
  retryLabel?: string;
  children?: ReactNode;
}) {
  return (
    <EmptyState
      title={title}
      actions={
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          {retryLabel}
        </button>
      }
    >
      {children}
    </EmptyState>
  );
}
