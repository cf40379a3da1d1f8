import { useState } from "react";
import {
  errorDetailOf,
  isNetworkError,
  NETWORK_ERROR_MESSAGE,
  REQUEST_FAILED_MESSAGE,
} from "../lib/api-error";
import { useAuth } from "../lib/auth";
import { useTRPCClient } from "../lib/trpc";
import { useToast } from "./toast";

/** Settings → Account: whether the address is verified, and a way to get the link again. */
export function EmailVerificationNotice() {
  const { user } = useAuth();
  const client = useTRPCClient();
  const toast = useToast();
  const [sending, setSending] = useState(false);
  if (!user) return null;
  if (user.email_verified) {
    return (
      <p className="text-sm text-success" data-testid="email-verification">
        E-mail verified
      </p>
    );
  }

  const resend = async () => {
    setSending(true);
    try {
      const res = await client.auth.resendVerification.mutate();
      toast.success(res.detail);
    } catch (err) {
      toast.error(
        errorDetailOf(err) ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : REQUEST_FAILED_MESSAGE),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <div
      role="status"
      className="alert alert-warning flex flex-wrap items-center justify-between gap-3"
      data-testid="email-verification"
    >
      <span>E-mail not verified</span>
      <button type="button" className="btn btn-sm" onClick={() => void resend()} disabled={sending}>
        {sending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Resend verification e-mail
      </button>
    </div>
  );
}
