import { BLOG_IMAGE_MAX_BYTES, BLOG_MESSAGES, BLOG_POST_STATUSES } from "../../../shared/blog-rules";
import type {
  BlogPost,
  BlogPostStatus,
  CreatePostInput,
  UpdatePostInput,
} from "../../../shared/schemas/blog";
import type { FieldErrors } from "../../lib/field-errors";

/** What the post editor holds (meta_description and meta_keywords have no input, but are kept). */
export type PostFormValues = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  featured_image: string;
  tags: string[];
  status: BlogPostStatus;
  meta_description: string;
  meta_keywords: string;
};

export type PostFormField = keyof PostFormValues;
export type PostFormErrors = FieldErrors<PostFormField | "form">;

export const STATUS_OPTIONS: { value: BlogPostStatus; label: string }[] = BLOG_POST_STATUSES.map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

export const EMPTY_POST_FORM: PostFormValues = {
  title: "",
  slug: "",
  excerpt: "",
  content: "",
  featured_image: "",
  tags: [],
  status: "draft",
  meta_description: "",
  meta_keywords: "",
};

export function formFromPost(post: BlogPost): PostFormValues {
  return {
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt ?? "",
    content: post.content,
    featured_image: post.featured_image ?? "",
    tags: [...post.tags],
    status: post.status,
    meta_description: post.meta_description ?? "",
    meta_keywords: post.meta_keywords ?? "",
  };
}

/** The fields left out of the payload when empty. */
const OPTIONAL_FIELDS = ["slug", "excerpt", "featured_image", "meta_description", "meta_keywords"] as const;

/**
 * The post editor's payload on create: title, content, tags and status always; slug, excerpt, featured_image,
 * meta_description and meta_keywords only when filled in. Title and content go as typed (the schema
 * trims them).
 */
export function buildCreatePayload(values: PostFormValues): CreatePostInput {
  const payload: CreatePostInput = {
    title: values.title,
    content: values.content,
    tags: values.tags,
    status: values.status,
  };
  for (const field of OPTIONAL_FIELDS) {
    const value = values[field].trim();
    if (value) payload[field] = value;
  }
  return payload;
}

/**
 * The same payload for an update. An empty optional field is left out, except where the post had a
 * value: leaving that out would keep the old value, so it is sent as null to clear it. A blank slug is
 * always left out (the server keeps the current one; published links stay stable).
 */
export function buildUpdatePayload(values: PostFormValues, original: BlogPost): UpdatePostInput {
  const payload: UpdatePostInput = buildCreatePayload(values);
  for (const field of OPTIONAL_FIELDS) {
    if (field !== "slug" && !payload[field] && original[field]) payload[field] = null;
  }
  return payload;
}

/** Tags: the list with the tag added, or null when it is empty or already there. */
export function addTag(tags: readonly string[], raw: string): string[] | null {
  const tag = raw.trim();
  if (!tag) return null;
  // The server folds case when it removes duplicates, so "React" and "react" are one tag here too.
  if (tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return null;
  return [...tags, tag];
}

export function removeTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}

/** Image upload. */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(",");

/** The message that rejects a chosen file before it is sent, or null when it may be uploaded. */
export function imageFileError(file: { type: string; size: number }): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return BLOG_MESSAGES.invalidImage;
  if (file.size > BLOG_IMAGE_MAX_BYTES) return BLOG_MESSAGES.imageTooLarge;
  return null;
}

const FIELDS = new Set<string>(Object.keys(EMPTY_POST_FORM));

/**
 * The editor field a createPostInput or updatePostInput path belongs to ("tags.2" is tags); anything
 * else (the update's "Nothing to update") is the form's.
 */
export function postFieldOf(path: string): PostFormField | "form" {
  const head = path.split(".")[0] ?? "";
  return FIELDS.has(head) ? (head as PostFormField) : "form";
}
