import { z } from "zod";
import {
  adminBlogPost,
  adminBlogPostList,
  adminListPostsInput,
  adminListSubscriptionsInput,
  BLOG_MESSAGES,
  blogPost,
  blogPostList,
  blogSubscription,
  blogSubscriptionList,
  confirmSubscriptionInput,
  createPostInput,
  listPostsInput,
  outboxMessages,
  subscribeInput,
  subscribeResult,
  unsubscribeTokenInput,
  updatePostInput,
} from "../../shared/schemas/blog";
import { detailMessage } from "../../shared/schemas/common";
import { AppError } from "../errors";
import { adminDeleteSubscription } from "../services/blog/admin-delete-subscription";
import { adminGetPost } from "../services/blog/admin-get-post";
import { adminListPosts } from "../services/blog/admin-list-posts";
import { adminListSubscriptions } from "../services/blog/admin-list-subscriptions";
import { cancelMySubscription } from "../services/blog/cancel-my-subscription";
import { confirmWithToken } from "../services/blog/confirmation";
import { createPost } from "../services/blog/create-post";
import { deletePost } from "../services/blog/delete-post";
import { getMySubscription } from "../services/blog/get-my-subscription";
import { getPostBySlug } from "../services/blog/get-post-by-slug";
import { listPublishedPosts } from "../services/blog/list-published-posts";
import { adminOutbox } from "../services/blog/outbox";
import { subscribe } from "../services/blog/subscribe";
import { unsubscribeWithToken } from "../services/blog/unsubscribe-with-token";
import { updatePost } from "../services/blog/update-post";
import { mutation, query } from "./define";

const byId = z.strictObject({ id: z.string().trim().min(1).max(100) });

/** Posts for admins: the tRPC `blog.admin.posts` router and /api/admin/blog/posts. */
export const blogPostAdminOperations = {
  list: query({
    access: "admin",
    summary: "All posts, drafts included, a page at a time.",
    input: adminListPostsInput.prefault({}),
    output: adminBlogPostList,
    run: ({ deps }, input) => adminListPosts(deps, input),
    rest: [{ method: "get", path: "/admin/blog/posts", from: "query" }],
  }),
  get: query({
    access: "admin",
    summary: "One post, draft or published.",
    input: byId,
    output: adminBlogPost,
    run: ({ deps }, input) => adminGetPost(deps, input.id),
    rest: [{ method: "get", path: "/admin/blog/posts/{id}" }],
  }),
  create: mutation({
    access: "admin",
    summary: "Writes a new post.",
    input: createPostInput,
    output: adminBlogPost,
    run: ({ deps, user }, input) => createPost(deps, user, input),
    rest: [{ method: "post", path: "/admin/blog/posts", from: "body", status: 201 }],
  }),
  update: mutation({
    access: "admin",
    summary: "Changes a post.",
    input: z.strictObject({ id: byId.shape.id, updates: updatePostInput }),
    output: adminBlogPost,
    run: ({ deps }, input) => updatePost(deps, input.id, input.updates),
    rest: [{ method: "patch", path: "/admin/blog/posts/{id}", from: { bodyKey: "updates" } }],
  }),
  delete: mutation({
    access: "admin",
    summary: "Deletes a post.",
    input: byId,
    output: detailMessage,
    run: ({ deps }, input) => deletePost(deps, input.id),
    rest: [{ method: "delete", path: "/admin/blog/posts/{id}" }],
  }),
};

/** Subscriptions for admins: the tRPC `blog.admin.subscriptions` router and /api/admin/blog/subscriptions. */
export const blogSubscriptionAdminOperations = {
  list: query({
    access: "admin",
    summary: "Blog subscriptions, a page at a time.",
    input: adminListSubscriptionsInput.prefault({}),
    output: blogSubscriptionList,
    run: ({ deps }, input) => adminListSubscriptions(deps, input),
    rest: [{ method: "get", path: "/admin/blog/subscriptions", from: "query" }],
  }),
  delete: mutation({
    access: "admin",
    summary: "Removes a subscription.",
    input: byId,
    output: detailMessage,
    run: ({ deps }, input) => adminDeleteSubscription(deps, input.id),
    rest: [{ method: "delete", path: "/admin/blog/subscriptions/{id}" }],
  }),
};

export const outboxOperation = query({
  access: "admin",
  summary: "For developers: the mail kept while no SMTP server is configured.",
  input: z
    .object({
      to: z.string().trim().max(254).optional(),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    })
    .prefault({}),
  output: outboxMessages,
  run: ({ deps }, input) => adminOutbox(deps, input),
  rest: [{ method: "get", path: "/admin/outbox", from: "query" }],
});

/** The public blog and subscriptions: the tRPC `blog` router and the /api/blog routes. */
export const blogOperations = {
  list: query({
    access: "public",
    summary: "Published posts, newest first, or best match first when searching.",
    input: listPostsInput.prefault({}),
    output: blogPostList,
    run: ({ deps }, input) => listPublishedPosts(deps, input),
    rest: [{ method: "get", path: "/blog/posts", from: "query" }],
  }),
  get: query({
    access: "public",
    summary: "A published post by slug; each read by a non-admin counts one view.",
    input: z.strictObject({ slug: z.string().trim().min(1).max(200) }),
    output: blogPost,
    run: ({ deps, user }, input) => getPostBySlug(deps, user, input.slug),
    rest: [{ method: "get", path: "/blog/posts/{slug}" }],
  }),
  subscribe: mutation({
    access: "public",
    summary: "Subscribes to the blog (double opt-in unless the account's e-mail is verified).",
    input: subscribeInput.prefault({}),
    output: subscribeResult,
    run: ({ deps, user, meta }, input) => subscribe(deps, user, input, meta),
    // The answer carries its REST status (201 subscribed, 202 confirmation sent, 200 already).
    rest: [{ method: "post", path: "/blog/subscribe", from: "body" }],
  }),
  mySubscription: query({
    access: "user",
    summary: "The signed-in user's subscription, or null (404 over REST).",
    output: blogSubscription.nullable(),
    run: ({ deps, user }) => getMySubscription(deps, user),
    rest: [
      {
        method: "get",
        path: "/blog/my-subscription",
        respond: (sub) => {
          if (!sub) throw new AppError("NOT_FOUND", BLOG_MESSAGES.notSubscribed);
          return sub;
        },
        output: blogSubscription,
      },
    ],
  }),
  unsubscribe: mutation({
    access: "user",
    summary: "Cancels the signed-in user's own subscription.",
    output: detailMessage,
    run: ({ deps, user }) => cancelMySubscription(deps, user),
    rest: [{ method: "delete", path: "/blog/my-subscription" }],
  }),
  /** The one-click link's token, for a client page that handles it (the link itself is a raw route). */
  unsubscribeWithToken: mutation({
    access: "public",
    summary: "Unsubscribes with the token of an e-mail's link.",
    input: unsubscribeTokenInput,
    output: detailMessage,
    run: ({ deps }, input) => unsubscribeWithToken(deps, input),
  }),
  /** The confirmation link's token (double opt-in), for a client page that handles it. */
  confirmSubscription: mutation({
    access: "public",
    summary: "Confirms a subscription with the token of its e-mail's link.",
    input: confirmSubscriptionInput,
    output: detailMessage,
    run: ({ deps }, input) => confirmWithToken(deps, input),
  }),
};
