/** At most this many numbered page buttons, in a window around the current page (as on the dashboard). */
export const MAX_PAGE_BUTTONS = 5;

export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
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
