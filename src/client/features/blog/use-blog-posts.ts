import { useEffect } from "react";
import type { BlogPostList } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { getJson, usePublicQuery } from "../../lib/public-query";
import { blogListPath } from "./blog-api";

export const FETCH_POSTS_FAILED = "Failed to fetch blog posts";

/** The blog list: published posts, 12 a page (DECISIONS.md), optionally searched. */
export function useBlogPosts(page: number, search: string) {
  const toast = useToast();
  const path = blogListPath(page, search);
  const query = usePublicQuery<BlogPostList>(path, () => getJson<BlogPostList>(path), { keepPrevious: true });

  // One toast per failed load (the id keeps a retry's failure from stacking a second one).
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(FETCH_POSTS_FAILED, { id: "blog-posts-failed" });
  }, [failedAt, toast]);

  return query;
}
