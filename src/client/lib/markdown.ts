import createDOMPurify, { type DOMPurify } from "dompurify";
import { Marked } from "marked";

// A private instance each, so options and hooks set here never leak into other users of the libraries.
const markdown = new Marked({ gfm: true, breaks: false, async: false });

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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Markdown to HTML that is safe to put in the page: marked renders it, DOMPurify removes scripts,
 * event handlers, javascript: URLs, styles, classes and form controls. Without a DOM (server, unit tests) the
 * text comes back escaped inside a <pre>, never unsanitised.
 */
export function renderMarkdown(md: string): string {
  const purify = getPurifier();
  if (!purify) return `<pre>${escapeHtml(md)}</pre>`;
  const html = markdown.parse(md, { async: false });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option"],
    FORBID_ATTR: ["style", "class"],
  });
}
