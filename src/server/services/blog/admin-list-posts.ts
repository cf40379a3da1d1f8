import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { AdminBlogPost, adminListPostsInput, BlogPostList } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { listWhere, toAdminPost } from "./posts";

// -- admin ---------------------------------------------------------------------------------------------
export async function adminListPosts(
  deps: Deps,
  input: z.output<typeof adminListPostsInput>,
): Promise<BlogPostList<AdminBlogPost>> {
  const { rows, total } = await listWhere(
    deps,
    input.status ? eq(blogPosts.status, input.status) : undefined,
    input,
  );
  return { posts: rows.map(toAdminPost), total, page: input.page, page_size: input.page_size };
}
