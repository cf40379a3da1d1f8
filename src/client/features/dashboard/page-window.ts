export { totalPages as pageCount } from "../../components/page-pagination";

/**
 * When the current page has become empty while tasks remain (the last task on it was deleted),
 * step back one page. Returns the page to show, or null to stay.
 */
export function pageAfterEmptying(page: number, shown: number, total: number): number | null {
  return shown === 0 && total > 0 && page > 1 ? page - 1 : null;
}
