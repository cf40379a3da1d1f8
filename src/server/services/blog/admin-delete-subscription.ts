import { eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { BLOG_MESSAGES } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

export async function adminDeleteSubscription(deps: Deps, id: string): Promise<{ detail: string }> {
  const notFound = new AppError("NOT_FOUND", BLOG_MESSAGES.subscriptionNotFound);
  if (!UUID_PATTERN.test(id)) throw notFound;
  const deleted = await deps.db
    .delete(blogSubscriptions)
    .where(eq(blogSubscriptions.id, id))
    .returning({ id: blogSubscriptions.id });
  if (deleted.length === 0) throw notFound;
  return { detail: "Subscription deleted successfully" };
}
