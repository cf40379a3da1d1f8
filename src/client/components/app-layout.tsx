import type { ReactNode } from "react";
import { useUserSettingsSync } from "../lib/user-settings";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** Keeps the signed-in user's settings fresh (a component of its own: route changes re-render only it). */
function UserSettingsSync() {
  useUserSettingsSync();
  return null;
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
      <UserSettingsSync />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
