/** Spec 9: at most 5 page buttons, in a window around the current page. */
export const MAX_PAGE_BUTTONS = 5;

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page numbers to show as buttons, e.g. page 7 of 20 -> [5, 6, 7, 8, 9]. */
export function pageWindow(page: number, pages: number, size = MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(size, pages);
  const start = Math.min(Math.max(1, page - Math.floor(size / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * Spec 2: when the current page has become empty while tasks remain (the last task on it was deleted),
 * step back one page. Returns the page to show, or null to stay.
 */
export function pageAfterEmptying(page: number, shown: number, total: number): number | null {
  return shown === 0 && total > 0 && page > 1 ? page - 1 : null;
}
