import { useSyncExternalStore } from "react";
import { currentTheme, subscribeTheme, type Theme } from "./theme-dom";

export {
  applyStoredTheme,
  applyTheme,
  currentTheme,
  getStoredTheme,
  setTheme,
  type Theme,
} from "./theme-dom";

/** The current theme, re-rendering when it changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribeTheme, currentTheme, () => "dark" as Theme);
}
