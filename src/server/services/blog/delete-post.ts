import { eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { notFound } from "./posts";

export async function deletePost(deps: Deps, id: string): Promise<{ detail: string }> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const deleted = await deps.db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
  if (deleted.length === 0) throw notFound();
  deps.log.info("blog post deleted", { postId: id });
  return { detail: "Post deleted successfully" };
}
