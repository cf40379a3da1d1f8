import { readStorage, removeStorage, storageKeys, writeStorage } from "../../lib/storage";

/** OAuth: start marker, per-code processing markers, their stale and clean-up ages. */
export const OAUTH_MARKER_STALE_MS = 120_000;
export const OAUTH_MARKER_CLEANUP_MS = 300_000;
const STARTED_KEY = "atomize_oauth_started";
const CODE_MARKER_PREFIX = "atomize_oauth_code_";

export type OAuthMode = "login" | "register";
export type OAuthProvider = "google";

/** The SPA callback URL registered for a provider (must match the server's allowed redirect). */
export function oauthRedirectUri(provider: OAuthProvider = "google"): string {
  return `${window.location.origin}/oauth/${provider}/callback`;
}

export function markOAuthStarted(provider: OAuthProvider, mode: OAuthMode): void {
  writeStorage("session", STARTED_KEY, JSON.stringify({ provider, mode, requestedAt: Date.now() }));
}

export function clearOAuthStarted(): void {
  removeStorage("session", STARTED_KEY);
}

type CodeMarker = { at: number; status: "in_progress" | "done" };

/** Keyed by provider and the first 10 characters of the code. */
export function codeMarkerKey(provider: string, code: string): string {
  return `${CODE_MARKER_PREFIX}${provider}_${code.slice(0, 10)}`;
}

export function readCodeMarker(key: string): CodeMarker | null {
  const raw = readStorage("session", key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<CodeMarker>;
    return typeof parsed.at === "number" && (parsed.status === "in_progress" || parsed.status === "done")
      ? { at: parsed.at, status: parsed.status }
      : null;
  } catch {
    return null;
  }
}

export function writeCodeMarker(key: string, status: CodeMarker["status"]): void {
  writeStorage("session", key, JSON.stringify({ at: Date.now(), status }));
}

export function clearCodeMarker(key: string): void {
  removeStorage("session", key);
}

/** Removes markers older than the clean-up age. */
export function sweepCodeMarkers(now = Date.now()): void {
  for (const key of storageKeys("session")) {
    if (!key.startsWith(CODE_MARKER_PREFIX)) continue;
    const marker = readCodeMarker(key);
    if (!marker || now - marker.at > OAUTH_MARKER_CLEANUP_MS) removeStorage("session", key);
  }
}

/** A callback already handled (or still being handled, and not stale) must not be exchanged again. */
export function alreadyProcessed(key: string, now = Date.now()): boolean {
  const marker = readCodeMarker(key);
  if (!marker) return false;
  return marker.status === "done" || now - marker.at < OAUTH_MARKER_STALE_MS;
}
