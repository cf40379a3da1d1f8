import { z } from "zod";

export * from "../blog-rules";

import {
  BLOG_CONTENT_MAX,
  BLOG_EXCERPT_MAX,
  BLOG_MESSAGES,
  BLOG_PAGE_SIZE,
  BLOG_PAGE_SIZE_MAX,
  BLOG_POST_STATUSES,
  BLOG_SEARCH_MAX,
  BLOG_SLUG_MAX,
  BLOG_TAG_LENGTH_MAX,
  BLOG_TAGS_MAX,
  BLOG_TITLE_MAX,
  SUBSCRIPTION_FREQUENCIES,
  slugify,
} from "../blog-rules";
import { EMAIL_MAX, EMAIL_PATTERN, INVALID_EMAIL_MESSAGE } from "../email-address";
import { isoTimestamp, pageOf } from "./common";

/** A featured image is an https URL or an uploaded file's /uploads/ path. */
export function isAllowedImageUrl(v: string): boolean {
  if (/^\/uploads\/[A-Za-z0-9._-]+$/.test(v) && !v.includes("..")) return true;
  if (!/^https:\/\//i.test(v)) return false;
  try {
    return new URL(v).protocol === "https:";
  } catch {
    return false;
  }
}

/** Optional text: blank means "none" (null). */
const optionalText = (max: number, name: string) =>
  z
    .string()
    .trim()
    .max(max, `${name} is too long (at most ${max.toLocaleString("en")} characters)`)
    .nullish()
    .transform((v) => (v ? v : null));

const tagList = (name: string) =>
  z
    .array(
      z
        .string({ error: `Each ${name} must be text` })
        .trim()
        .max(BLOG_TAG_LENGTH_MAX, `Each ${name} must be at most ${BLOG_TAG_LENGTH_MAX} characters`),
      { error: `${name}s must be a list of text` },
    )
    .transform((tags) => {
      const seen = new Set<string>();
      return tags.filter((t) => {
        const key = t.toLowerCase();
        if (!t || seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    })
    .pipe(z.array(z.string()).max(BLOG_TAGS_MAX, `At most ${BLOG_TAGS_MAX} ${name}s are allowed`));

const postFields = {
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(BLOG_TITLE_MAX, `Title is too long (at most ${BLOG_TITLE_MAX} characters)`),
  slug: z
    .string()
    .trim()
    .max(BLOG_SLUG_MAX, `Slug is too long (at most ${BLOG_SLUG_MAX} characters)`)
    .nullish()
    .transform((v) => (v ? slugify(v) || null : null)),
  content: z
    .string({ error: "Content is required" })
    .trim()
    .min(1, "Content is required")
    .max(
      BLOG_CONTENT_MAX,
      `Content is too long (at most ${BLOG_CONTENT_MAX.toLocaleString("en")} characters)`,
    ),
  excerpt: optionalText(BLOG_EXCERPT_MAX, "Excerpt"),
  featured_image: z
    .string()
    .trim()
    .max(2000, "Featured image URL is too long")
    .refine(
      (v) => v === "" || isAllowedImageUrl(v),
      "Featured image must be an https URL or an uploaded image",
    )
    .nullish()
    .transform((v) => (v ? v : null)),
  tags: tagList("tag").default([]),
  status: z
    .enum(BLOG_POST_STATUSES, { error: `Status must be one of ${BLOG_POST_STATUSES.join(", ")}` })
    .optional(),
  meta_description: optionalText(320, "Meta description"),
  meta_keywords: optionalText(500, "Meta keywords"),
};

/** POST /admin/blog/posts. */
export const createPostInput = z.strictObject({ ...postFields, status: postFields.status.default("draft") });
export type CreatePostInput = z.input<typeof createPostInput>;

/** PATCH /admin/blog/posts/{id}: any subset of the create fields. */
export const updatePostInput = z
  .strictObject({
    title: postFields.title.optional(),
    slug: postFields.slug.optional(),
    content: postFields.content.optional(),
    excerpt: postFields.excerpt.optional(),
    featured_image: postFields.featured_image.optional(),
    tags: tagList("tag").optional(),
    status: postFields.status,
    meta_description: postFields.meta_description.optional(),
    meta_keywords: postFields.meta_keywords.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to update", path: ["body"] });
export type UpdatePostInput = z.input<typeof updatePostInput>;

const page = z.coerce.number().int().min(1, "page must be 1 or more").max(100_000).default(1);
const pageSize = (def: number, max: number) =>
  z.coerce
    .number()
    .int()
    .min(1, `page_size must be between 1 and ${max}`)
    .max(max, `page_size must be between 1 and ${max}`)
    .default(def);
const search = z
  .string()
  .trim()
  .max(BLOG_SEARCH_MAX, `Search is too long (at most ${BLOG_SEARCH_MAX} characters)`)
  .optional()
  .transform((v) => v || undefined);

/** GET /blog/posts. */
export const listPostsInput = z.object({
  page,
  page_size: pageSize(BLOG_PAGE_SIZE, BLOG_PAGE_SIZE_MAX),
  search,
});

/** GET /admin/blog/posts: every status by default. */
export const adminListPostsInput = z.object({
  page,
  page_size: pageSize(50, 200),
  search,
  status: z.enum(BLOG_POST_STATUSES).optional(),
});

export const adminListSubscriptionsInput = z.object({ page, page_size: pageSize(50, 200) });

/** POST /blog/subscribe. A signed-in user always subscribes with the account's e-mail. */
export const subscribeInput = z.strictObject({
  email: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string({ error: INVALID_EMAIL_MESSAGE })
      .trim()
      .max(EMAIL_MAX, BLOG_MESSAGES.emailTooLong)
      .transform((v) => v.toLowerCase())
      .pipe(z.email({ pattern: EMAIL_PATTERN, error: INVALID_EMAIL_MESSAGE }))
      .nullish()
      .transform((v) => v ?? null),
  ),
  frequency: z
    .enum(SUBSCRIPTION_FREQUENCIES, {
      error: `Frequency must be one of ${SUBSCRIPTION_FREQUENCIES.join(", ")}`,
    })
    .default("weekly"),
  categories: tagList("category").default([]),
});

export const unsubscribeTokenInput = z.strictObject({
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(500),
});

/** GET /blog/confirm: the token of the link in the confirmation e-mail. */
export const confirmSubscriptionInput = unsubscribeTokenInput;

// -- responses -----------------------------------------------------------------------------------------
export const blogPost = z
  .object({
    id: z.string(),
    title: z.string(),
    slug: z.string(),
    content: z.string(),
    excerpt: z.string().nullable(),
    featured_image: z.string().nullable(),
    tags: z.array(z.string()),
    status: z.enum(BLOG_POST_STATUSES),
    meta_description: z.string().nullable(),
    meta_keywords: z.string().nullable(),
    author_name: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    published_at: isoTimestamp.nullable(),
    view_count: z.number().int(),
  })
  .meta({ id: "BlogPost" });
export type BlogPost = z.infer<typeof blogPost>;

/** Admin views add when subscribers were e-mailed about the post. */
export const adminBlogPost = blogPost
  .extend({ notified_at: isoTimestamp.nullable() })
  .meta({ id: "AdminBlogPost" });
export type AdminBlogPost = z.infer<typeof adminBlogPost>;

export const blogPostList = pageOf("posts", blogPost);
export const adminBlogPostList = pageOf("posts", adminBlogPost);
/** A page of posts (`BlogPostList<AdminBlogPost>` for the admin's list). */
export type BlogPostList<P = BlogPost> = Omit<z.infer<typeof blogPostList>, "posts"> & { posts: P[] };

export const blogSubscription = z
  .object({
    id: z.string(),
    email: z.string(),
    /** `pending` until the address confirms through the mailed link (double opt-in), then `active`. */
    status: z.string(),
    /** One of SUBSCRIPTION_FREQUENCIES. */
    frequency: z.string(),
    categories: z.array(z.string()),
    created_at: isoTimestamp,
    confirmed_at: isoTimestamp.nullable(),
    last_notified_at: isoTimestamp.nullable(),
  })
  .meta({ id: "BlogSubscription" });
export type BlogSubscription = z.infer<typeof blogSubscription>;

/**
 * POST /blog/subscribe. Whoever has not proven they own the address (a visitor, or an account whose
 * e-mail is not verified) always gets the same `confirmation_required` answer, whatever the state of
 * that address, so the endpoint reveals nothing about who is subscribed. An account with a verified
 * e-mail is subscribed at once and sees its own subscription.
 */
export const subscribeResult = z.discriminatedUnion("confirmation_required", [
  z.object({ detail: z.string(), confirmation_required: z.literal(true) }),
  z.object({
    detail: z.string(),
    confirmation_required: z.literal(false),
    already_subscribed: z.boolean(),
    subscription: blogSubscription,
  }),
]);
export type SubscribeResult = z.infer<typeof subscribeResult>;

export const blogSubscriptionList = pageOf("subscriptions", blogSubscription);
export type BlogSubscriptionList = z.infer<typeof blogSubscriptionList>;

/** GET /admin/outbox: the mail kept while no SMTP server is configured (none is kept with one). */
export const outboxMessages = z.object({
  transport: z.enum(["smtp", "outbox"]),
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      created_at: isoTimestamp,
    }),
  ),
  total: z.number().int(),
});

export type UploadedImage = { url: string };
