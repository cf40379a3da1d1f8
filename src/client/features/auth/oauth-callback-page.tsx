import { useParams } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";
import { useTRPCClient } from "../../lib/trpc";
import { AuthErrorScreen, CompletingSignIn } from "./auth-error-screen";
import { oauthRedirectUri } from "./oauth-flow";
import { useOAuthCodeExchange } from "./use-oauth-code-exchange";

/**
 * /oauth/{provider}/callback: reads code, state, iss and error and exchanges the code (Google only). `iss`
 * (RFC 9207) goes along when the provider sent it: a provider that advertises it must send it, and the
 * server refuses a response without it.
 */
export default function OAuthCallbackPage() {
  const { provider = "" } = useParams<{ provider: string }>();
  usePageMeta({ title: "Signing In", path: `/oauth/${provider}/callback`, noIndex: true });
  const client = useTRPCClient();
  const error = useOAuthCodeExchange({
    markerProvider: provider,
    rejectReason: provider === "google" ? null : "Unsupported OAuth provider",
    exchange: (code, params) => {
      const iss = params.get("iss");
      return client.auth.googleExchange.mutate({
        code,
        state: params.get("state") ?? "",
        redirect_uri: oauthRedirectUri("google"),
        ...(iss === null ? {} : { iss }),
      });
    },
  });
  return error ? <AuthErrorScreen message={error} /> : <CompletingSignIn />;
}
