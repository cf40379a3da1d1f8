import createDOMPurify, { type Config, type DOMPurify } from "dompurify";

/**
 * Blog post HTML is sanitised before display. The server already cleans it on save; the browser
 * cleans it again with DOMPurify (defence in depth: older rows, a changed server allow-list, a proxy).
 * Removed: scripts, event handlers, javascript:/data: URLs (other than images), styles, classes, forms
 * and embedded content.
 */
const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "style",
    "form",
    "input",
    "button",
    "textarea",
    "select",
    "option",
    "iframe",
    "frame",
    "object",
    "embed",
    "base",
    "link",
    "meta",
  ],
  FORBID_ATTR: ["style", "class", "id", "srcset"],
  ALLOW_DATA_ATTR: false,
};

let purifier: DOMPurify | null | undefined;

function getPurifier(): DOMPurify | null {
  if (purifier !== undefined) return purifier;
  if (typeof window === "undefined") {
    purifier = null;
    return purifier;
  }
  // A private instance, so this hook and config never leak into other users of DOMPurify.
  const instance = createDOMPurify(window);
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      const href = node.getAttribute("href") ?? "";
      if (/^https?:\/\//i.test(href)) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      } else {
        node.removeAttribute("target");
      }
    }
    if (node.tagName === "IMG") {
      node.setAttribute("loading", "lazy");
      node.setAttribute("decoding", "async");
    }
  });
  purifier = instance.isSupported ? instance : null;
  return purifier;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Post HTML that is safe to put in the page; without a usable DOM the text comes back escaped. */
export function sanitizePostHtml(html: string): string {
  const purify = getPurifier();
  if (!purify) return `<p>${escapeHtml(html)}</p>`;
  return purify.sanitize(html, CONFIG);
}
