import { eq, or, sql } from "drizzle-orm";
import type { BlogSubscription, SubscribeResult } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { WithHttpStatus } from "../../lib/http-status";
import type { UserRow } from "../auth/sessions";
import { signUnsubscribeToken } from "./unsubscribe-token";

export type SubscriptionRow = typeof blogSubscriptions.$inferSelect;

export function toSubscription(row: SubscriptionRow): BlogSubscription {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    frequency: row.frequency,
    categories: row.categories,
    created_at: row.createdAt.toISOString(),
    confirmed_at: row.confirmedAt ? row.confirmedAt.toISOString() : null,
    last_notified_at: row.lastNotifiedAt ? row.lastNotifiedAt.toISOString() : null,
  };
}

export const byEmail = (email: string) => sql`lower(${blogSubscriptions.email}) = ${email.toLowerCase()}`;

/**
 * A signed-in user's subscription: linked to the account, or, once the account has proven it owns its
 * e-mail, made with that address. An unverified account never reaches a stranger's subscription.
 */
export const ofUser = (user: UserRow) =>
  user.emailVerifiedAt
    ? or(eq(blogSubscriptions.userId, user.id), byEmail(user.email))
    : eq(blogSubscriptions.userId, user.id);

/** With the REST status: 201 a new active subscription, 202 a confirmation to come, else 200. */
export type SubscribeOutcome = WithHttpStatus<SubscribeResult>;

export function unsubscribeUrl(deps: Deps, subscriptionId: string): string {
  const token = signUnsubscribeToken(deps.unsubscribeKey, subscriptionId);
  return `${deps.config.PUBLIC_URL.replace(/\/+$/, "")}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`;
}
