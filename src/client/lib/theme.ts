import { readStorage, writeStorage } from "./storage";

/** daisyUI themes; dark is the default (spec 9), the choice is kept in localStorage "theme". */
export type Theme = "dark" | "light";
const THEME_KEY = "theme";

export function getStoredTheme(): Theme {
  return readStorage("local", THEME_KEY) === "light" ? "light" : "dark";
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute("content", theme === "dark" ? "#1d232a" : "#ffffff");
}

export function setTheme(theme: Theme): void {
  writeStorage("local", THEME_KEY, theme);
  applyTheme(theme);
}

export function applyStoredTheme(): void {
  applyTheme(getStoredTheme());
}
