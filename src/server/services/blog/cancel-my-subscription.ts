import { BLOG_MESSAGES } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { UserRow } from "../auth/sessions";
import { ofUser } from "./subscriptions";

/** DELETE /blog/my-subscription: the subscription is removed. */
export async function cancelMySubscription(deps: Deps, user: UserRow): Promise<{ detail: string }> {
  const deleted = await deps.db
    .delete(blogSubscriptions)
    .where(ofUser(user))
    .returning({ id: blogSubscriptions.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", BLOG_MESSAGES.notSubscribed);
  return { detail: BLOG_MESSAGES.unsubscribed };
}
