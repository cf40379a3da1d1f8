/**
 * The blog's limits, statuses and messages, in a module without zod: the public blog pages import them
 * without pulling the schema library into their bundle, and the schemas (schemas/blog.ts) re-export them.
 */
import { EMAIL_MAX, INVALID_EMAIL_MESSAGE, isEmailAddress } from "./email-address";

/** Blog post status. */
export const BLOG_POST_STATUSES = ["draft", "published", "archived"] as const;
export type BlogPostStatus = (typeof BLOG_POST_STATUSES)[number];

export const SUBSCRIPTION_FREQUENCIES = ["daily", "weekly", "monthly"] as const;

/** Blog list page size, excerpt fallback, page description and image size limits. */
export const BLOG_PAGE_SIZE = 12;
export const BLOG_PAGE_SIZE_MAX = 50;
export const BLOG_EXCERPT_FALLBACK = 150;
export const BLOG_DESCRIPTION_LENGTH = 160;
export const BLOG_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const BLOG_TAGS_MAX = 20;
export const BLOG_TAG_LENGTH_MAX = 40;
export const BLOG_TITLE_MAX = 200;
export const BLOG_SLUG_MAX = 100;
export const BLOG_EXCERPT_MAX = 1000;
export const BLOG_SEARCH_MAX = 200;
export const BLOG_CONTENT_MAX = 500_000;

export const BLOG_MESSAGES = {
  invalidImage: "Please upload a valid image file (JPEG, PNG, GIF, or WebP)",
  imageTooLarge: "Image size must be less than 5MB",
  subscribed: "Successfully subscribed! You'll receive weekly updates.",
  alreadySubscribed: "You're already subscribed to blog updates.",
  unsubscribed: "Successfully unsubscribed",
  postNotFound: "Blog post not found",
  subscriptionNotFound: "Subscription not found",
  notSubscribed: "You are not subscribed to blog updates.",
  slugTaken: "A post with this slug already exists",
  /** Double opt-in: the one answer to every subscription that still has to be confirmed by e-mail. */
  checkInbox: "Check your inbox: we sent a link to confirm your subscription.",
  confirmed: "Your subscription is confirmed. You'll receive weekly updates.",
  invalidConfirmation: "This confirmation link is invalid or has expired. Please subscribe again.",
  tooManySubscribes: "Too many subscription requests from your network. Please try again later.",
  emailTooLong: "The e-mail address is too long",
} as const;

/** What subscribeInput says about a visitor's address (blank means none: the form does not send it). */
export function subscribeEmailError(raw: string): string | null {
  const email = raw.trim();
  if (email.length > EMAIL_MAX) return BLOG_MESSAGES.emailTooLong;
  return email && !isEmailAddress(email) ? INVALID_EMAIL_MESSAGE : null;
}

/** Lowercase kebab-case from any text: accents folded, anything else becomes a single dash. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, BLOG_SLUG_MAX)
    .replace(/-+$/, "");
}
