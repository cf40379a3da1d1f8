import type { AdminBlogPost } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";
import { getRow, toAdminPost } from "./posts";

export async function adminGetPost(deps: Deps, id: string): Promise<AdminBlogPost> {
  return toAdminPost(await getRow(deps, id));
}
