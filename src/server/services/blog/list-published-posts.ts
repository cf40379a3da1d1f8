import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { BlogPostList, listPostsInput } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { listWhere, toPost } from "./posts";

/** GET /blog/posts: published posts only, newest first, or best match first when searching. */
export async function listPublishedPosts(
  deps: Deps,
  input: z.output<typeof listPostsInput>,
): Promise<BlogPostList> {
  const { rows, total } = await listWhere(deps, eq(blogPosts.status, "published"), input);
  return { posts: rows.map(toPost), total, page: input.page, page_size: input.page_size };
}
