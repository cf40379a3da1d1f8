import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { isClientError, PublicApiError } from "./api-error";
import { listenerSet } from "./listeners";

/**
 * Reads of the public REST API for the public pages, without TanStack Query or the tRPC client (they
 * load with the signed-in code, lib/runtime.ts). The server renders a page from the same answers and
 * puts them in the page (src/shared/page-bootstrap.ts), so the first render in the browser finds them
 * here and hydration matches; keys are the request paths.
 */
type Entry = {
  data?: unknown;
  error?: unknown;
  errorUpdatedAt?: number;
  /** When the data arrived (page load for the server's answers). */
  updatedAt?: number;
  /** Whether the data came with the page, not from a request of this page. */
  fromServer?: boolean;
  fetching?: boolean;
};

export type PublicDataStore = {
  get(key: string): Entry | undefined;
  set(key: string, entry: Entry): void;
  subscribe(listener: () => void): () => void;
  /** Every answer, for the page's data block. */
  answers(): Record<string, unknown>;
};

export function createPublicDataStore(seed: Record<string, unknown> = {}): PublicDataStore {
  const now = Date.now();
  const entries = new Map<string, Entry>(
    Object.entries(seed).map(([key, data]) => [key, { data, updatedAt: now, fromServer: true }]),
  );
  const listeners = listenerSet();
  return {
    get: (key) => entries.get(key),
    set(key, entry) {
      entries.set(key, entry);
      listeners.notify();
    },
    subscribe: listeners.subscribe,
    answers: () =>
      Object.fromEntries(
        [...entries].filter(([, e]) => e.data !== undefined).map(([key, e]) => [key, e.data]),
      ),
  };
}

export const PublicDataContext = createContext<PublicDataStore | null>(null);

function usePublicDataStore(): PublicDataStore {
  const store = useContext(PublicDataContext);
  if (!store) throw new Error("usePublicQuery must be used inside <PublicDataContext>");
  return store;
}

/** GET of the public REST API as JSON; a failure is a PublicApiError with the status and the detail. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    throw new PublicApiError(res.status, typeof detail === "string" ? detail : undefined);
  }
  return body as T;
}

/** Retries: 3 for a failure without an answer or a 5xx, none after a 4xx (as lib/query-client.ts). */
const MAX_RETRIES = 3;
const retryDelayMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

async function withRetries<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (err) {
      if (attempt >= MAX_RETRIES || isClientError(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}

export type PublicQueryOptions = {
  /** While a new key loads, show the last key's data (marked as placeholder). */
  keepPrevious?: boolean;
  /** Ask again once on mount even when the server's answer came with the page (e.g. to count a view). */
  refreshServerData?: boolean;
};

export type PublicQuery<T> = {
  data: T | undefined;
  /** No data yet for this key (nor a placeholder). */
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** The data shown is the previous key's, while this one loads. */
  isPlaceholderData: boolean;
  errorUpdatedAt: number;
  refetch: () => void;
};

/** Answers older than this are asked again when a page mounts (lib/query-client.ts's staleTime). */
const STALE_MS = 60_000;

/**
 * One public API read: `key` names the answer (its request path; null: nothing to read), `load` fetches
 * it. The server's answer, when the page came with one, is used as it is.
 */
export function usePublicQuery<T>(
  key: string | null,
  load: () => Promise<T>,
  { keepPrevious = false, refreshServerData = false }: PublicQueryOptions = {},
): PublicQuery<T> {
  const store = usePublicDataStore();
  const read = () => (key ? store.get(key) : undefined);
  const entry = useSyncExternalStore(store.subscribe, read, read);
  const loadRef = useRef(load);
  loadRef.current = load;

  const fetchNow = useCallback(() => {
    if (!key) return;
    const current = store.get(key);
    if (current?.fetching) return;
    store.set(key, { ...current, fetching: true });
    withRetries(() => loadRef.current()).then(
      (data) => store.set(key, { data, updatedAt: Date.now() }),
      (error: unknown) =>
        store.set(key, { ...store.get(key), fetching: false, error, errorUpdatedAt: Date.now() }),
    );
  }, [key, store]);

  useEffect(() => {
    if (!key) return;
    const current = store.get(key);
    if (current?.fetching) return;
    const stale = !current?.updatedAt || Date.now() - current.updatedAt > STALE_MS;
    const refresh = refreshServerData && current?.fromServer;
    if (current?.data === undefined || stale || refresh) {
      if (refresh) store.set(key, { ...current, fromServer: false });
      fetchNow();
    }
  }, [key, store, fetchNow, refreshServerData]);

  // The last data shown, for keepPrevious.
  const [previous, setPrevious] = useState<{ data: T } | null>(null);
  const data = entry?.data as T | undefined;
  useEffect(() => {
    if (keepPrevious && data !== undefined) setPrevious({ data });
  }, [keepPrevious, data]);

  const failed = entry?.error !== undefined && !entry.fetching;
  const placeholder = keepPrevious && data === undefined && previous !== null && !failed;
  return {
    data: placeholder ? previous.data : data,
    isPending: data === undefined && !placeholder && !failed,
    isError: failed,
    error: entry?.error,
    isPlaceholderData: placeholder,
    errorUpdatedAt: entry?.errorUpdatedAt ?? 0,
    refetch: fetchNow,
  };
}
