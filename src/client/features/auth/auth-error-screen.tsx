import { navigate } from "wouter/use-browser-location";
import { OAUTH_FAILED_HEADING } from "./oauth-errors";

/** The OAuth error screen with a 'Return to Login' button. */
export function AuthErrorScreen({ message }: { message: string }) {
  return (
    <section className="flex flex-1 items-center justify-center px-4 py-12">
      <div role="alert" className="card w-full max-w-lg border border-error/40 bg-base-200 shadow-xl">
        <div className="card-body items-center gap-4 text-center">
          <h1 className="text-xl font-bold">{OAUTH_FAILED_HEADING}</h1>
          <p className="text-error">{message}</p>
          <button type="button" className="btn btn-primary" onClick={() => navigate("/login")}>
            Return to Login
          </button>
        </div>
      </div>
    </section>
  );
}

export function CompletingSignIn() {
  return (
    <section className="flex flex-1 items-center justify-center px-4 py-12">
      <span role="status" aria-live="polite" className="flex flex-col items-center gap-4">
        <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
        <span className="text-lg">Completing sign-in...</span>
      </span>
    </section>
  );
}
