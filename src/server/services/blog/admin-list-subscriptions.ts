import { count, desc } from "drizzle-orm";
import type { z } from "zod";
import type { adminListSubscriptionsInput, BlogSubscriptionList } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { toSubscription } from "./subscriptions";

// -- admin ---------------------------------------------------------------------------------------------
export async function adminListSubscriptions(
  deps: Deps,
  input: z.output<typeof adminListSubscriptionsInput>,
): Promise<BlogSubscriptionList> {
  const [rows, [counted]] = await Promise.all([
    deps.db
      .select()
      .from(blogSubscriptions)
      .orderBy(desc(blogSubscriptions.createdAt), desc(blogSubscriptions.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    deps.db.select({ n: count() }).from(blogSubscriptions),
  ]);
  return {
    subscriptions: rows.map(toSubscription),
    total: counted?.n ?? 0,
    page: input.page,
    page_size: input.page_size,
  };
}
