import type { ReactNode } from "react";
import { useRuntime } from "../lib/runtime";
import { useSession } from "../lib/session";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** The signed-in user's background work (settings sync), once the app's runtime is there. */
function SignedInEffects() {
  const { status } = useSession();
  const runtime = useRuntime(status === "authenticated");
  if (status !== "authenticated" || !runtime) return null;
  return <runtime.SignedInEffects />;
}

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-base-100 text-base-content">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[1100] focus:rounded focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-content"
      >
        Skip to content
      </a>
      <SignedInEffects />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
