import createDOMPurify, { type DOMPurify } from "dompurify";
import { Marked } from "marked";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Private instances, so options and hooks set here never leak into other users of the libraries.
const markdownWithHtml = new Marked({ gfm: true, breaks: false, async: false });
// Raw HTML inside the markdown shows as text. Besides safety, this keeps markup like onerror=... from
// ever being parsed: browsers report a CSP violation for such attributes even in inert documents.
const markdownTextOnly = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

let purifier: DOMPurify | null | undefined;

function getPurifier(): DOMPurify | null {
  if (purifier !== undefined) return purifier;
  if (typeof window === "undefined") {
    purifier = null;
    return purifier;
  }
  const instance = createDOMPurify(window);
  // Links leaving the site open in a new tab without handing it our window.
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    if (/^https?:\/\//i.test(href)) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    } else {
      node.removeAttribute("target");
    }
  });
  purifier = instance.isSupported ? instance : null;
  return purifier;
}

export type RenderMarkdownOptions = {
  /** Let raw HTML in the markdown through (still sanitised). Default false: it shows as text. */
  allowHtml?: boolean;
};

/**
 * Markdown to HTML that is safe to put in the page: marked renders it, DOMPurify removes scripts,
 * event handlers, javascript: URLs, styles, classes and form controls. Without a DOM (server, unit
 * tests) the text comes back escaped inside a <pre>, never unsanitised.
 */
export function renderMarkdown(md: string, { allowHtml = false }: RenderMarkdownOptions = {}): string {
  const purify = getPurifier();
  if (!purify) return `<pre>${escapeHtml(md)}</pre>`;
  const html = (allowHtml ? markdownWithHtml : markdownTextOnly).parse(md, { async: false });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option"],
    FORBID_ATTR: ["style", "class"],
  });
}
