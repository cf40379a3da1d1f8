import { jsonForScript } from "../../../shared/page-bootstrap";
import { htmlToText, truncateText } from "../../../shared/sanitize-html";
import { BLOG_DESCRIPTION_LENGTH, type BlogPost } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";
import { recentPublishedPosts } from "./posts";

export { jsonForScript };

/** Pages for crawlers that run no JavaScript: sitemap, robots.txt, the RSS feed and post metadata. */
const PRODUCT = "Atomize";
const TITLE_SUFFIX = `${PRODUCT} Project Manager`;
const STATIC_PAGES = ["/", "/about", "/contact", "/privacy", "/terms", "/blog"];
const SITEMAP_MAX_POSTS = 49_000;
const FEED_ITEMS = 50;

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
const escapeHtml = escapeXml;

export const postPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;

/** The excerpt, else the first 160 characters of the text (meta description wins when set). */
export function postDescription(post: BlogPost): string {
  const text = post.meta_description || post.excerpt || htmlToText(post.content);
  return truncateText(text.replace(/\s+/g, " ").trim(), BLOG_DESCRIPTION_LENGTH);
}

function absolute(deps: Deps, url: string | null): string | null {
  if (!url) return null;
  return url.startsWith("/") ? `${siteUrl(deps)}${url}` : url;
}

export async function sitemapXml(deps: Deps): Promise<string> {
  const base = siteUrl(deps);
  const posts = await recentPublishedPosts(deps, SITEMAP_MAX_POSTS);
  const urls = [
    ...STATIC_PAGES.map((p) => `  <url><loc>${escapeXml(base + p)}</loc></url>`),
    ...posts.map(
      (p) =>
        `  <url><loc>${escapeXml(base + postPath(p.slug))}</loc><lastmod>${p.updated_at}</lastmod></url>`,
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
}

export function robotsTxt(deps: Deps): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /dashboard",
    "Disallow: /tasks",
    "Disallow: /settings",
    "Disallow: /admin",
    "Disallow: /invitations",
    "Disallow: /api",
    "",
    `Sitemap: ${siteUrl(deps)}/sitemap.xml`,
    "",
  ].join("\n");
}

export async function rssXml(deps: Deps): Promise<string> {
  const base = siteUrl(deps);
  const posts = await recentPublishedPosts(deps, FEED_ITEMS);
  const items = posts.map((p) => {
    const link = escapeXml(base + postPath(p.slug));
    const date = new Date(p.published_at ?? p.created_at).toUTCString();
    return `    <item>
      <title>${escapeXml(p.title)}</title>
      <link>${link}</link>
      <guid isPermaLink="true">${link}</guid>
      <pubDate>${date}</pubDate>
      <description>${escapeXml(postDescription(p))}</description>
${p.tags.map((t) => `      <category>${escapeXml(t)}</category>`).join("\n")}
    </item>`;
  });
  const lastBuild = posts[0] ? new Date(posts[0].published_at ?? posts[0].created_at) : new Date();
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${PRODUCT} Blog</title>
    <link>${escapeXml(`${base}/blog`)}</link>
    <description>Insights, updates and tutorials from the ${PRODUCT} team.</description>
    <language>en</language>
    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>
    <atom:link href="${escapeXml(`${base}/blog/rss.xml`)}" rel="self" type="application/rss+xml" />
${items.join("\n")}
  </channel>
</rss>
`;
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
