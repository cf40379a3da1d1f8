import { and, eq, like, ne, or } from "drizzle-orm";
import type { z } from "zod";
import { type AdminBlogPost, type createPostInput, slugify } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { cleanContent, onPublish, postColumns, slugConflict, type Tx, toAdminPost } from "./posts";

/** The base slug, or the first free `base-2`, `base-3`... (taken slugs read in one indexed query). */
async function freeSlug(db: Deps["db"] | Tx, base: string, exceptId?: string): Promise<string> {
  const taken = await db
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(
      and(
        or(eq(blogPosts.slug, base), like(blogPosts.slug, `${base.replace(/[\\%_]/g, "\\$&")}-%`)),
        exceptId ? ne(blogPosts.id, exceptId) : undefined,
      ),
    );
  const used = new Set(taken.map((t) => t.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function createPost(
  deps: Deps,
  author: UserRow,
  input: z.output<typeof createPostInput>,
): Promise<AdminBlogPost> {
  const content = cleanContent(input.content);
  const base = input.slug ?? (slugify(input.title) || "post");
  // A generated slug that loses a race to a concurrent insert simply takes the next number.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await deps.db.transaction(async (tx) => {
      const slug = input.slug ?? (await freeSlug(tx, base));
      const [inserted] = await tx
        .insert(blogPosts)
        .values({
          title: input.title,
          slug,
          content,
          excerpt: input.excerpt,
          featuredImage: input.featured_image,
          tags: input.tags,
          status: input.status,
          metaDescription: input.meta_description,
          metaKeywords: input.meta_keywords,
          authorId: author.id,
          authorName: author.fullName?.trim() || author.email,
          publishedAt: input.status === "published" ? new Date() : null,
        })
        .onConflictDoNothing()
        .returning(postColumns);
      if (!inserted) return null;
      return onPublish(deps, tx, inserted);
    });
    if (row) {
      deps.log.info("blog post created", { postId: row.id, status: row.status });
      return toAdminPost(row);
    }
    if (input.slug) throw slugConflict();
  }
  throw slugConflict();
}
