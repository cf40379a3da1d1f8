import { useCallback, useEffect, useState } from "react";
import { BLOG_MESSAGES } from "../../../shared/blog-rules";
import type { BlogSubscription } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { loadRuntime } from "../../lib/runtime";
import { useSession } from "../../lib/session";
import { readStorage, writeStorage } from "../../lib/storage";

/** What a subscription asks for. */
export const SUBSCRIPTION_FREQUENCY = "weekly";
export const SIGN_IN_TO_SUBSCRIBE = "Please sign in to subscribe";
export const SUBSCRIBE_FAILED = "Failed to subscribe";
export const UNSUBSCRIBE_FAILED = "Failed to unsubscribe";
export const UNSUBSCRIBE_CONFIRMATION = "Are you sure you want to unsubscribe from blog notifications?";
/** The server's answer while a subscription waits for its e-mail confirmation (shared BLOG_MESSAGES.checkInbox). */

/**
 * A visitor has no account to look the subscription up by (and the server never says whether an
 * address is subscribed); this tab remembers that it asked for a confirmation e-mail.
 */
const VISITOR_KEY = "atomize.blog.confirmation-requested";

export type BlogSubscriptionState = {
  /** Signed in with an active subscription. */
  isSubscribed: boolean;
  /**
   * Waiting for the e-mail confirmation (double opt-in): the signed-in user's subscription is pending,
   * or this tab asked for a confirmation e-mail.
   */
  isPending: boolean;
  /** True until the signed-in user's subscription is known. */
  isChecking: boolean;
  subscription: BlogSubscription | null;
  isSignedIn: boolean;
  subscribing: boolean;
  unsubscribing: boolean;
  /**
   * Subscribes: a signed-in user with the account's e-mail, a visitor with `email`. Resolves to whether
   * it worked; the toast is shown here.
   */
  subscribe: (email?: string) => Promise<boolean>;
  /** Cancels the signed-in user's own subscription (ask first: UNSUBSCRIBE_CONFIRMATION). */
  unsubscribe: () => Promise<boolean>;
};

/**
 * Blog subscription: none -> pending by subscribing -> active through the link mailed to
 * the address (at once for an account with a verified e-mail), removed by the user's own unsubscribe.
 * The signed-in user's subscription comes from blog.mySubscription (null, a 404 or any failure means
 * not subscribed). The calls go through the app's client, loaded when first needed (lib/runtime.ts): a
 * visitor's blog page carries none of it until they subscribe.
 */
export function useBlogSubscription(): BlogSubscriptionState {
  const toast = useToast();
  const { user, status } = useSession();
  const isSignedIn = status === "authenticated" && user !== null;
  const userId = isSignedIn ? user.id : null;
  // Read after hydration: the server knows nothing of this tab.
  const [visitorEmail, setVisitorEmail] = useState<string | null>(null);
  useEffect(() => setVisitorEmail(readStorage("session", VISITOR_KEY)), []);
  const [confirmationRequested, setConfirmationRequested] = useState(false);
  // The signed-in user's subscription, once read (for that user).
  const [mine, setMine] = useState<{ userId: string; subscription: BlogSubscription | null } | null>(null);
  const [subscribing, setSubscribing] = useState(false);
  const [unsubscribing, setUnsubscribing] = useState(false);

  const readMine = useCallback(async (id: string) => {
    let subscription: BlogSubscription | null = null;
    try {
      subscription = await (await loadRuntime()).trpcClient.blog.mySubscription.query();
    } catch {
      // Not subscribed, as far as this page can tell.
    }
    setMine((current) => (current && current.userId !== id ? current : { userId: id, subscription }));
  }, []);

  useEffect(() => {
    if (userId) void readMine(userId);
  }, [userId, readMine]);

  const subscribe = useCallback(
    async (email?: string) => {
      setSubscribing(true);
      try {
        const { trpcClient } = await loadRuntime();
        const res = await trpcClient.blog.subscribe.mutate({
          ...(isSignedIn ? {} : { email: email?.trim() ?? "" }),
          frequency: SUBSCRIPTION_FREQUENCY,
          categories: [],
        });
        if (res.confirmation_required) {
          if (userId) {
            setConfirmationRequested(true);
            void readMine(userId);
          } else {
            const address = email?.trim().toLowerCase() ?? "";
            writeStorage("session", VISITOR_KEY, address);
            setVisitorEmail(address);
          }
          toast.info(res.detail || BLOG_MESSAGES.checkInbox);
          return true;
        }
        if (userId) setMine({ userId, subscription: res.subscription });
        if (res.already_subscribed) toast.info(res.detail || BLOG_MESSAGES.alreadySubscribed);
        else toast.success(BLOG_MESSAGES.subscribed);
        return true;
      } catch (err) {
        toast.error(errorDetailOf(err) ?? SUBSCRIBE_FAILED);
        return false;
      } finally {
        setSubscribing(false);
      }
    },
    [isSignedIn, userId, readMine, toast],
  );

  const unsubscribe = useCallback(async () => {
    setUnsubscribing(true);
    try {
      const { trpcClient } = await loadRuntime();
      await trpcClient.blog.unsubscribe.mutate();
      if (userId) setMine({ userId, subscription: null });
      setConfirmationRequested(false);
      toast.success(BLOG_MESSAGES.unsubscribed);
      return true;
    } catch (err) {
      toast.error(errorDetailOf(err) ?? UNSUBSCRIBE_FAILED);
      // It may have gone already (another tab, an admin): read it again rather than guess.
      if (userId) void readMine(userId);
      return false;
    } finally {
      setUnsubscribing(false);
    }
  }, [userId, readMine, toast]);

  const known = mine !== null && mine.userId === userId;
  const subscription = isSignedIn && known ? mine.subscription : null;
  const isSubscribed = subscription?.status === "active";
  return {
    isSubscribed,
    isPending: isSignedIn
      ? !isSubscribed && (subscription?.status === "pending" || confirmationRequested)
      : visitorEmail !== null,
    isChecking: isSignedIn && !known,
    subscription,
    isSignedIn,
    subscribing,
    unsubscribing,
    subscribe,
    unsubscribe,
  };
}
