import { Suspense, useEffect, useRef, useSyncExternalStore } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { ErrorBoundary } from "./components/error-boundary";
import { PageSpinner } from "./components/spinner";
import { lazyPage } from "./lib/lazy-page";
import { useSession } from "./lib/session";
import { PUBLIC_PAGES } from "./public-pages";

// Every page is its own chunk (lazily loaded, 120 s time-out). The public pages are listed in
// public-pages.ts (the server renders them); everything else is in app-routes.tsx, one chunk that brings
// the signed-in side of the client (tRPC, TanStack Query, auth) with it.
const AppRoutes = lazyPage(() => import("./app-routes"));

const { landing, about, contact, privacy, terms, blogList, blogPost, notFound } = PUBLIC_PAGES;

/** "/" is the landing page for visitors; signed-in users go to their dashboard. */
function HomeRoute() {
  const { status } = useSession();
  if (status === "authenticated") return <Redirect to="/dashboard" replace />;
  return <landing.Page />;
}

const noSubscribe = () => () => {};

/**
 * The signed-in app's routes. The server renders only their skeleton (it has no session to render them
 * with), and the browser hydrates that skeleton before it loads them.
 */
function SignedInRoutes() {
  const hydrated = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  if (!hydrated) return <PageSpinner label="Loading page..." />;
  return <AppRoutes />;
}

/**
 * A page reached by a link or a redirect opens at its top (issue 40: a new project opened scrolled down to
 * where the form's button was, its title and live progress above the fold). Back and forward keep the
 * browser's own restoring, and a link to an anchor its anchor.
 */
function useTopOfNewPage(pathname: string) {
  const popped = useRef(false);
  const first = useRef(true);
  useEffect(() => {
    const onPop = () => {
      popped.current = true;
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new path, by design
  useEffect(() => {
    if (first.current || popped.current || window.location.hash) {
      first.current = false;
      popped.current = false;
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname]);
}

/** The route table. */
export function ShellRoutes() {
  const [location] = useLocation();
  useTopOfNewPage(location);
  return (
    <ErrorBoundary resetKeys={[location]}>
      <Suspense fallback={<PageSpinner label="Loading page..." />}>
        <Switch>
          <Route path="/" component={HomeRoute} />
          <Route path="/landing" component={landing.Page} />
          <Route path="/about" component={about.Page} />
          <Route path="/contact" component={contact.Page} />
          <Route path="/privacy" component={privacy.Page} />
          <Route path="/terms" component={terms.Page} />
          <Route path="/blog" component={blogList.Page} />
          <Route path="/blog/:slug" component={blogPost.Page} />
          <Route path="/404" component={notFound.Page} />
          <Route>
            <SignedInRoutes />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}
