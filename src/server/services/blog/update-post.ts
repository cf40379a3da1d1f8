import { and, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { AdminBlogPost, updatePostInput } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import {
  cleanContent,
  getRow,
  onPublish,
  type PostRow,
  postColumns,
  slugConflict,
  toAdminPost,
} from "./posts";

export async function updatePost(
  deps: Deps,
  id: string,
  input: z.output<typeof updatePostInput>,
): Promise<AdminBlogPost> {
  const content = input.content === undefined ? undefined : cleanContent(input.content);
  const row = await deps.db.transaction(async (tx) => {
    const before = await getRow({ db: tx }, id, true);
    const set: Partial<PostRow> = { updatedAt: new Date() };
    if (input.title !== undefined) set.title = input.title;
    if (content !== undefined) set.content = content;
    if (input.excerpt !== undefined) set.excerpt = input.excerpt;
    if (input.featured_image !== undefined) set.featuredImage = input.featured_image;
    if (input.tags !== undefined) set.tags = input.tags;
    if (input.meta_description !== undefined) set.metaDescription = input.meta_description;
    if (input.meta_keywords !== undefined) set.metaKeywords = input.meta_keywords;
    if (input.status !== undefined) set.status = input.status;
    // A blank slug keeps the current one: published links do not change because a title did.
    if (input.slug && input.slug !== before.slug) {
      const [taken] = await tx
        .select({ id: blogPosts.id })
        .from(blogPosts)
        .where(and(eq(blogPosts.slug, input.slug), ne(blogPosts.id, id)))
        .limit(1);
      if (taken) throw slugConflict();
      set.slug = input.slug;
    }
    if (set.status === "published" && !before.publishedAt) set.publishedAt = new Date();
    const [updated] = await tx
      .update(blogPosts)
      .set(set)
      .where(eq(blogPosts.id, id))
      .returning(postColumns)
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? slugConflict() : err;
      });
    return onPublish(deps, tx, updated!);
  });
  return toAdminPost(row);
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
