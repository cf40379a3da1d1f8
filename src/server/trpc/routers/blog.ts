import { z } from "zod";
import {
  adminListPostsInput,
  adminListSubscriptionsInput,
  confirmSubscriptionInput,
  createPostInput,
  listPostsInput,
  subscribeInput,
  unsubscribeTokenInput,
  updatePostInput,
} from "../../../shared/schemas/blog";
import { confirmWithToken } from "../../services/blog/confirmation";
import { adminOutbox } from "../../services/blog/outbox";
import * as posts from "../../services/blog/posts";
import * as subs from "../../services/blog/subscriptions";
import { adminProcedure, protectedProcedure, publicProcedure, router } from "../init";

const byId = z.strictObject({ id: z.string().trim().min(1).max(100) });

const adminRouter = router({
  posts: router({
    list: adminProcedure
      .input(adminListPostsInput.partial().optional())
      .query(({ ctx, input }) => posts.adminListPosts(ctx.deps, input ?? {})),
    get: adminProcedure.input(byId).query(({ ctx, input }) => posts.adminGetPost(ctx.deps, input.id)),
    create: adminProcedure
      .input(createPostInput)
      .mutation(({ ctx, input }) => posts.createPost(ctx.deps, ctx.user, input)),
    update: adminProcedure
      .input(z.strictObject({ id: byId.shape.id, updates: updatePostInput }))
      .mutation(({ ctx, input }) => posts.updatePost(ctx.deps, input.id, input.updates)),
    delete: adminProcedure.input(byId).mutation(({ ctx, input }) => posts.deletePost(ctx.deps, input.id)),
  }),
  subscriptions: router({
    list: adminProcedure
      .input(adminListSubscriptionsInput.partial().optional())
      .query(({ ctx, input }) => subs.adminListSubscriptions(ctx.deps, input ?? {})),
    delete: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => subs.adminDeleteSubscription(ctx.deps, input.id)),
  }),
  /** For developers: mail kept while no SMTP server is configured. */
  outbox: adminProcedure
    .input(
      z
        .strictObject({
          to: z.string().trim().max(254).optional(),
          limit: z.number().int().min(1).max(500).default(100),
        })
        .optional(),
    )
    .query(({ ctx, input }) => adminOutbox(ctx.deps, { to: input?.to, limit: input?.limit ?? 100 })),
});

export const blogRouter = router({
  list: publicProcedure
    .input(listPostsInput.partial().optional())
    .query(({ ctx, input }) => posts.listPublishedPosts(ctx.deps, input ?? {})),
  /** A published post by slug; each read by a non-admin counts one view. */
  get: publicProcedure
    .input(z.strictObject({ slug: z.string().trim().min(1).max(200) }))
    .query(({ ctx, input }) => posts.getPostBySlug(ctx.deps, ctx.user, input.slug)),
  subscribe: publicProcedure.input(subscribeInput.optional()).mutation(async ({ ctx, input }) => {
    const { httpStatus: _status, ...result } = await subs.subscribe(
      ctx.deps,
      ctx.user,
      input ?? {},
      ctx.meta,
    );
    return result;
  }),
  /** The signed-in user's subscription, or null. */
  mySubscription: protectedProcedure.query(({ ctx }) => subs.getMySubscription(ctx.deps, ctx.user)),
  /** Cancels the signed-in user's own subscription. */
  unsubscribe: protectedProcedure.mutation(({ ctx }) => subs.cancelMySubscription(ctx.deps, ctx.user)),
  /** The one-click link's token, for a client page that handles it. */
  unsubscribeWithToken: publicProcedure
    .input(unsubscribeTokenInput)
    .mutation(({ ctx, input }) => subs.unsubscribeWithToken(ctx.deps, input)),
  /** The confirmation link's token (double opt-in), for a client page that handles it. */
  confirmSubscription: publicProcedure
    .input(confirmSubscriptionInput)
    .mutation(({ ctx, input }) => confirmWithToken(ctx.deps, input)),
  admin: adminRouter,
});
