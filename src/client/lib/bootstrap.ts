import { BOOTSTRAP_ELEMENT_ID, type PageBootstrap } from "../../shared/page-bootstrap";

let cached: PageBootstrap | null | undefined;

/**
 * The data block the server put in the page (src/shared/page-bootstrap.ts), or null when there is none:
 * the Vite dev server's page, or a page from a server that could not write it.
 */
export function pageBootstrap(): PageBootstrap | null {
  if (cached !== undefined) return cached;
  cached = null;
  if (typeof document === "undefined") return cached;
  const text = document.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent;
  if (!text) return cached;
  try {
    const value = JSON.parse(text) as PageBootstrap;
    if (value && typeof value === "object" && value.config) cached = value;
  } catch {
    // A damaged block: the page starts as a plain single-page app.
  }
  return cached;
}
