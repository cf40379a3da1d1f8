import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { AuthCard } from "../../components/auth-card";
import { usePageMeta } from "../../components/use-page-meta";
import {
  errorDetailOf,
  isNetworkError,
  NETWORK_ERROR_MESSAGE,
  REQUEST_FAILED_MESSAGE,
} from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { useTRPCClient } from "../../lib/trpc";

export const MISSING_TOKEN =
  "This verification link is incomplete. Please open the link from the e-mail again, or request a new one from Settings → Account.";

type Outcome =
  | { kind: "verifying" }
  | { kind: "verified"; message: string }
  | { kind: "failed"; message: string };

/** /verify-email?token=…: the link mailed after registration. Works signed in or not (another browser). */
export default function VerifyEmailPage() {
  usePageMeta({ title: "Verify E-mail", path: "/verify-email", noIndex: true });
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const client = useTRPCClient();
  const { status, refetchUser } = useAuth();
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { kind: "verifying" } : { kind: "failed", message: MISSING_TOKEN },
  );

  // Once per page load (StrictMode runs effects twice; the ref survives that).
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    client.auth.verifyEmail
      .mutate({ token })
      .then((res) => {
        setOutcome({ kind: "verified", message: res.detail });
        // A signed-in tab shows the new state (and an ADMIN_EMAILS account its role) at once.
        refetchUser().catch(() => undefined);
      })
      .catch((err: unknown) =>
        setOutcome({
          kind: "failed",
          message:
            errorDetailOf(err) ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : REQUEST_FAILED_MESSAGE),
        }),
      );
  }, [client, token, refetchUser]);

  const signedIn = status === "authenticated";
  return (
    <AuthCard title="Verify E-mail">
      {outcome.kind === "verifying" && (
        <span role="status" aria-live="polite" className="flex items-center gap-3">
          <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
          Verifying your e-mail address...
        </span>
      )}
      {outcome.kind === "verified" && (
        <>
          <p role="status" className="text-success">
            {outcome.message}
          </p>
          <Link href={signedIn ? "/dashboard" : "/login"} className="btn btn-primary">
            {signedIn ? "Go to Dashboard" : "Sign In"}
          </Link>
        </>
      )}
      {outcome.kind === "failed" && (
        <>
          <p role="alert" className="text-error">
            {outcome.message}
          </p>
          <Link href={signedIn ? "/settings?tab=account" : "/login"} className="btn btn-primary">
            {signedIn ? "Go to Settings" : "Sign In"}
          </Link>
        </>
      )}
    </AuthCard>
  );
}
