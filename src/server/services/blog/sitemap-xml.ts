import type { Deps } from "../../deps";
import { recentPublishedPosts } from "./posts";
import { escapeXml, postPath, siteUrl } from "./seo";

const STATIC_PAGES = ["/", "/about", "/contact", "/privacy", "/terms", "/blog"];

const SITEMAP_MAX_POSTS = 49_000;

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
