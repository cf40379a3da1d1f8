import { useEffect, useRef } from "react";

/**
 * The app's one pagination: the page arithmetic, the step back from a page left empty, and the
 * Previous / numbered / Next navigation (the dashboard, the blog and the blog admin's tables).
 */

/** At most this many numbered page buttons, in a window around the current page (as on the dashboard). */
export const MAX_PAGE_BUTTONS = 5;

export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page a `?page=` value asks for: a whole number from 1, else 1. */
export function pageFromParam(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * When the current page has become empty while items remain (its last item was deleted, or a stale
 * link points past the end), the page to go to instead: the last one that has items. Null to stay.
 */
export function pageAfterEmptying(
  page: number,
  shown: number,
  total: number,
  pageSize: number,
): number | null {
  if (shown > 0 || total === 0 || page <= 1) return null;
  return Math.min(page - 1, totalPages(total, pageSize));
}

/**
 * Goes to {@link pageAfterEmptying}'s page when the shown page is empty. `shown` is null while the page
 * is loading (or showing the previous page's items as a placeholder): nothing is decided then.
 */
export function useStepBackWhenEmpty(
  view: { page: number; shown: number | null; total: number; pageSize: number },
  goTo: (page: number) => void,
): void {
  const { page, shown, total, pageSize } = view;
  const target = shown === null ? null : pageAfterEmptying(page, shown, total, pageSize);
  const goToRef = useRef(goTo);
  goToRef.current = goTo;
  useEffect(() => {
    if (target !== null) goToRef.current(target);
  }, [target]);
}

/** The page numbers to show as buttons, e.g. page 7 of 20 -> [5, 6, 7, 8, 9]. */
export function visiblePages(page: number, pages: number, size = MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(size, pages);
  const start = Math.min(Math.max(1, page - Math.floor(size / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** Previous, numbered page buttons and Next in a labelled navigation landmark; nothing for one page. */
export function PagePagination({
  page,
  pages,
  onPage,
  disabled = false,
  label = "Pagination",
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  disabled?: boolean;
  label?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-2">
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => onPage(page - 1)}
        disabled={disabled || page <= 1}
      >
        Previous
      </button>
      <div className="join">
        {visiblePages(page, pages).map((n) => (
          <button
            key={n}
            type="button"
            className={`join-item btn btn-sm min-w-10 ${n === page ? "btn-primary" : ""}`}
            aria-label={`Page ${n}`}
            aria-current={n === page ? "page" : undefined}
            onClick={() => onPage(n)}
            disabled={disabled && n !== page}
          >
            {n}
          </button>
        ))}
      </div>
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => onPage(page + 1)}
        disabled={disabled || page >= pages}
      >
        Next
      </button>
    </nav>
  );
}
