import { readStorage, removeStorage, writeStorage } from "./storage";

/**
 * Whether this browser was signed in before: a non-secret marker beside the httpOnly session cookies. It
 * has no React in it, as the entry reads it before anything else loads (main.tsx); lib/session.ts holds
 * the rest of the session's bookkeeping.
 */
const SIGNED_IN_KEY = "atomize_signed_in";

export const hasSessionMarker = () => readStorage("local", SIGNED_IN_KEY) === "1";

/** Called after every successful sign-in: a session exists. */
export function markSignedIn(): void {
  writeStorage("local", SIGNED_IN_KEY, "1");
}

export function clearSessionMarker(): void {
  removeStorage("local", SIGNED_IN_KEY);
}
