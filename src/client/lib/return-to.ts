import { readStorage, removeStorage, writeStorage } from "./storage";

/** Where to go after sign-in; kept in sessionStorage so it survives the round trip to Google. */
const RETURN_TO_KEY = "atomize_return_to";
export const DEFAULT_AFTER_SIGN_IN = "/dashboard";

const AUTH_SCREENS = ["/login", "/register", "/oauth-callback", "/oauth/", "/404"];

/** Only same-site paths ("/x", never "//host" or "/\host") and never an auth screen itself. */
export function safeReturnPath(path: string | null | undefined): string | null {
  if (!path?.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return null;
  let url: URL;
  try {
    url = new URL(path, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  if (AUTH_SCREENS.some((p) => url.pathname === p || (p.endsWith("/") && url.pathname.startsWith(p)))) {
    return null;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

export function rememberReturnTo(path: string): void {
  const safe = safeReturnPath(path);
  if (safe) writeStorage("session", RETURN_TO_KEY, safe);
}

export function peekReturnTo(): string | null {
  return safeReturnPath(readStorage("session", RETURN_TO_KEY));
}

/** The remembered origin (or the dashboard), forgetting it. */
export function takeReturnTo(fallback = DEFAULT_AFTER_SIGN_IN): string {
  const target = peekReturnTo();
  removeStorage("session", RETURN_TO_KEY);
  return target ?? fallback;
}

export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}
