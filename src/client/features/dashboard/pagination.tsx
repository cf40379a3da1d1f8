import { pageWindow } from "./page-window";

export function Pagination({
  page,
  pages,
  onPage,
  disabled = false,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  disabled?: boolean;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-2">
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => onPage(page - 1)}
        disabled={disabled || page <= 1}
      >
        Previous
      </button>
      <div className="join">
        {pageWindow(page, pages).map((n) => (
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
