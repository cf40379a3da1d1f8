import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { BLOG_MESSAGES } from "../../../shared/blog-rules";
import type { BlogSubscription } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { readStorage, writeStorage } from "../../lib/storage";
import { useTRPC } from "../../lib/trpc";

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
 * not subscribed).
 */
export function useBlogSubscription(): BlogSubscriptionState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { user, status } = useAuth();
  const isSignedIn = status === "authenticated" && user !== null;
  const [visitorEmail, setVisitorEmail] = useState(() => readStorage("session", VISITOR_KEY));
  const [confirmationRequested, setConfirmationRequested] = useState(false);

  const mine = useQuery(
    trpc.blog.mySubscription.queryOptions(undefined, { enabled: isSignedIn, retry: false }),
  );

  const subscribeMutation = useMutation(trpc.blog.subscribe.mutationOptions({ retry: false }));
  const unsubscribeMutation = useMutation(trpc.blog.unsubscribe.mutationOptions({ retry: false }));

  const subscribe = useCallback(
    async (email?: string) => {
      try {
        const res = await subscribeMutation.mutateAsync({
          ...(isSignedIn ? {} : { email: email?.trim() ?? "" }),
          frequency: SUBSCRIPTION_FREQUENCY,
          categories: [],
        });
        if (res.confirmation_required) {
          if (isSignedIn) {
            setConfirmationRequested(true);
            void queryClient.invalidateQueries({ queryKey: trpc.blog.mySubscription.queryKey() });
          } else {
            const address = email?.trim().toLowerCase() ?? "";
            writeStorage("session", VISITOR_KEY, address);
            setVisitorEmail(address);
          }
          toast.info(res.detail || BLOG_MESSAGES.checkInbox);
          return true;
        }
        queryClient.setQueryData(trpc.blog.mySubscription.queryKey(), res.subscription);
        if (res.already_subscribed) toast.info(res.detail || BLOG_MESSAGES.alreadySubscribed);
        else toast.success(BLOG_MESSAGES.subscribed);
        return true;
      } catch (err) {
        toast.error(errorDetailOf(err) ?? SUBSCRIBE_FAILED);
        return false;
      }
    },
    [subscribeMutation.mutateAsync, isSignedIn, queryClient, trpc, toast],
  );

  const unsubscribe = useCallback(async () => {
    try {
      await unsubscribeMutation.mutateAsync();
      queryClient.setQueryData(trpc.blog.mySubscription.queryKey(), null);
      setConfirmationRequested(false);
      toast.success(BLOG_MESSAGES.unsubscribed);
      return true;
    } catch (err) {
      toast.error(errorDetailOf(err) ?? UNSUBSCRIBE_FAILED);
      // It may have gone already (another tab, an admin): read it again rather than guess.
      void queryClient.invalidateQueries({ queryKey: trpc.blog.mySubscription.queryKey() });
      return false;
    }
  }, [unsubscribeMutation.mutateAsync, queryClient, trpc, toast]);

  const subscription = isSignedIn ? (mine.data ?? null) : null;
  const isSubscribed = subscription?.status === "active";
  return {
    isSubscribed,
    isPending: isSignedIn
      ? !isSubscribed && (subscription?.status === "pending" || confirmationRequested)
      : visitorEmail !== null,
    isChecking: isSignedIn && mine.isPending,
    subscription,
    isSignedIn,
    subscribing: subscribeMutation.isPending,
    unsubscribing: unsubscribeMutation.isPending,
    subscribe,
    unsubscribe,
  };
}
