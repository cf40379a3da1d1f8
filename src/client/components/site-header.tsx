import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useSession } from "../lib/session";
import { PRODUCT_NAME } from "../lib/site";
import { useLogout } from "./use-logout";

type NavItem = { to: string; label: string };

const SIGNED_OUT_NAV: NavItem[] = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
  { to: "/blog", label: "Blog" },
  { to: "/login", label: "Sign In" },
];

const SIGNED_IN_NAV: NavItem[] = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/tasks/create", label: "Create Task" },
  { to: "/blog", label: "Blog" },
  { to: "/settings", label: "Settings" },
];

const ADMIN_NAV: NavItem = { to: "/admin/blog", label: "Blog Admin" };

function isCurrent(location: string, to: string): boolean {
  return to === "/" ? location === "/" : location === to || location.startsWith(`${to}/`);
}

/**
 * Navigation and chrome: the top navigation, collapsing into a toggled menu under 768 px. The server
 * renders the visitor's navigation; a signed-in user's replaces it in the same row once the session is
 * known (the row's height never changes, so nothing below moves).
 */
export function SiteHeader() {
  const { user, status, isAdmin } = useSession();
  const logout = useLogout();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const signedIn = status === "authenticated";
  const items: NavItem[] = signedIn ? [...SIGNED_IN_NAV, ...(isAdmin ? [ADMIN_NAV] : [])] : SIGNED_OUT_NAV;
  const displayName = user ? user.full_name.trim() || user.email : "";

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  // Close the menu when the route changes by any means (links, back button, redirects).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on location change only
  useEffect(() => setMenuOpen(false), [location]);

  const linkClass = (to: string) =>
    `btn btn-ghost btn-sm font-medium ${isCurrent(location, to) ? "btn-active text-primary" : ""}`;

  return (
    <header className="sticky top-0 z-50 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <div className="navbar mx-auto max-w-7xl gap-2 px-4">
        <div className="flex-1">
          <Link href="/" className="text-xl font-bold tracking-tight text-primary">
            {PRODUCT_NAME}
          </Link>
        </div>

        <nav aria-label="Main" className="hidden md:block">
          {/* A list of its own per state: the browser counts new links as new, not as links that moved. */}
          <ul key={signedIn ? "signed-in" : "visitor"} className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <Link
                  href={item.to}
                  className={linkClass(item.to)}
                  aria-current={isCurrent(location, item.to) ? "page" : undefined}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        {user && (
          <div className="hidden items-center gap-3 md:flex">
            <span className="max-w-32 truncate text-sm text-base-content/80 lg:max-w-56" title={displayName}>
              {displayName}
            </span>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => void logout()}>
              Logout
            </button>
          </div>
        )}

        <button
          ref={toggleRef}
          type="button"
          className="btn btn-ghost btn-square md:hidden"
          aria-label="Toggle navigation"
          aria-expanded={menuOpen}
          aria-controls="mobile-navigation"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>

      {menuOpen && (
        <nav
          id="mobile-navigation"
          aria-label="Main"
          className="border-t border-base-300 px-4 pb-4 md:hidden"
        >
          <ul className="menu w-full gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <Link
                  href={item.to}
                  className={isCurrent(location, item.to) ? "menu-active" : ""}
                  aria-current={isCurrent(location, item.to) ? "page" : undefined}
                  onClick={() => setMenuOpen(false)}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          {user && (
            <div className="mt-2 flex items-center justify-between gap-3 border-t border-base-300 pt-3">
              <span className="truncate text-sm text-base-content/80">{displayName}</span>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => {
                  setMenuOpen(false);
                  void logout();
                }}
              >
                Logout
              </button>
            </div>
          )}
        </nav>
      )}
    </header>
  );
}
