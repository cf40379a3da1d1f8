import { useEffect, useState } from "react";
import { useSearch } from "wouter";
import { navigate } from "wouter/use-browser-location";
import type { PublicUser } from "../../../shared/schemas/auth";
import { useAuth } from "../../lib/auth";
import { takeReturnTo } from "../../lib/return-to";
import { useTRPCClient } from "../../lib/trpc";
import { oauthExchangeErrorMessage } from "./oauth-errors";
import {
  alreadyProcessed,
  clearCodeMarker,
  clearOAuthStarted,
  codeMarkerKey,
  sweepCodeMarkers,
  writeCodeMarker,
} from "./oauth-flow";

/** Exchanges running in this page load: StrictMode runs effects twice and a code must be exchanged once. */
const inFlight = new Set<string>();

export type CodeExchangeOptions = {
  /** Names the code markers ("google", or "secure" for /oauth-callback). */
  markerProvider: string;
  /** A reason not to exchange at all (e.g. an unsupported provider in the URL). */
  rejectReason?: string | null;
  exchange: (code: string, params: URLSearchParams) => Promise<{ user: PublicUser }>;
};

/**
 * The OAuth callback: read code (and error) from the URL, exchange the code once,
 * then go to the remembered origin or /dashboard. Returns the error message to show, if any.
 */
export function useOAuthCodeExchange({
  markerProvider,
  rejectReason,
  exchange,
}: CodeExchangeOptions): string | null {
  const search = useSearch();
  const { completeSignIn } = useAuth();
  const client = useTRPCClient();
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a callback URL is handled once, on arrival
  useEffect(() => {
    const params = new URLSearchParams(search);
    const oauthError = params.get("error");
    const code = params.get("code");
    sweepCodeMarkers();

    if (oauthError) {
      if (code) clearCodeMarker(codeMarkerKey(markerProvider, code));
      clearOAuthStarted();
      setError(`OAuth error: ${oauthError}`);
      return;
    }
    if (code === null) {
      setError("Missing required OAuth parameter: code");
      return;
    }
    if (code.trim() === "") {
      setError("Invalid authorization code");
      return;
    }
    if (rejectReason) {
      setError(rejectReason);
      return;
    }

    const key = codeMarkerKey(markerProvider, code);
    if (inFlight.has(key)) return;
    if (alreadyProcessed(key)) {
      navigate("/dashboard", { replace: true });
      return;
    }
    inFlight.add(key);
    writeCodeMarker(key, "in_progress");
    exchange(code, params)
      .then(
        (res) => {
          writeCodeMarker(key, "done");
          clearOAuthStarted();
          completeSignIn(res.user);
          navigate(takeReturnTo(), { replace: true });
          // The current-user check after the exchange only logs a failure.
          client.auth.me
            .query()
            .catch((err: unknown) => console.warn("[atomize] user check after sign-in failed", err));
        },
        (err: unknown) => {
          clearCodeMarker(key);
          clearOAuthStarted();
          console.warn("[atomize] OAuth code exchange failed", err);
          setError(oauthExchangeErrorMessage(err));
        },
      )
      .finally(() => inFlight.delete(key));
  }, []);

  return error;
}
