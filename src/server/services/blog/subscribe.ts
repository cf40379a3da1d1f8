import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { BLOG_MESSAGES, type subscribeInput } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { HTTP_STATUS } from "../../lib/http-status";
import { consumeRateLimit, perAddress } from "../auth/rate-limit";
import type { SessionMeta, UserRow } from "../auth/sessions";
import { requestConfirmation } from "./confirmation";
import { byEmail, type SubscribeOutcome, toSubscription } from "./subscriptions";

const HOUR = 3_600_000;

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
