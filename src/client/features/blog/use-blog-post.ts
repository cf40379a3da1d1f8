import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLocation } from "wouter";
import { useToast } from "../../components/toast";
import { useTRPC } from "../../lib/trpc";

export const FETCH_POST_FAILED = "Failed to fetch blog post";

/** Blog post: the post by slug; not found or failed means a toast, then back to /blog. */
export function useBlogPost(slug: string) {
  const trpc = useTRPC();
  const toast = useToast();
  const [, navigate] = useLocation();
  const query = useQuery(trpc.blog.get.queryOptions({ slug }, { enabled: slug.trim() !== "" }));

  const failed = query.isError || slug.trim() === "";
  useEffect(() => {
    if (!failed) return;
    toast.error(FETCH_POST_FAILED, { id: "blog-post-failed" });
    navigate("/blog", { replace: true });
  }, [failed, toast, navigate]);

  return query;
}
