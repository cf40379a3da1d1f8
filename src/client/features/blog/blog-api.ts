import { BLOG_PAGE_SIZE } from "../../../shared/blog-rules";
import type { BlogPost } from "../../../shared/schemas/blog";
import { getJson } from "../../lib/public-query";
import { loadRuntime } from "../../lib/runtime";
import { session, whenSessionKnown } from "../../lib/session";

/**
 * The blog's reads, on the public REST API (the same operations as tRPC's `blog.list` and `blog.get`).
 * Their request paths also name the answers the server renders a page from (src/client/entry-server.tsx).
 */
/** The list's page (?page=, from 1) and search (?q=) in a location's query. */
export function blogListParams(params: URLSearchParams): { page: number; search: string } {
  const n = Number(params.get("page"));
  return { page: Number.isInteger(n) && n >= 1 ? n : 1, search: (params.get("q") ?? "").trim() };
}

export function blogListPath(page: number, search: string): string {
  const params = new URLSearchParams({ page: String(page), page_size: String(BLOG_PAGE_SIZE) });
  if (search) params.set("search", search);
  return `/api/blog/posts?${params}`;
}

export function blogPostPath(slug: string): string {
  return `/api/blog/posts/${encodeURIComponent(slug)}`;
}

/**
 * A post by slug; each read by a non-admin counts a view. A signed-in reader asks through the app's
 * client, which renews an expired session first, so an admin's preview of a draft works after a pause.
 */
export async function readBlogPost(slug: string): Promise<BlogPost> {
  await whenSessionKnown();
  if (session.get().status === "authenticated") {
    const { trpcClient } = await loadRuntime();
    return trpcClient.blog.get.query({ slug });
  }
  return getJson<BlogPost>(blogPostPath(slug));
}
