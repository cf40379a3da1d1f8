import { z } from "zod";
import { googleExchangeInput } from "../../shared/schemas/auth";
import { blogPost, confirmSubscriptionInput, unsubscribeTokenInput } from "../../shared/schemas/blog";
import { detailMessage } from "../../shared/schemas/common";
import { EXPORT_KINDS } from "../../shared/schemas/integrations";
import { allowedRedirects } from "../services/auth/allowed-redirects";
import { completeGoogleSignIn } from "../services/auth/complete-google-sign-in";
import { issueAuthCode } from "../services/auth/issue-auth-code";
import { confirmWithToken } from "../services/blog/confirmation";
import { findPublishedPost } from "../services/blog/find-published-post";
import { postHeadTags } from "../services/blog/post-head-tags";
import { readUpload } from "../services/blog/read-upload";
import { robotsTxt } from "../services/blog/robots-txt";
import { rssXml } from "../services/blog/rss-xml";
import { saveBlogImage } from "../services/blog/save-blog-image";
import { sitemapXml } from "../services/blog/sitemap-xml";
import { unsubscribeWithToken } from "../services/blog/unsubscribe-with-token";
import { receiveWebhook } from "../services/exports/receive-webhook";
import { webhookExists } from "../services/exports/webhook-exists";
import { mutation, query } from "./define";

/**
 * The operations behind the hand-written routes (rest/auth.ts, rest/blog.ts, rest/webhooks.ts): answered
 * with a redirect, an HTML page, a multipart upload or a webhook's raw body rather than JSON, so they have
 * no REST route or tRPC procedure of their own, but they go through `invoke` like every other operation.
 */

const hookKind = z.enum(EXPORT_KINDS);

/** A delivery as it reached us: the raw body (its signature covers it byte for byte) and the headers read. */
const webhookDelivery = z.object({
  kind: hookKind,
  id: z.string(),
  raw: z.instanceof(Buffer),
  headers: z.record(z.string(), z.string().optional()),
});

export const linkOperations = {
  /** Google's redirect back to us: redeems the code, signs in, and gives the SPA a one-time code. */
  googleCallback: mutation({
    access: "public",
    summary: "Completes a Google sign-in from Google's redirect and issues a one-time code for the SPA.",
    input: googleExchangeInput,
    output: z.object({ code: z.string() }),
    run: async ({ deps, meta }, input) => {
      const { user } = await completeGoogleSignIn(
        deps,
        { ...input, redirect_uri: allowedRedirects(deps).server },
        meta,
      );
      return { code: await issueAuthCode(deps, user.id) };
    },
  }),
  /** The one-click unsubscribe link of every e-mail. */
  unsubscribeLink: mutation({
    access: "public",
    summary: "Unsubscribes with the token of an e-mail's link.",
    input: unsubscribeTokenInput,
    output: detailMessage,
    run: ({ deps }, input) => unsubscribeWithToken(deps, input),
  }),
  /** The link in the confirmation e-mail (double opt-in). */
  confirmLink: mutation({
    access: "public",
    summary: "Confirms a subscription with the token of the confirmation e-mail's link.",
    input: confirmSubscriptionInput,
    output: detailMessage,
    run: ({ deps }, input) => confirmWithToken(deps, input),
  }),
  /** An image for a blog post, from a multipart form (the service checks what the file is). */
  blogImage: mutation({
    access: "admin",
    summary: "Stores an image for a blog post.",
    input: z.object({ file: z.unknown() }),
    output: z.object({ url: z.string() }),
    run: ({ deps }, { file }) => saveBlogImage(deps, file),
  }),
  /** A published post for its page, with the tags its <head> carries (null when there is none). */
  postPage: query({
    access: "public",
    summary: "A published post and its page's head tags.",
    input: z.object({ slug: z.string() }),
    output: z.object({ post: blogPost, head: z.string() }).nullable(),
    run: async ({ deps }, { slug }) => {
      const post = await findPublishedPost(deps, slug);
      return post ? { post, head: postHeadTags(deps, post) } : null;
    },
  }),
  /** An uploaded image, by its file name (null when there is none). */
  upload: query({
    access: "public",
    summary: "Reads an uploaded image.",
    input: z.object({ name: z.string() }),
    output: z.object({ bytes: z.instanceof(Buffer), contentType: z.string() }).nullable(),
    run: ({ deps }, { name }) => readUpload(deps, name),
  }),
  /** The site's sitemap, robots.txt and the blog's feed. */
  sitemap: query({
    access: "public",
    summary: "The sitemap.",
    output: z.string(),
    run: ({ deps }) => sitemapXml(deps),
  }),
  robots: query({
    access: "public",
    summary: "robots.txt.",
    output: z.string(),
    run: ({ deps }) => robotsTxt(deps),
  }),
  rss: query({
    access: "public",
    summary: "The blog's RSS feed.",
    output: z.string(),
    run: ({ deps }) => rssXml(deps),
  }),
  /** Whether a webhook endpoint exists (Trello checks one before registering it). */
  webhookExists: query({
    access: "public",
    summary: "Says whether a webhook endpoint exists.",
    input: z.object({ kind: z.string(), id: z.string() }),
    output: z.boolean(),
    run: ({ deps }, { kind, id }) =>
      hookKind.safeParse(kind).success ? webhookExists(deps, kind as z.output<typeof hookKind>, id) : false,
  }),
  /** A delivery from GitHub, JIRA or Trello, checked against its signature and applied once. */
  receiveWebhook: mutation({
    access: "public",
    summary: "Applies a webhook delivery.",
    input: webhookDelivery,
    output: z.object({
      status: z.enum(["applied", "ignored", "duplicate", "stale"]),
      changed: z.number().int(),
    }),
    run: ({ deps, meta }, { kind, id, raw, headers }) =>
      receiveWebhook(deps, kind, id, { raw, headers }, meta.ip ?? null),
  }),
};
