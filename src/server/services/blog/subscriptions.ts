import { count, desc, eq, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type adminListSubscriptionsInput,
  BLOG_MESSAGES,
  type BlogSubscription,
  type BlogSubscriptionList,
  type SubscribeResult,
  type subscribeInput,
  type unsubscribeTokenInput,
} from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { HTTP_STATUS, type WithHttpStatus } from "../../lib/http-status";
import { consumeRateLimit, perAddress } from "../auth/rate-limit";
import type { SessionMeta, UserRow } from "../auth/sessions";
import { requestConfirmation } from "./confirmation";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token";

export type SubscriptionRow = typeof blogSubscriptions.$inferSelect;

const HOUR = 3_600_000;

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

const byEmail = (email: string) => sql`lower(${blogSubscriptions.email}) = ${email.toLowerCase()}`;

/**
 * A signed-in user's subscription: linked to the account, or, once the account has proven it owns its
 * e-mail, made with that address. An unverified account never reaches a stranger's subscription.
 */
const ofUser = (user: UserRow) =>
  user.emailVerifiedAt
    ? or(eq(blogSubscriptions.userId, user.id), byEmail(user.email))
    : eq(blogSubscriptions.userId, user.id);

/** With the REST status: 201 a new active subscription, 202 a confirmation to come, else 200. */
export type SubscribeOutcome = WithHttpStatus<SubscribeResult>;

/**
 * POST /blog/subscribe, with double opt-in (docs/decisions/009-usage-and-subscriptions.md).
 *
 * - A signed-in user with a verified e-mail subscribes that address (a different e-mail in the body is
 *   ignored) and is active at once; the answer shows their own subscription.
 * - Anyone else (a visitor, or an account whose e-mail is unverified) gets a pending subscription and
 *   a confirmation e-mail, and always the same answer, whatever the state of the address: the endpoint
 *   is no oracle of who is subscribed and cannot subscribe a third party. Limited per client address.
 */
export async function subscribe(
  deps: Deps,
  user: UserRow | null,
  input: z.output<typeof subscribeInput>,
  meta: SessionMeta = {},
): Promise<SubscribeOutcome> {
  if (user?.emailVerifiedAt) return subscribeVerified(deps, user, input);
  const email = user ? user.email.toLowerCase() : input.email;
  if (!email) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Please enter your email address", {
      fieldErrors: [{ field: "email", message: "Please enter your email address" }],
    });
  }
  await consumeRateLimit(
    deps,
    {
      key: perAddress("blog-subscribe", meta.ip),
      max: deps.config.ANONYMOUS_WRITES_PER_IP_PER_HOUR,
      windowMs: HOUR,
    },
    BLOG_MESSAGES.tooManySubscribes,
  );
  await requestConfirmation(deps, {
    email,
    userId: user?.id ?? null,
    frequency: input.frequency,
    categories: input.categories,
  });
  deps.log.info("blog subscription requested", { signedIn: Boolean(user) });
  return { detail: BLOG_MESSAGES.checkInbox, confirmation_required: true, [HTTP_STATUS]: 202 };
}

async function subscribeVerified(
  deps: Deps,
  user: UserRow,
  input: ReturnType<typeof subscribeInput.parse>,
): Promise<SubscribeOutcome> {
  const email = user.email.toLowerCase();
  const [inserted] = await deps.db
    .insert(blogSubscriptions)
    .values({
      email,
      userId: user.id,
      status: "active",
      confirmedAt: new Date(),
      frequency: input.frequency,
      categories: input.categories,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    deps.log.info("blog subscription created", { subscriptionId: inserted.id, signedIn: true });
    return {
      subscription: toSubscription(inserted),
      detail: BLOG_MESSAGES.subscribed,
      confirmation_required: false,
      already_subscribed: false,
      [HTTP_STATUS]: 201,
    };
  }
  const [existing] = await deps.db.select().from(blogSubscriptions).where(byEmail(email)).limit(1);
  if (!existing) throw new AppError("CONFLICT", "Please try subscribing again.");
  // The verified owner of the address takes over a subscription made with it, and confirms it.
  const [row = existing] = await deps.db
    .update(blogSubscriptions)
    .set({
      userId: user.id,
      status: "active",
      confirmedAt: sql`coalesce(${blogSubscriptions.confirmedAt}, now())`,
    })
    .where(eq(blogSubscriptions.id, existing.id))
    .returning();
  const wasActive = existing.status === "active";
  return {
    subscription: toSubscription(row),
    detail: wasActive ? BLOG_MESSAGES.alreadySubscribed : BLOG_MESSAGES.subscribed,
    confirmation_required: false,
    already_subscribed: wasActive,
    [HTTP_STATUS]: 200,
  };
}

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

/** DELETE /blog/my-subscription: the subscription is removed. */
export async function cancelMySubscription(deps: Deps, user: UserRow): Promise<{ detail: string }> {
  const deleted = await deps.db
    .delete(blogSubscriptions)
    .where(ofUser(user))
    .returning({ id: blogSubscriptions.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", BLOG_MESSAGES.notSubscribed);
  return { detail: BLOG_MESSAGES.unsubscribed };
}

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

export function unsubscribeUrl(deps: Deps, subscriptionId: string): string {
  const token = signUnsubscribeToken(deps.unsubscribeKey, subscriptionId);
  return `${deps.config.PUBLIC_URL.replace(/\/+$/, "")}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`;
}

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
