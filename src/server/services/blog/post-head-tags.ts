import { jsonForScript } from "../../../shared/page-bootstrap";
import type { BlogPost } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";
import { escapeXml, PRODUCT, postDescription, postPath, siteUrl } from "./seo";

const TITLE_SUFFIX = `${PRODUCT} Project Manager`;

const escapeHtml = escapeXml;

function absolute(deps: Deps, url: string | null): string | null {
  if (!url) return null;
  return url.startsWith("/") ? `${siteUrl(deps)}${url}` : url;
}

/**
 * A post's tags for <head>: its title, description, canonical URL, Open Graph and Twitter tags and
 * Article JSON-LD, for crawlers and link previews (ssr/pages.ts puts them in the page). Every value is
 * escaped. They replace the page's own title and description.
 */
export function postHeadTags(deps: Deps, post: BlogPost): string {
  const url = siteUrl(deps) + postPath(post.slug);
  const title = `${post.title} | ${TITLE_SUFFIX}`;
  const description = postDescription(post);
  const image = absolute(deps, post.featured_image);
  const meta = (attr: "name" | "property", key: string, content: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: post.title,
    description,
    ...(image ? { image: [image] } : {}),
    author: { "@type": "Person", name: post.author_name },
    publisher: { "@type": "Organization", name: PRODUCT },
    datePublished: post.published_at ?? post.created_at,
    dateModified: post.updated_at,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(post.tags.length ? { keywords: post.tags.join(", ") } : {}),
  };
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    meta("name", "description", description),
    ...(post.meta_keywords ? [meta("name", "keywords", post.meta_keywords)] : []),
    meta("name", "author", post.author_name),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta("property", "og:type", "article"),
    meta("property", "og:site_name", PRODUCT),
    meta("property", "og:title", post.title),
    meta("property", "og:description", description),
    meta("property", "og:url", url),
    ...(image ? [meta("property", "og:image", image)] : []),
    meta("property", "article:published_time", post.published_at ?? post.created_at),
    meta("property", "article:modified_time", post.updated_at),
    meta("property", "article:author", post.author_name),
    ...post.tags.map((t) => meta("property", "article:tag", t)),
    meta("name", "twitter:card", image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", post.title),
    meta("name", "twitter:description", description),
    ...(image ? [meta("name", "twitter:image", image)] : []),
    `<script type="application/ld+json">${jsonForScript(jsonLd)}</script>`,
  ];
  return `    ${tags.join("\n    ")}\n`;
}
