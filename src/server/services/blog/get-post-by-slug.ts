import { and, eq, sql } from "drizzle-orm";
import type { BlogPost } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { notFound, postColumns, SLUG_SHAPE, toPost } from "./posts";

export async function getPostBySlug(deps: Deps, viewer: UserRow | null, rawSlug: string): Promise<BlogPost> {
  const slug = rawSlug.trim().toLowerCase();
  // Checked before the query: a NUL byte or other junk would otherwise reach PostgreSQL as an error.
  if (slug.length > 200 || !SLUG_SHAPE.test(slug)) throw notFound();
  if (viewer?.role === "admin") {
    const [row] = await deps.db.select(postColumns).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
    if (!row) throw notFound();
    return toPost(row);
  }
  const [row] = await deps.db
    .update(blogPosts)
    .set({ viewCount: sql`${blogPosts.viewCount} + 1` })
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.status, "published")))
    .returning(postColumns);
  if (!row) throw notFound();
  return toPost(row);
}
