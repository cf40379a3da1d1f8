import { useId, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal";
import { useToast } from "../../components/toast";
import { useSession } from "../../lib/session";
import {
  type BlogSubscriptionState,
  SIGN_IN_TO_SUBSCRIBE,
  UNSUBSCRIBE_CONFIRMATION,
} from "./use-blog-subscription";

/**
 * The blog list's subscribe button: 'Subscribe', 'Pending confirmation' or 'Subscribed'. A visitor is asked to
 * sign in; a signed-in user subscribes with the account's e-mail (confirmed through a mailed link unless
 * the account's e-mail is verified), or, when subscribed, may unsubscribe after a confirmation.
 */
export function SubscribeButton({ subscription: sub }: { subscription: BlogSubscriptionState }) {
  const toast = useToast();
  const { status } = useSession();
  const hintId = useId();
  const [confirming, setConfirming] = useState(false);
  const subscribed = sub.isSignedIn && sub.isSubscribed;
  const pending = sub.isSignedIn && !subscribed && sub.isPending;
  const busy = status === "loading" || sub.isChecking || sub.subscribing;

  const onClick = () => {
    if (!sub.isSignedIn) {
      toast.info(SIGN_IN_TO_SUBSCRIBE);
      return;
    }
    if (subscribed) setConfirming(true);
    else void sub.subscribe(); // pending: asks for the link again (the server sends it at most every few hours)
  };

  const confirmUnsubscribe = async () => {
    await sub.unsubscribe();
    setConfirming(false);
  };

  return (
    <>
      <button
        type="button"
        className={`btn ${subscribed ? "btn-success btn-outline" : "btn-primary"}`}
        onClick={onClick}
        disabled={busy}
        aria-busy={busy || undefined}
        aria-describedby={hintId}
      >
        {sub.subscribing ? (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        ) : (
          <span aria-hidden="true">{subscribed ? "✓" : "✉"}</span>
        )}
        {subscribed ? "Subscribed" : pending ? "Pending confirmation" : "Subscribe"}
      </button>
      <span id={hintId} className="sr-only">
        {subscribed
          ? "You're subscribed to blog updates. Press to unsubscribe."
          : pending
            ? "We sent you a link to confirm your subscription. Press to ask for it again."
            : "Get notified of new blog posts by e-mail."}
      </span>
      <ConfirmModal
        open={confirming}
        title="Unsubscribe"
        message={UNSUBSCRIBE_CONFIRMATION}
        confirmLabel="Unsubscribe"
        pendingLabel="Unsubscribing..."
        pending={sub.unsubscribing}
        onConfirm={() => void confirmUnsubscribe()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
