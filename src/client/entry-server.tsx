import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { BLOG_PAGE_SIZE } from "../shared/blog-rules";
import { jsonForScript, type PublicConfigAnswer } from "../shared/page-bootstrap";
import type { BlogPost, BlogPostList } from "../shared/schemas/blog";
import { App } from "./app";
import {
  type PageMetaCollector,
  PageMetaContext,
  pageHead,
  STRUCTURED_DATA_ID,
} from "./components/use-page-meta";
import { blogListParams, blogListPath, blogPostPath } from "./features/blog/blog-api";
import { createPublicDataStore } from "./lib/public-query";
import { matchPublicPage, PUBLIC_PAGES, type PublicPageName } from "./public-pages";

export type { PublicPageName };

/**
 * The server renderer, built by `vite build --ssr` into dist/ssr and loaded by the server
 * (src/server/ssr/pages.ts). It renders the same tree as the browser (app.tsx): a public page in full,
 * with the answers it was built from for the browser to hydrate with; any other route as the shell with
 * its loading skeleton (the signed-in pages render in the browser).
 */
export type RenderInput = {
  /** The request's path and query. */
  url: string;
  config: PublicConfigAnswer;
  loadBlogPosts: (input: { page: number; page_size: number; search?: string }) => Promise<BlogPostList>;
  /** A published post, or null. */
  loadBlogPost: (slug: string) => Promise<BlogPost | null>;
};

export type RenderResult = {
  /** The markup of #root. */
  html: string;
  /**
   * The page's tags for <head>: title, description, canonical URL, Open Graph, Twitter and JSON-LD, every
   * value escaped (null: a page that sets none, such as the signed-in skeleton).
   */
  head: string | null;
  /** The public page rendered in full, or null for the signed-in app's skeleton. */
  page: PublicPageName | null;
  /** Vite manifest keys of the page's own chunk, to preload with the page. */
  sources: string[];
  /** The public API answers the page was rendered from, by request path. */
  data: Record<string, unknown>;
};

/** Reads what a public page shows before it renders; a failed read leaves the page to ask in the browser. */
async function loadData(
  input: RenderInput,
  name: PublicPageName,
  params: Record<string, string>,
  search: URLSearchParams,
): Promise<Record<string, unknown>> {
  try {
    if (name === "blogList") {
      const { page, search: q } = blogListParams(search);
      const list = await input.loadBlogPosts({
        page,
        page_size: BLOG_PAGE_SIZE,
        ...(q ? { search: q } : {}),
      });
      return { [blogListPath(page, q)]: list };
    }
    if (name === "blogPost" && params.slug) {
      const slug = params.slug.trim();
      const post = await input.loadBlogPost(slug);
      return post ? { [blogPostPath(slug)]: post } : {};
    }
  } catch {
    // The browser asks the API itself, and shows the API's answer (or its error).
  }
  return {};
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The head tags of a page's metadata (use-page-meta.ts keeps them up to date in the browser). */
function headHtml(head: ReturnType<typeof pageHead>): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    ...head.meta.flatMap(([attr, key, content]) =>
      content === null ? [] : [`<meta ${attr}="${key}" content="${escapeHtml(content)}" />`],
    ),
  ];
  if (head.jsonLd) {
    tags.push(
      `<script type="application/ld+json" id="${STRUCTURED_DATA_ID}">${jsonForScript(head.jsonLd)}</script>`,
    );
  }
  return tags.join("\n    ");
}

export async function render(input: RenderInput): Promise<RenderResult> {
  const url = new URL(input.url, "http://localhost");
  const match = matchPublicPage(url.pathname);
  let seed: Record<string, unknown> = {};
  if (match) {
    await PUBLIC_PAGES[match.name].Page.preload();
    seed = await loadData(input, match.name, match.params, url.searchParams);
  }
  const data = createPublicDataStore(seed);
  const collector: PageMetaCollector = { meta: null };
  const html = renderToString(
    <StrictMode>
      <PageMetaContext.Provider value={collector}>
        <App config={input.config} data={data} ssrPath={url.pathname} ssrSearch={url.search} />
      </PageMetaContext.Provider>
    </StrictMode>,
  );
  return {
    html,
    head: collector.meta ? headHtml(pageHead(collector.meta, input.config.publicUrl)) : null,
    page: match?.name ?? null,
    sources: match ? [PUBLIC_PAGES[match.name].source] : [],
    data: data.answers(),
  };
}
