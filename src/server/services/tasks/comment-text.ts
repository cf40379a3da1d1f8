import { Marked } from "marked";
import { sanitizePostHtml } from "../../../shared/sanitize-html";
import { escapeHtml } from "../../lib/escape-html";

/**
 * A comment's Markdown as HTML, sanitised as the blog's posts are (shared/sanitize-html.ts). Raw HTML in
 * the Markdown shows as text, as in the web app's renderer (client/lib/markdown.ts).
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

export function commentHtml(body: string): string {
  return sanitizePostHtml(markdown.parse(body) as string);
}

/** The @usernames a comment mentions, lower-cased, each once (a mention inside an address is not one). */
export function mentionsIn(body: string): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(/(^|[^\w.@])@([a-z0-9][a-z0-9_.-]{0,62})/gi)) {
    out.add(m[2]!.replace(/[._-]+$/, "").toLowerCase());
  }
  return [...out].slice(0, 20);
}
