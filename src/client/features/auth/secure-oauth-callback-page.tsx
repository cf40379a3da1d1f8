import { usePageMeta } from "../../components/use-page-meta";
import { useTRPCClient } from "../../lib/trpc";
import { AuthErrorScreen, CompletingSignIn } from "./auth-error-screen";
import { useOAuthCodeExchange } from "./use-oauth-code-exchange";

/** /oauth-callback: exchanges the one-time code the server's own Google callback handed over. */
export default function SecureOAuthCallbackPage() {
  usePageMeta({ title: "Signing In", path: "/oauth-callback", noIndex: true });
  const client = useTRPCClient();
  const error = useOAuthCodeExchange({
    markerProvider: "secure",
    exchange: (code) => client.auth.exchangeAuthCode.mutate({ code }),
  });
  return error ? <AuthErrorScreen message={error} /> : <CompletingSignIn />;
}
