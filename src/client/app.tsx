import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { AppLayout } from "./components/app-layout";
import { ErrorBoundary } from "./components/error-boundary";
import { LoadingProvider } from "./components/loading-overlay";
import { ToastProvider } from "./components/toast";
import { AuthProvider } from "./lib/auth";
import { createQueryClient } from "./lib/query-client";
import { notifySessionExpired } from "./lib/session";
import { TRPCProvider } from "./lib/trpc";
import { createAppTRPCClient } from "./lib/trpc-client";
import { AppRoutes } from "./routes";

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createAppTRPCClient({ onSessionExpired: notifySessionExpired }));
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <ToastProvider>
            <LoadingProvider>
              <AuthProvider>
                <AppLayout>
                  <AppRoutes />
                </AppLayout>
              </AuthProvider>
            </LoadingProvider>
          </ToastProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
