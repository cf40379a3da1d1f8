import { desc } from "drizzle-orm";
import type { BlogSubscription } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { ofUser, toSubscription } from "./subscriptions";

/** GET /blog/my-subscription: null when the user has none (a pending one is shown, with its status). */
export async function getMySubscription(deps: Deps, user: UserRow): Promise<BlogSubscription | null> {
  const [row] = await deps.db
    .select()
    .from(blogSubscriptions)
    .where(ofUser(user))
    .orderBy(desc(blogSubscriptions.createdAt))
    .limit(1);
  return row ? toSubscription(row) : null;
}
