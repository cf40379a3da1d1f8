import { type QueryClient, useMutation } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from "react";
import { navigate } from "wouter/use-browser-location";
import type { AuthResponse, LoginInput, PublicUser, RegisterInput } from "../../shared/schemas/auth";
import { httpStatusOf, isClientError, isUnauthorized } from "./api-error";
import { currentPath, rememberReturnTo } from "./return-to";
import {
  type AuthStatus,
  clearSessionMarker,
  getSessionExpiredMessage,
  hasSessionMarker,
  markSignedIn,
  onSessionExpired,
  SESSION_EXPIRED_MESSAGE,
  session,
  setSessionExpiredMessage,
  subscribeSessionExpiredMessage,
} from "./session";
import { useTRPC, useTRPCClient } from "./trpc";
import { type AppTRPCClient, refreshSession, resetRealtimeConnection } from "./trpc-client";

export type { AuthStatus };

export type AuthContextValue = {
  user: PublicUser | null;
  status: AuthStatus;
  isAuthenticated: boolean;
  isAdmin: boolean;
  /** 'Session expired. Please log in again.' after a failed refresh, until cleared. */
  sessionExpiredMessage: string | null;
  clearSessionExpiredMessage: () => void;
  /** auth.login; on success the user is signed in (cookies set by the server). Rejects with the tRPC error. */
  login: (input: LoginInput) => Promise<AuthResponse>;
  /** auth.register; the new account is signed in at once. */
  register: (input: RegisterInput) => Promise<AuthResponse>;
  /** auth.devBypass (development servers only). */
  devLogin: () => Promise<AuthResponse>;
  /** Records a sign-in finished elsewhere (the OAuth exchanges). */
  completeSignIn: (user: PublicUser) => void;
  /** Re-reads the current user from the server (auth.me); resolves to null when signed out. */
  refetchUser: () => Promise<PublicUser | null>;
};

/**
 * On start: load the current user; with a session that has lapsed (the marker says one
 * existed) refresh once, then load the user; a failed refresh means 'Session expired. Please log in again.'
 */
async function loadSession(client: AppTRPCClient): Promise<PublicUser | null> {
  try {
    const user = await client.auth.me.query();
    markSignedIn();
    return user;
  } catch (err) {
    if (!isUnauthorized(err)) throw err;
  }
  if (!hasSessionMarker()) return null;
  try {
    await refreshSession();
    const user = await client.auth.me.query();
    markSignedIn();
    return user;
  } catch (err) {
    // Any 4xx from the refresh means the refresh cookie is gone or invalid; 5xx/network stay errors, and
    // so does a rate limit (429), which leaves the cookies in place for a later try.
    if (!isClientError(err) || httpStatusOf(err) === 429) throw err;
    clearSessionMarker();
    setSessionExpiredMessage(SESSION_EXPIRED_MESSAGE);
    return null;
  }
}

const clearSessionExpiredMessage = () => setSessionExpiredMessage(null);

/** Re-reads the current user into the session store; resolves to null when signed out. */
export async function refetchSessionUser(client: AppTRPCClient): Promise<PublicUser | null> {
  try {
    const next = await loadSession(client);
    session.set(next);
    return next;
  } catch (err) {
    // No answer (offline, 5xx): the state stays as it was, or signed out when it was still loading.
    console.warn("[atomize] could not load the current user", err);
    if (session.get().status === "loading") session.set(null);
    throw err;
  }
}

let started = false;

/** Loads the session once per page, unless the page already knows it (e.g. no session cookie at all). */
export function startSession(client: AppTRPCClient): void {
  if (started || session.get().status !== "loading") return;
  started = true;
  refetchSessionUser(client).catch(() => undefined);
}

/** auth.logout, then clears every cached query and goes to /. Rejects when the server call fails. */
export async function signOut(client: AppTRPCClient, queryClient: QueryClient): Promise<void> {
  await client.auth.logout.mutate();
  clearSessionMarker();
  setSessionExpiredMessage(null);
  resetRealtimeConnection();
  // Same tick: the route change and "signed out" render together, so no guard sees a half state.
  navigate("/");
  session.set(null);
  queryClient.clear();
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const { status, user } = useSyncExternalStore(session.subscribe, session.get, session.get);
  const sessionExpiredMessage = useSyncExternalStore(
    subscribeSessionExpiredMessage,
    getSessionExpiredMessage,
  );

  const refetchUser = useCallback(() => refetchSessionUser(client), [client]);

  // Once per page load (a module flag: StrictMode runs effects twice, and the provider mounts in places).
  useEffect(() => startSession(client), [client]);

  const completeSignIn = useCallback((signedIn: PublicUser) => {
    markSignedIn();
    setSessionExpiredMessage(null);
    resetRealtimeConnection();
    session.set(signedIn);
  }, []);

  // A call failed with 401 and the refresh failed too (see auth-refresh-link): the session is gone.
  useEffect(
    () =>
      onSessionExpired(() => {
        if (session.get().status !== "authenticated" && !hasSessionMarker()) return;
        clearSessionMarker();
        resetRealtimeConnection();
        rememberReturnTo(currentPath());
        setSessionExpiredMessage(SESSION_EXPIRED_MESSAGE);
        navigate("/login");
        session.set(null);
      }),
    [],
  );

  const { mutateAsync: loginAsync } = useMutation(trpc.auth.login.mutationOptions({ retry: false }));
  const { mutateAsync: registerAsync } = useMutation(trpc.auth.register.mutationOptions({ retry: false }));
  const { mutateAsync: devBypassAsync } = useMutation(trpc.auth.devBypass.mutationOptions({ retry: false }));

  // Each signs in with the user its call answers.
  const { login, register, devLogin } = useMemo(() => {
    const signingIn =
      <I,>(call: (input: I) => Promise<AuthResponse>) =>
      async (input: I) => {
        const res = await call(input);
        completeSignIn(res.user);
        return res;
      };
    return {
      login: signingIn(loginAsync),
      register: signingIn(registerAsync),
      devLogin: signingIn(devBypassAsync),
    };
  }, [loginAsync, registerAsync, devBypassAsync, completeSignIn]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      status,
      isAuthenticated: status === "authenticated",
      isAdmin: user?.role === "admin",
      sessionExpiredMessage,
      clearSessionExpiredMessage,
      login,
      register,
      devLogin,
      completeSignIn,
      refetchUser,
    }),
    [user, status, sessionExpiredMessage, login, register, devLogin, completeSignIn, refetchUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
