import type { Operation, TRPCLink } from "@trpc/client";
import type { AnyRouter } from "@trpc/server";
import { observable, type Unsubscribable } from "@trpc/server/observable";
import { isUnauthorized } from "./api-error";

/** Calls where UNAUTHORIZED is an answer, not an expired session. */
const NO_REFRESH_PATHS = new Set([
  "auth.login",
  "auth.register",
  "auth.refresh",
  "auth.me",
  "auth.logout",
  "auth.devBypass",
  "auth.googleExchange",
  "auth.exchangeAuthCode",
]);

export type AuthRefreshLinkOptions = {
  /** Rotates the session cookies; must be deduplicated by the caller (one shared promise). */
  refresh: () => Promise<unknown>;
  /** The refresh failed: the session is gone. */
  onRefreshFailed: () => void;
};

function skipsRefresh(op: Operation): boolean {
  return op.type === "subscription" || NO_REFRESH_PATHS.has(op.path) || op.context.skipAuthRefresh === true;
}

/**
 * Auth: on a 401 the client refreshes the session once and re-runs the call once; when the
 * refresh fails the session is cleared and the user goes to /login (done by `onRefreshFailed`).
 */
export function authRefreshLink<TRouter extends AnyRouter>(opts: AuthRefreshLinkOptions): TRPCLink<TRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let current: Unsubscribable | undefined;
        let disposed = false;

        const run = (isRetry: boolean) => {
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (err) => {
              if (isRetry || skipsRefresh(op) || !isUnauthorized(err)) {
                observer.error(err);
                return;
              }
              opts.refresh().then(
                () => {
                  if (!disposed) run(true);
                },
                () => {
                  opts.onRefreshFailed();
                  if (!disposed) observer.error(err);
                },
              );
            },
          });
        };

        run(false);
        return () => {
          disposed = true;
          current?.unsubscribe();
        };
      });
}
