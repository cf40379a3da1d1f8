import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { AdminBlogPost, CreatePostInput, UpdatePostInput } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";

/** Admin tables show this many rows a page. */
export const ADMIN_PAGE_SIZE = 50;

export const MESSAGES = {
  fetchPostsFailed: "Failed to fetch blog posts",
  loadPostFailed: "Failed to load post",
  postDeleted: "Post deleted successfully",
  deletePostFailed: "Failed to delete post",
  subscriptionDeleted: "Subscription deleted successfully",
  deleteSubscriptionFailed: "Failed to delete subscription",
  postCreated: "Post created successfully",
  postUpdated: "Post updated successfully",
  savePostFailed: "Failed to save post",
  deletePostConfirmation: "Are you sure you want to delete this post?",
  deleteSubscriptionConfirmation: "Are you sure you want to delete this subscription?",
} as const;

/** Everything a change to posts makes stale: the admin list and the public list and pages. */
function useInvalidatePosts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.blog.admin.posts.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.blog.list.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.blog.get.pathKey() }),
      ]),
    [queryClient, trpc],
  );
}

export function useAdminPosts(page: number) {
  const trpc = useTRPC();
  const toast = useToast();
  const query = useQuery(
    trpc.blog.admin.posts.list.queryOptions(
      { page, page_size: ADMIN_PAGE_SIZE },
      { placeholderData: keepPreviousData },
    ),
  );
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(MESSAGES.fetchPostsFailed, { id: "admin-posts-failed" });
  }, [failedAt, toast]);
  return query;
}

/** A failure to load subscriptions is only logged (the shared query cache logs it). */
export function useAdminSubscriptions(page: number, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(
    trpc.blog.admin.subscriptions.list.queryOptions(
      { page, page_size: ADMIN_PAGE_SIZE },
      { placeholderData: keepPreviousData, enabled },
    ),
  );
}

/** Reads a post afresh before editing it; null (with 'Failed to load post') when that fails. */
export function useLoadPostForEdit() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useCallback(
    async (id: string): Promise<AdminBlogPost | null> => {
      try {
        return await queryClient.fetchQuery({
          ...trpc.blog.admin.posts.get.queryOptions({ id }),
          staleTime: 0,
        });
      } catch {
        toast.error(MESSAGES.loadPostFailed);
        return null;
      }
    },
    [queryClient, trpc, toast],
  );
}

export function useDeletePost() {
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidatePosts();
  return useMutation(
    trpc.blog.admin.posts.delete.mutationOptions({
      onSuccess: () => {
        toast.success(MESSAGES.postDeleted);
        void invalidate();
      },
      onError: () => toast.error(MESSAGES.deletePostFailed),
    }),
  );
}

export function useDeleteSubscription() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.blog.admin.subscriptions.delete.mutationOptions({
      onSuccess: () => {
        toast.success(MESSAGES.subscriptionDeleted);
        void queryClient.invalidateQueries({ queryKey: trpc.blog.admin.subscriptions.pathKey() });
        // The admin's own subscription may be the one removed.
        void queryClient.invalidateQueries({ queryKey: trpc.blog.mySubscription.pathKey() });
      },
      onError: () => toast.error(MESSAGES.deleteSubscriptionFailed),
    }),
  );
}

export type SavePostArgs =
  | { id: string; updates: UpdatePostInput }
  | { id?: undefined; post: CreatePostInput };

/**
 * Create or update. Toasts the outcome ('Post created/updated successfully', else the server's detail
 * or 'Failed to save post'); the caller reads field errors from the rejected error.
 */
export function useSavePost() {
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidatePosts();
  const create = useMutation(trpc.blog.admin.posts.create.mutationOptions({ retry: false }));
  const update = useMutation(trpc.blog.admin.posts.update.mutationOptions({ retry: false }));

  const save = useCallback(
    async (args: SavePostArgs): Promise<AdminBlogPost> => {
      try {
        const saved =
          args.id === undefined
            ? await create.mutateAsync(args.post)
            : await update.mutateAsync({ id: args.id, updates: args.updates });
        toast.success(args.id === undefined ? MESSAGES.postCreated : MESSAGES.postUpdated);
        void invalidate();
        return saved;
      } catch (err) {
        toast.error(errorDetailOf(err) ?? MESSAGES.savePostFailed);
        throw err;
      }
    },
    [create.mutateAsync, update.mutateAsync, toast, invalidate],
  );

  return { save, saving: create.isPending || update.isPending };
}
