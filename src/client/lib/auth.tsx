import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
import { isClientError, isUnauthorized } from "./api-error";
import { currentPath, rememberReturnTo } from "./return-to";
import {
  clearLoggedOut,
  clearSessionMarker,
  getSessionExpiredMessage,
  hasSessionMarker,
  markLoggedOut,
  markSignedIn,
  onSessionExpired,
  SESSION_EXPIRED_MESSAGE,
  setSessionExpiredMessage,
  subscribeSessionExpiredMessage,
} from "./session";
import { useTRPC, useTRPCClient } from "./trpc";
import { type AppTRPCClient, refreshSession } from "./trpc-client";

export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

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
  /** auth.logout, then clears every cached query and goes to /. Rejects when the server call fails. */
  logout: () => Promise<void>;
  /** Re-reads the current user from the server. */
  refetchUser: () => Promise<PublicUser | null>;
};

/** The current user, or null when signed out. Not `auth.me`'s own key: this one also holds "signed out". */
export const SESSION_QUERY_KEY = ["atomize", "session"] as const;

/**
 * Spec 4 "Auth" on start: load the current user; with a session that has lapsed (the marker says one
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
    // Any 4xx from the refresh means the refresh cookie is gone or invalid; 5xx/network stay errors.
    if (!isClientError(err)) throw err;
    clearSessionMarker();
    setSessionExpiredMessage(SESSION_EXPIRED_MESSAGE);
    return null;
  }
}

const clearSessionExpiredMessage = () => setSessionExpiredMessage(null);

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();

  const session = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: () => loadSession(client),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnReconnect: false,
  });

  const sessionExpiredMessage = useSyncExternalStore(
    subscribeSessionExpiredMessage,
    getSessionExpiredMessage,
  );

  const completeSignIn = useCallback(
    (user: PublicUser) => {
      markSignedIn();
      setSessionExpiredMessage(null);
      queryClient.setQueryData<PublicUser | null>(SESSION_QUERY_KEY, user);
    },
    [queryClient],
  );

  // A call failed with 401 and the refresh failed too (see auth-refresh-link): the session is gone.
  useEffect(
    () =>
      onSessionExpired(() => {
        const hadSession =
          queryClient.getQueryData<PublicUser | null>(SESSION_QUERY_KEY) || hasSessionMarker();
        if (!hadSession) return;
        clearSessionMarker();
        rememberReturnTo(currentPath());
        setSessionExpiredMessage(SESSION_EXPIRED_MESSAGE);
        navigate("/login");
        queryClient.setQueryData<PublicUser | null>(SESSION_QUERY_KEY, null);
      }),
    [queryClient],
  );

  const loginMutation = useMutation(trpc.auth.login.mutationOptions({ retry: false }));
  const registerMutation = useMutation(trpc.auth.register.mutationOptions({ retry: false }));
  const devBypassMutation = useMutation(trpc.auth.devBypass.mutationOptions({ retry: false }));
  const logoutMutation = useMutation(trpc.auth.logout.mutationOptions({ retry: false }));
  const { mutateAsync: loginAsync } = loginMutation;
  const { mutateAsync: registerAsync } = registerMutation;
  const { mutateAsync: devBypassAsync } = devBypassMutation;
  const { mutateAsync: logoutAsync } = logoutMutation;

  const login = useCallback(
    async (input: LoginInput) => {
      const res = await loginAsync(input);
      completeSignIn(res.user);
      return res;
    },
    [loginAsync, completeSignIn],
  );

  const register = useCallback(
    async (input: RegisterInput) => {
      const res = await registerAsync(input);
      completeSignIn(res.user);
      return res;
    },
    [registerAsync, completeSignIn],
  );

  const devLogin = useCallback(async () => {
    const res = await devBypassAsync();
    completeSignIn(res.user);
    return res;
  }, [devBypassAsync, completeSignIn]);

  const logout = useCallback(async () => {
    markLoggedOut();
    try {
      await logoutAsync();
    } catch (err) {
      clearLoggedOut();
      throw err;
    }
    clearSessionMarker();
    setSessionExpiredMessage(null);
    navigate("/");
    queryClient.clear();
    queryClient.setQueryData<PublicUser | null>(SESSION_QUERY_KEY, null);
  }, [logoutAsync, queryClient]);

  const { refetch } = session;
  const refetchUser = useCallback(async () => (await refetch()).data ?? null, [refetch]);

  const user = session.data ?? null;
  const status: AuthStatus =
    session.data !== undefined
      ? user
        ? "authenticated"
        : "unauthenticated"
      : session.isPending
        ? "loading"
        : "unauthenticated";

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
      logout,
      refetchUser,
    }),
    [user, status, sessionExpiredMessage, login, register, devLogin, completeSignIn, logout, refetchUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
