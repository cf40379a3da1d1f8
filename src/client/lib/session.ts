import { useSyncExternalStore } from "react";
import type { PublicUser } from "../../shared/schemas/auth";
import { listenerSet } from "./listeners";

/**
 * Browser-side session bookkeeping. The session itself is a pair of httpOnly cookies the SPA never sees;
 * here we keep only non-secret markers and the "session expired" notice shared by the tRPC link and the UI.
 */
export const SESSION_EXPIRED_MESSAGE = "Session expired. Please log in again.";

export { clearSessionMarker, hasSessionMarker, markSignedIn } from "./session-marker";

// -- session-expired notice (a tiny external store for useSyncExternalStore) ---------------------------
let expiredMessage: string | null = null;
const messageListeners = listenerSet();

export function getSessionExpiredMessage(): string | null {
  return expiredMessage;
}

export function setSessionExpiredMessage(message: string | null): void {
  if (expiredMessage === message) return;
  expiredMessage = message;
  messageListeners.notify();
}

export const subscribeSessionExpiredMessage = messageListeners.subscribe;

// -- "the refresh failed" signal from the tRPC link to the auth provider -------------------------------
const expiredHandlers = listenerSet();
export const onSessionExpired = expiredHandlers.subscribe;
export const notifySessionExpired = expiredHandlers.notify;

// -- the signed-in user (an external store, so sign-in/out and navigation commit in the same render) ---
export type AuthStatus = "loading" | "authenticated" | "unauthenticated";
export type SessionState<U> = { status: AuthStatus; user: U | null };

export function createSessionStore<U>() {
  let state: SessionState<U> = { status: "loading", user: null };
  const listeners = listenerSet();
  return {
    get: () => state,
    set(user: U | null) {
      state = { status: user ? "authenticated" : "unauthenticated", user };
      listeners.notify();
    },
    subscribe: listeners.subscribe,
  };
}

/**
 * The signed-in user of this page: one store the light public shell reads (the header, the blog) and the
 * signed-in code writes (lib/auth.tsx). Its listeners run synchronously, so "signed out" and a navigation
 * made in the same tick render together.
 */
export const session = createSessionStore<PublicUser>();

/** What the server rendered: a visitor (public pages are the same for everyone, then update). */
const SERVER_SESSION: SessionState<PublicUser> = { status: "unauthenticated", user: null };

/**
 * The session as the page shows it. While hydrating it is the server's view (signed out), so the markup
 * matches; the real state follows in the next render.
 */
export function useSession(): SessionState<PublicUser> & { isAdmin: boolean } {
  const state = useSyncExternalStore(session.subscribe, session.get, () => SERVER_SESSION);
  return { ...state, isAdmin: state.user?.role === "admin" };
}

/** Resolves once the page knows whether someone is signed in. */
export function whenSessionKnown(): Promise<void> {
  if (session.get().status !== "loading") return Promise.resolve();
  return new Promise((resolve) => {
    const stop = session.subscribe(() => {
      if (session.get().status === "loading") return;
      stop();
      resolve();
    });
  });
}
