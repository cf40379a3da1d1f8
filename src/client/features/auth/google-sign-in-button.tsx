import { useMutation } from "@tanstack/react-query";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";
import { clearOAuthStarted, markOAuthStarted, type OAuthMode, oauthRedirectUri } from "./oauth-flow";
import { useAuthProviders } from "./use-auth-providers";

export const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured";

function GoogleLogo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="size-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

/**
 * 'Continue with Google' (login) or 'Sign up with Google' (register): marks the flow as started, asks
 * the server for the authorization URL and leaves for Google. Disabled when the server has no Google.
 */
export function GoogleSignInButton({ mode }: { mode: OAuthMode }) {
  const trpc = useTRPC();
  const toast = useToast();
  const providers = useAuthProviders();
  const authorize = useMutation(trpc.auth.googleAuthorize.mutationOptions({ retry: false }));

  const configured = providers.data?.google === true;
  const label = mode === "register" ? "Sign up with Google" : "Continue with Google";
  const busy = authorize.isPending || authorize.isSuccess; // success: the browser is leaving

  const start = async () => {
    markOAuthStarted("google", mode);
    try {
      const res = await authorize.mutateAsync({ redirect_uri: oauthRedirectUri("google") });
      window.location.assign(res.authorization_url);
    } catch (err) {
      clearOAuthStarted();
      toast.error(errorDetailOf(err) ?? "Failed to initiate OAuth flow", {
        title: mode === "register" ? "Google registration failed" : "Google login failed",
      });
    }
  };

  const notConfigured = providers.isSuccess && !configured;
  return (
    <div className="w-full" title={notConfigured ? GOOGLE_NOT_CONFIGURED : undefined}>
      <button
        type="button"
        className="btn btn-outline w-full gap-3"
        disabled={!configured || busy}
        title={notConfigured ? GOOGLE_NOT_CONFIGURED : undefined}
        aria-describedby={notConfigured ? `google-note-${mode}` : undefined}
        onClick={() => void start()}
      >
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : <GoogleLogo />}
        {label}
      </button>
      {notConfigured && (
        <p id={`google-note-${mode}`} className="mt-1 text-center text-xs text-base-content/60">
          {GOOGLE_NOT_CONFIGURED}
        </p>
      )}
    </div>
  );
}
