import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app";
import { pageBootstrap } from "./lib/bootstrap";
import { createPublicDataStore } from "./lib/public-query";
import { loadRuntime } from "./lib/runtime";
import { hasSessionMarker, session } from "./lib/session";
import { matchPublicPage, PUBLIC_PAGES } from "./public-pages";

/**
 * React's side of the page (main.tsx loads it): renders the app into #root, or hydrates the markup the
 * server rendered there. Resolves once hydration or the first render has been started.
 */
const bootstrap = pageBootstrap();

// The session lives in httpOnly cookies: a page whose request carried none belongs to a visitor, and the
// signed-in side of the client (lib/runtime.ts) stays unloaded. A page that cannot say (the dev server's)
// and a browser that was signed in before (to report an expired session) load it and ask the server.
const maySignedIn = !bootstrap || bootstrap.session || hasSessionMarker();
if (!maySignedIn) session.set(null);

export async function start(target: HTMLElement): Promise<void> {
  if (maySignedIn) {
    loadRuntime().catch((err: unknown) => {
      console.warn("[atomize] could not load the app", err);
      if (session.get().status === "loading") session.set(null);
    });
  }
  // The page's own chunk first, so hydration renders it at once rather than suspending.
  const page = matchPublicPage(window.location.pathname);
  if (page) await PUBLIC_PAGES[page.name].Page.preload().catch(() => undefined);
  const app = (
    <StrictMode>
      <App config={bootstrap?.config ?? null} data={createPublicDataStore(bootstrap?.data)} />
    </StrictMode>
  );
  // Hydrating in a transition lets React yield to the browser every few milliseconds instead of holding the
  // main thread for the whole page (input stays responsive; Lighthouse's total blocking time stays low).
  if (bootstrap?.ssr) startTransition(() => void hydrateRoot(target, app));
  else createRoot(target).render(app);
}
