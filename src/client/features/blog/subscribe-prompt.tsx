import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { subscribeEmailError } from "../../../shared/blog-rules";
import { ConfirmModal } from "../../components/confirm-modal";
import { Field } from "../../components/field";
import { type BlogSubscriptionState, UNSUBSCRIBE_CONFIRMATION } from "./use-blog-subscription";

export const SUBSCRIBED_TEXT = "You're subscribed to blog updates";
export const NOT_SUBSCRIBED_TEXT = "Get notified of new blog posts";
export const PENDING_TEXT = "Check your inbox to confirm your subscription";

type PromptProps = {
  subscription: BlogSubscriptionState;
  /** Whether a visitor's e-mail form is showing (the page owns it, so the compact variant can open it). */
  formOpen: boolean;
  onFormOpenChange: (open: boolean) => void;
};

/**
 * The subscribe prompt under a blog post, inline variant: 'Enjoyed this article?' with 'Subscribe Now'. A signed-in user
 * subscribes at once; a visitor gets an e-mail field (required, type email) with Subscribe and Cancel.
 * Until the address is confirmed through the mailed link, the prompt says to check the inbox.
 */
export function SubscribePrompt({ subscription: sub, formOpen, onFormOpenChange }: PromptProps) {
  const titleId = useId();
  const emailId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!formOpen) return;
    sectionRef.current?.scrollIntoView?.({ block: "center", behavior: "smooth" });
    emailRef.current?.focus({ preventScroll: true });
  }, [formOpen]);

  const subscribeNow = () => {
    if (sub.isSignedIn) void sub.subscribe();
    else onFormOpenChange(true);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    // An empty (trimmed) address is not sent; a malformed one gets subscribeInput's message (zod-free rule).
    if (!value || sub.subscribing) return;
    const problem = subscribeEmailError(value);
    setEmailError(problem);
    if (problem) return;
    if (await sub.subscribe(value)) {
      setEmail("");
      onFormOpenChange(false);
    }
  };

  const cancel = () => {
    setEmail("");
    setEmailError(null);
    onFormOpenChange(false);
  };

  return (
    <section
      ref={sectionRef}
      aria-labelledby={titleId}
      className="rounded-box border border-primary/30 bg-primary/5 p-5 sm:p-6"
    >
      <h2 id={titleId} className="text-xl font-bold">
        Enjoyed this article?
      </h2>
      {sub.isSubscribed ? (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="text-base-content/80">
            <span aria-hidden="true" className="mr-1 text-success">
              ✓
            </span>
            {SUBSCRIBED_TEXT}. We'll let you know when new posts are published.
          </p>
          {sub.isSignedIn && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(true)}>
              Unsubscribe
            </button>
          )}
        </div>
      ) : formOpen && !sub.isSignedIn ? (
        <form className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(e) => void submit(e)}>
          <Field
            id={emailId}
            label="Email address"
            wrapperClassName="min-w-0 flex-1"
            required
            error={emailError}
            ref={emailRef}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="Enter your email address"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setEmailError(null);
            }}
            disabled={sub.subscribing}
          />
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary flex-1 sm:flex-none" disabled={sub.subscribing}>
              {sub.subscribing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              Subscribe
            </button>
            <button
              type="button"
              className="btn btn-ghost flex-1 sm:flex-none"
              onClick={cancel}
              disabled={sub.subscribing}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : sub.isPending ? (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="text-base-content/80" role="status">
            <span aria-hidden="true" className="mr-1">
              ✉
            </span>
            {PENDING_TEXT}: we sent you a link. Once you follow it, we'll let you know when new posts are
            published.
          </p>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={subscribeNow}
            disabled={sub.subscribing || sub.isChecking}
          >
            {sub.isSignedIn ? "Send the link again" : "Use another address"}
          </button>
        </div>
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="text-base-content/80">
            Subscribe to get new insights, product updates and tutorials in your inbox every week.
          </p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={subscribeNow}
            disabled={sub.subscribing || sub.isChecking}
          >
            {sub.subscribing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Subscribe Now
          </button>
        </div>
      )}
      <ConfirmModal
        open={confirming}
        title="Unsubscribe"
        message={UNSUBSCRIBE_CONFIRMATION}
        confirmLabel="Unsubscribe"
        pendingLabel="Unsubscribing..."
        pending={sub.unsubscribing}
        onConfirm={() => void sub.unsubscribe().then(() => setConfirming(false))}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}

/**
 * The compact one-line variant: 'Get notified of new blog posts' with a Subscribe button,
 * "You're subscribed to blog updates", or, until confirmed, "Check your inbox to confirm your
 * subscription". A visitor's Subscribe opens the inline prompt's e-mail form.
 */
export function SubscribeCompact({
  subscription: sub,
  onRequestEmail,
}: {
  subscription: BlogSubscriptionState;
  onRequestEmail: () => void;
}) {
  const textId = useId();
  if (sub.isPending && !sub.isSubscribed) {
    return (
      <p className="flex items-center gap-2 rounded-box border border-base-300 bg-base-200/60 px-3 py-2 text-sm">
        <span aria-hidden="true">✉</span>
        {PENDING_TEXT}
      </p>
    );
  }
  if (sub.isSubscribed) {
    return (
      <p className="flex items-center gap-2 rounded-box border border-success/30 bg-success/5 px-3 py-2 text-sm">
        <span aria-hidden="true" className="text-success">
          ✓
        </span>
        {SUBSCRIBED_TEXT}
      </p>
    );
  }
  return (
    <div className="flex items-center justify-between gap-3 rounded-box border border-base-300 bg-base-200/60 px-3 py-2 text-sm">
      <p id={textId} className="min-w-0">
        <span aria-hidden="true" className="mr-1">
          ✉
        </span>
        {NOT_SUBSCRIBED_TEXT}
      </p>
      <button
        type="button"
        className="btn btn-primary btn-xs sm:btn-sm shrink-0"
        aria-describedby={textId}
        onClick={() => (sub.isSignedIn ? void sub.subscribe() : onRequestEmail())}
        disabled={sub.subscribing || sub.isChecking}
      >
        Subscribe
      </button>
    </div>
  );
}
