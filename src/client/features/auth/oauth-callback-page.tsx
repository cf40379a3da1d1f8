import { useParams } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";
import { useTRPCClient } from "../../lib/trpc";
import { AuthErrorScreen, CompletingSignIn } from "./auth-error-screen";
import { oauthRedirectUri } from "./oauth-flow";
import { useOAuthCodeExchange } from "./use-oauth-code-exchange";

/** /oauth/{provider}/callback: reads code, state and error and exchanges the code (Google only). */
export default function OAuthCallbackPage() {
  const { provider = "" } = useParams<{ provider: string }>();
  usePageMeta({ title: "Signing In", path: `/oauth/${provider}/callback`, noIndex: true });
  const client = useTRPCClient();
  const error = useOAuthCodeExchange({
    markerProvider: provider,
    rejectReason: provider === "google" ? null : "Unsupported OAuth provider",
    exchange: (code, params) =>
      client.auth.googleExchange.mutate({
        code,
        state: params.get("state") ?? "",
        redirect_uri: oauthRedirectUri("google"),
      }),
  });
  return error ? <AuthErrorScreen message={error} /> : <CompletingSignIn />;
}
