/**
 * The blog's limits and texts for the browser. They mirror src/shared/schemas/blog.ts, whose module
 * also holds the zod schemas: importing a value from it would add zod (about 25 kB gzipped) to the
 * public blog pages. features/blog/blog-constants.test.ts keeps the two in step.
 */
export const BLOG_PAGE_SIZE = 12;
export const BLOG_EXCERPT_FALLBACK = 150;
export const BLOG_DESCRIPTION_LENGTH = 160;
export const BLOG_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const BLOG_POST_STATUSES = ["draft", "published", "archived"] as const;

export const BLOG_MESSAGES = {
  invalidImage: "Please upload a valid image file (JPEG, PNG, GIF, or WebP)",
  imageTooLarge: "Image size must be less than 5MB",
  subscribed: "Successfully subscribed! You'll receive weekly updates.",
  alreadySubscribed: "You're already subscribed to blog updates.",
  unsubscribed: "Successfully unsubscribed",
} as const;
