import { THEME_COOKIE } from "../../shared/page-bootstrap";
import { listenerSet } from "./listeners";
import { readStorage, writeStorage } from "./storage";

/**
 * The theme on the page, without React: the entry applies it before anything else loads, and lib/theme.ts
 * adds the hook. daisyUI themes; dark is the default, the choice is kept in localStorage "theme".
 */
export type Theme = "dark" | "light";
const THEME_KEY = "theme";

const listeners = listenerSet();

export function getStoredTheme(): Theme {
  return readStorage("local", THEME_KEY) === "light" ? "light" : "dark";
}

/** The theme the page shows now (what `applyTheme` set last). */
export function currentTheme(): Theme {
  if (typeof document === "undefined") return getStoredTheme();
  return document.documentElement.dataset.theme === "light" ? "light" : "dark";
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  // The server renders the next page in it (src/shared/page-bootstrap.ts).
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser; the value is one fixed word
  document.cookie = `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute("content", theme === "dark" ? "#1d232a" : "#ffffff");
  listeners.notify();
}

export function setTheme(theme: Theme): void {
  writeStorage("local", THEME_KEY, theme);
  applyTheme(theme);
}

export function applyStoredTheme(): void {
  applyTheme(getStoredTheme());
}

export const subscribeTheme = listeners.subscribe;
