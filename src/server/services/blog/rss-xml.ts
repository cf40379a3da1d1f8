import type { Deps } from "../../deps";
import { recentPublishedPosts } from "./posts";
import { escapeXml, PRODUCT, postDescription, postPath, siteUrl } from "./seo";

const FEED_ITEMS = 50;

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
