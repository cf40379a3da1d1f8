import { jsonForScript } from "../../../shared/page-bootstrap";
import { htmlToText, truncateText } from "../../../shared/sanitize-html";
import { BLOG_DESCRIPTION_LENGTH, type BlogPost } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";

export { jsonForScript };

/** Pages for crawlers that run no JavaScript: sitemap, robots.txt, the RSS feed and post metadata. */
export const PRODUCT = "Atomize";

export function siteUrl(deps: Deps): string {
  return deps.config.PUBLIC_URL.replace(/\/+$/, "");
}

export function escapeXml(s: string): string {
  return (
    s
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 does not allow are removed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
  );
}

export const postPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;

/** The excerpt, else the first 160 characters of the text (meta description wins when set). */
export function postDescription(post: BlogPost): string {
  const text = post.meta_description || post.excerpt || htmlToText(post.content);
  return truncateText(text.replace(/\s+/g, " ").trim(), BLOG_DESCRIPTION_LENGTH);
}
