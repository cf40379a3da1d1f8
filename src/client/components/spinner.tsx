const SIZES = { xs: "loading-xs", sm: "loading-sm", md: "loading-md", lg: "loading-lg" } as const;

export type SpinnerProps = {
  size?: keyof typeof SIZES;
  /** Visible text next to the spinner; without it the spinner is announced as "Loading". */
  label?: string;
  className?: string;
};

export function Spinner({ size = "md", label, className = "" }: SpinnerProps) {
  return (
    <span role="status" aria-live="polite" className={`inline-flex items-center gap-3 ${className}`}>
      <span className={`loading loading-spinner text-primary ${SIZES[size]}`} aria-hidden="true" />
      {label ? <span>{label}</span> : <span className="sr-only">Loading</span>}
    </span>
  );
}

/** A spinner centred in the page area, e.g. while a route chunk or the auth state loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    // A screen tall: the footer starts below the fold while a page loads, so it does not jump when the
    // page arrives (a layout shift of the whole footer on a phone).
    <div className="flex min-h-screen items-center justify-center p-8">
      <Spinner size="lg" {...(label ? { label } : {})} />
    </div>
  );
}

/** A spinner centred in a block at least `minHeight` tall, while a tab or a section loads. */
export function BlockSpinner({ label, minHeight = "min-h-40" }: { label: string; minHeight?: string }) {
  return (
    <div className={`flex ${minHeight} items-center justify-center`}>
      <Spinner label={label} />
    </div>
  );
}
