import { BLOG_DESCRIPTION_LENGTH, BLOG_EXCERPT_FALLBACK } from "../../../shared/blog-rules";
import type { BlogPost } from "../../../shared/schemas/blog";

/** A card shows at most 3 tags. */
export const CARD_TAGS_MAX = 3;
export const ELLIPSIS = "...";

type PostText = Pick<BlogPost, "content" | "excerpt">;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const hex = ref[1] === "x" || ref[1] === "X";
      const code = Number.parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

const BLOCK_TAG =
  /<\/?(?:address|article|aside|blockquote|br|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|img|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/**
 * The plain text of an HTML fragment: tags removed (script and style with their bodies), entities
 * decoded, white space collapsed. Works without a DOM, so cards and unit tests share it; the result is
 * text for React to escape, never HTML.
 */
export function stripTags(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      // Block boundaries separate words; inline tags (<em>, <a>...) sit inside them.
      .replace(BLOCK_TAG, " ")
      .replace(/<[^>]*>/g, "")
      // An unclosed tag at the end ("<img src=") is markup too.
      .replace(/<[a-z/!][^>]*$/i, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

/** The first `max` characters of a text, with an ellipsis when something was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}${ELLIPSIS}`;
}

/** A post card's text: the excerpt, else the first 150 characters of the content with tags stripped, then "...". */
export function excerptOf(post: PostText): string {
  const excerpt = post.excerpt?.trim();
  if (excerpt) return excerpt;
  return truncate(stripTags(post.content), BLOG_EXCERPT_FALLBACK);
}

/**
 * A post page's description: the excerpt, else the first 160 characters of the stripped content. A meta
 * description set through the API wins, as in the server-rendered <head> (services/blog/seo.ts).
 */
export function descriptionOf(post: PostText & Partial<Pick<BlogPost, "meta_description">>): string {
  const text = (post.meta_description || post.excerpt || stripTags(post.content)).replace(/\s+/g, " ").trim();
  return text.slice(0, BLOG_DESCRIPTION_LENGTH).trimEnd();
}

/** The date a post shows, its publication date, else its creation date. */
export function postDate(post: Pick<BlogPost, "published_at" | "created_at">): string {
  return post.published_at ?? post.created_at;
}

export function postPath(slug: string): string {
  return `/blog/${encodeURIComponent(slug)}`;
}

export function viewsLabel(n: number): string {
  return `${n.toLocaleString("en")} ${n === 1 ? "view" : "views"}`;
}
