/** Storage access that never throws (private mode, disabled storage, quota). */
function safe(kind: "local" | "session"): Storage | null {
  try {
    return kind === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(kind: "local" | "session", key: string): string | null {
  try {
    return safe(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(kind: "local" | "session", key: string, value: string): void {
  try {
    safe(kind)?.setItem(key, value);
  } catch {
    // Storage is a convenience here; the session itself lives in httpOnly cookies.
  }
}

export function removeStorage(kind: "local" | "session", key: string): void {
  try {
    safe(kind)?.removeItem(key);
  } catch {
    // ignore
  }
}

/** Keys of one storage area, for sweeping our own prefixed markers. */
export function storageKeys(kind: "local" | "session"): string[] {
  const store = safe(kind);
  if (!store) return [];
  const keys: string[] = [];
  try {
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key !== null) keys.push(key);
    }
  } catch {
    return [];
  }
  return keys;
}
