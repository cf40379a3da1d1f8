import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AuthProvider, signOut, startSession } from "./auth";
import { createQueryClient } from "./query-client";
import { notifySessionExpired } from "./session";
import { TRPCProvider } from "./trpc";
import { createAppTRPCClient } from "./trpc-client";
import { useUserSettingsSync } from "./user-settings";

/**
 * The signed-in side of the client: the tRPC client, TanStack Query and the auth provider. The public
 * pages never import this module statically; lib/runtime.ts loads it when it is needed (a session cookie,
 * a signed-in route, a subscription), so a visitor's first page carries none of it.
 */
export const queryClient = createQueryClient();
export const trpcClient = createAppTRPCClient({ onSessionExpired: notifySessionExpired });

/** Loads the current user (once per page) when the page does not know it yet. */
export function start(): void {
  startSession(trpcClient);
}

/** auth.logout, then / with every cached query cleared. */
export const logout = () => signOut(trpcClient, queryClient);

/** The providers the signed-in pages and hooks need; every mount shares the same clients. */
export function RuntimeProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** Keeps the signed-in user's settings fresh (a component of its own: route changes re-render only it). */
function UserSettingsSync() {
  useUserSettingsSync();
  return null;
}

/** What runs on every page while someone is signed in, whichever page it is. */
export function SignedInEffects() {
  return (
    <RuntimeProviders>
      <UserSettingsSync />
    </RuntimeProviders>
  );
}
