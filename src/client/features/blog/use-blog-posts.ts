import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { BLOG_PAGE_SIZE } from "../../../shared/blog-rules";
import { useToast } from "../../components/toast";
import { useTRPC } from "../../lib/trpc";

export const FETCH_POSTS_FAILED = "Failed to fetch blog posts";

/** The blog list: published posts, 12 a page (DECISIONS.md), optionally searched. */
export function useBlogPosts(page: number, search: string) {
  const trpc = useTRPC();
  const toast = useToast();
  const query = useQuery(
    trpc.blog.list.queryOptions(
      { page, page_size: BLOG_PAGE_SIZE, ...(search ? { search } : {}) },
      { placeholderData: keepPreviousData },
    ),
  );

  // One toast per failed load (the id keeps a retry's failure from stacking a second one).
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(FETCH_POSTS_FAILED, { id: "blog-posts-failed" });
  }, [failedAt, toast]);

  return query;
}
