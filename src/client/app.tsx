import { useEffect } from "react";
import { Router } from "wouter";
import type { PublicConfigAnswer } from "../shared/page-bootstrap";
import { AppLayout } from "./components/app-layout";
import { ErrorBoundary } from "./components/error-boundary";
import { LoadingProvider } from "./components/loading-overlay";
import { ToastProvider } from "./components/toast";
import { PublicConfigProvider } from "./lib/public-config";
import { PublicDataContext, type PublicDataStore } from "./lib/public-query";
import { ShellRoutes } from "./routes";

export type AppProps = {
  /** The installation's public settings (null on the dev server: the defaults, then the API's). */
  config: PublicConfigAnswer | null;
  /** The public API answers the page was rendered from. */
  data: PublicDataStore;
  /** On the server: the request's path and query (the browser reads its own location). */
  ssrPath?: string;
  ssrSearch?: string;
};

/**
 * The client's shell: the same tree on the server (src/client/entry-server.tsx) and in the browser
 * (main.tsx), so the browser hydrates what the server rendered. It carries only what the public pages
 * need; the signed-in side (tRPC, TanStack Query, auth) loads with its routes (lib/runtime.ts).
 */
export function App({ config, data, ssrPath, ssrSearch }: AppProps) {
  // Marks the page as interactive: hydrated (or rendered) and listening (the browser tests wait for it).
  useEffect(() => document.getElementById("root")?.setAttribute("data-hydrated", ""), []);
  const routerProps = ssrPath === undefined ? {} : { ssrPath, ssrSearch: ssrSearch ?? "" };
  return (
    <ErrorBoundary>
      <PublicConfigProvider config={config}>
        <PublicDataContext.Provider value={data}>
          <ToastProvider>
            <LoadingProvider>
              <Router {...routerProps}>
                <AppLayout>
                  <ShellRoutes />
                </AppLayout>
              </Router>
            </LoadingProvider>
          </ToastProvider>
        </PublicDataContext.Provider>
      </PublicConfigProvider>
    </ErrorBoundary>
  );
}
