import { eq } from "drizzle-orm";
import type { z } from "zod";
import { BLOG_MESSAGES, type unsubscribeTokenInput } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { verifyUnsubscribeToken } from "./unsubscribe-token";

/**
 * The one-click link in every e-mail. A forged or malformed token is a 400; a valid one removes the
 * subscription (again: a second click finds it gone and reports the same success).
 */
export async function unsubscribeWithToken(
  deps: Deps,
  { token }: z.output<typeof unsubscribeTokenInput>,
): Promise<{ detail: string }> {
  const id = verifyUnsubscribeToken(deps.unsubscribeKey, token);
  if (!id) throw new AppError("BAD_REQUEST", "This unsubscribe link is invalid.");
  await deps.db.delete(blogSubscriptions).where(eq(blogSubscriptions.id, id));
  deps.log.info("blog subscription removed by link", { subscriptionId: id });
  return { detail: BLOG_MESSAGES.unsubscribed };
}
