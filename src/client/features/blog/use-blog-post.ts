import { useEffect } from "react";
import { useLocation } from "wouter";
import type { BlogPost } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { usePublicQuery } from "../../lib/public-query";
import { blogPostPath, readBlogPost } from "./blog-api";

export const FETCH_POST_FAILED = "Failed to fetch blog post";

/**
 * Blog post: the post by slug (the server's copy first, then read again so the visit counts as a view);
 * not found or failed with nothing to show means a toast, then back to /blog.
 */
export function useBlogPost(slug: string) {
  const toast = useToast();
  const [, navigate] = useLocation();
  const trimmed = slug.trim();
  const query = usePublicQuery<BlogPost>(
    trimmed ? blogPostPath(trimmed) : null,
    () => readBlogPost(trimmed),
    {
      refreshServerData: true,
    },
  );

  const failed = (query.isError && query.data === undefined) || trimmed === "";
  useEffect(() => {
    if (!failed) return;
    toast.error(FETCH_POST_FAILED, { id: "blog-post-failed" });
    navigate("/blog", { replace: true });
  }, [failed, toast, navigate]);

  return query;
}
