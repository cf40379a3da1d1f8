import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { BlogSubscription } from "../../../shared/schemas/blog";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { BLOG_MESSAGES } from "../../lib/blog-constants";
import { readStorage, writeStorage } from "../../lib/storage";
import { useTRPC } from "../../lib/trpc";

/** Spec 3 and 9: what a subscription asks for. */
export const SUBSCRIPTION_FREQUENCY = "weekly";
export const SIGN_IN_TO_SUBSCRIBE = "Please sign in to subscribe";
export const SUBSCRIBE_FAILED = "Failed to subscribe";
export const UNSUBSCRIBE_FAILED = "Failed to unsubscribe";
export const UNSUBSCRIBE_CONFIRMATION = "Are you sure you want to unsubscribe from blog notifications?";

/** A visitor has no account to look the subscription up by; this tab remembers the address they used. */
const VISITOR_KEY = "atomize.blog.subscribed";

export type BlogSubscriptionState = {
  /** Signed in with an active subscription, or a visitor who subscribed in this tab. */
  isSubscribed: boolean;
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
 * Spec 2-4 "Blog subscription": none -> active by subscribing, removed by the user's own unsubscribe.
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
        if (isSignedIn) {
          queryClient.setQueryData(trpc.blog.mySubscription.queryKey(), res.subscription);
        } else {
          writeStorage("session", VISITOR_KEY, res.subscription.email);
          setVisitorEmail(res.subscription.email);
        }
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
  return {
    isSubscribed: isSignedIn ? subscription !== null : visitorEmail !== null,
    isChecking: isSignedIn && mine.isPending,
    subscription,
    isSignedIn,
    subscribing: subscribeMutation.isPending,
    unsubscribing: unsubscribeMutation.isPending,
    subscribe,
    unsubscribe,
  };
}
