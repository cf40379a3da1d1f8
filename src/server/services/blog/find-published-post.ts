import { and, eq } from "drizzle-orm";
import type { BlogPost } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { postColumns, SLUG_SHAPE, toPost } from "./posts";

/** A published post for server-rendered pages (crawler metadata): no view is counted. */
export async function findPublishedPost(deps: Deps, slug: string): Promise<BlogPost | null> {
  if (slug.length > 200 || !SLUG_SHAPE.test(slug.toLowerCase())) return null;
  const [row] = await deps.db
    .select(postColumns)
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug.toLowerCase()), eq(blogPosts.status, "published")))
    .limit(1);
  return row ? toPost(row) : null;
}
