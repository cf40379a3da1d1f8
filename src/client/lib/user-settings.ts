import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation } from "wouter";
import type { GeneralSettings } from "../../shared/schemas/integrations";
import { useAuth } from "./auth";
import { readStorage, writeStorage } from "./storage";
import { currentTheme, setTheme } from "./theme";
import { useTRPC } from "./trpc";

/**
 * Local user settings, stored per user id in the browser. DECISIONS: the general settings live
 * on the server too (this is their cache), and credentials live only on the server, so the browser copy
 * keeps the integrations' enabled flags and never a key, token or password.
 */
export type LocalUserSettings = {
  /** The server's value when this browser last saw it. */
  darkMode?: boolean;
  notifications?: boolean;
  trelloIntegration?: { enabled: boolean };
  jiraIntegration?: { enabled: boolean };
};

/** Defaults: settings darkMode false, notifications true (the page theme itself defaults to dark). */
export const DEFAULT_GENERAL_SETTINGS: GeneralSettings = {
  darkMode: false,
  notifications: true,
  reviewReading: true,
};

export const userSettingsKey = (userId: string) => `atomize.settings.${userId}`;

const listeners = new Set<() => void>();
let snapshot: { key: string; raw: string | null; value: LocalUserSettings } | null = null;

function parse(raw: string | null): LocalUserSettings {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== "object") return {};
    const v = value as Record<string, unknown>;
    const flag = (x: unknown) =>
      x && typeof x === "object" && typeof (x as { enabled?: unknown }).enabled === "boolean"
        ? { enabled: (x as { enabled: boolean }).enabled }
        : undefined;
    const out: LocalUserSettings = {};
    if (typeof v.darkMode === "boolean") out.darkMode = v.darkMode;
    if (typeof v.notifications === "boolean") out.notifications = v.notifications;
    const trello = flag(v.trelloIntegration);
    if (trello) out.trelloIntegration = trello;
    const jira = flag(v.jiraIntegration);
    if (jira) out.jiraIntegration = jira;
    return out;
  } catch {
    return {};
  }
}

/** The cached settings of one user ({} when none); the same object while the stored text is unchanged. */
export function readLocalSettings(userId: string | null | undefined): LocalUserSettings {
  if (!userId) return EMPTY;
  const key = userSettingsKey(userId);
  const raw = readStorage("local", key);
  if (snapshot && snapshot.key === key && snapshot.raw === raw) return snapshot.value;
  snapshot = { key, raw, value: parse(raw) };
  return snapshot.value;
}
const EMPTY: LocalUserSettings = {};

export function writeLocalSettings(userId: string, patch: LocalUserSettings): LocalUserSettings {
  const next = { ...readLocalSettings(userId), ...patch };
  writeStorage("local", userSettingsKey(userId), JSON.stringify(next));
  for (const l of listeners) l();
  return next;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith("atomize.settings.")) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The signed-in user's cached settings, re-rendering when they change (here or in another tab). */
export function useLocalSettings(): LocalUserSettings {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  return useSyncExternalStore(
    subscribe,
    () => readLocalSettings(userId),
    () => EMPTY,
  );
}

/**
 * Whether an integration counts as enabled: the flag this browser stored, or (never set here, e.g. a
 * new browser) whether credentials are stored on the server.
 */
export function integrationEnabled(flag: { enabled: boolean } | undefined, connected: boolean): boolean {
  return flag ? flag.enabled : connected;
}

/** The general settings: the server's, else this browser's cache, else the defaults. */
export function useGeneralSettings() {
  const trpc = useTRPC();
  const { isAuthenticated } = useAuth();
  const local = useLocalSettings();
  const query = useQuery(trpc.settings.get.queryOptions(undefined, { enabled: isAuthenticated }));
  const settings: GeneralSettings = query.data ?? {
    darkMode: local.darkMode ?? DEFAULT_GENERAL_SETTINGS.darkMode,
    notifications: local.notifications ?? DEFAULT_GENERAL_SETTINGS.notifications,
    reviewReading: DEFAULT_GENERAL_SETTINGS.reviewReading,
  };
  return { settings, query };
}

/**
 * User settings are reloaded on each route change and when the user changes. Mounted once in
 * the layout. The server copy is cached per user; when the server's dark mode changed since this
 * browser last saw it (changed in another browser), the theme follows. On first sight the page keeps its
 * theme, so the server default (false) does not override the dark default theme.
 */
export function useUserSettingsSync(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user, isAuthenticated } = useAuth();
  const [location] = useLocation();
  const userId = user?.id ?? null;
  const query = useQuery(trpc.settings.get.queryOptions(undefined, { enabled: isAuthenticated }));

  const reload = useCallback(() => {
    if (!isAuthenticated) return;
    void queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
  }, [isAuthenticated, queryClient, trpc]);

  // A route change reloads (the first render is the query's own first load).
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route changes only
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reload();
  }, [location]);

  const data = query.data;
  useEffect(() => {
    if (!userId || !data) return;
    const seen = readLocalSettings(userId);
    if (seen.darkMode !== undefined && seen.darkMode !== data.darkMode) {
      const theme = data.darkMode ? "dark" : "light";
      if (currentTheme() !== theme) setTheme(theme);
    }
    if (seen.darkMode !== data.darkMode || seen.notifications !== data.notifications) {
      writeLocalSettings(userId, { darkMode: data.darkMode, notifications: data.notifications });
    }
  }, [userId, data]);
}
