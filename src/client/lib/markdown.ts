import { Marked } from "marked";
import { sanitizeForDisplay } from "../../shared/sanitize-html";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Private instances, so options set here never leak into other users of the library.
const markdownWithHtml = new Marked({ gfm: true, breaks: false, async: false });
// Raw HTML inside the markdown shows as text. Besides safety, this keeps markup like onerror=... from
// ever being parsed: browsers report a CSP violation for such attributes even in inert documents.
const markdownTextOnly = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

export type RenderMarkdownOptions = {
  /** Let raw HTML in the markdown through (still sanitised). Default false: it shows as text. */
  allowHtml?: boolean;
};

/**
 * Markdown to HTML that is safe to put in the page: marked renders it and the one sanitiser
 * (shared/sanitize-html.ts) keeps its allow-list, removing scripts, event handlers, javascript: URLs,
 * styles and form controls, and opens links that leave the site in a new tab. The same on the server
 * renderer and in the browser.
 */
export function renderMarkdown(md: string, { allowHtml = false }: RenderMarkdownOptions = {}): string {
  const html = (allowHtml ? markdownWithHtml : markdownTextOnly).parse(md, { async: false });
  return sanitizeForDisplay(html);
}
