import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { Spinner } from "./spinner";

/** The loading kinds tracked globally: the JSON export's download, and logout. */
export type LoadingKind = "exportJson" | "logout";

export type LoadingApi = {
  /** Starts a kind; the overlay shows while any kind is active, with the latest message. */
  start: (kind: LoadingKind, message?: string) => void;
  stop: (kind: LoadingKind) => void;
  /** Runs `work` with the kind active. */
  track: <T>(kind: LoadingKind, work: () => Promise<T>, message?: string) => Promise<T>;
};

type Active = { counts: Partial<Record<LoadingKind, number>>; message: string | null };

const LoadingContext = createContext<LoadingApi | null>(null);

export function useLoading(): LoadingApi {
  const api = useContext(LoadingContext);
  if (!api) throw new Error("useLoading must be used inside <LoadingProvider>");
  return api;
}

export function LoadingProvider({ children }: { children: ReactNode }) {
  const [active, setActive] = useState<Active>({ counts: {}, message: null });

  const start = useCallback((kind: LoadingKind, message?: string) => {
    setActive((a) => ({
      counts: { ...a.counts, [kind]: (a.counts[kind] ?? 0) + 1 },
      message: message ?? a.message,
    }));
  }, []);

  const stop = useCallback((kind: LoadingKind) => {
    setActive((a) => {
      const counts = { ...a.counts };
      const left = (counts[kind] ?? 0) - 1;
      if (left > 0) counts[kind] = left;
      else delete counts[kind];
      return { counts, message: Object.keys(counts).length > 0 ? a.message : null };
    });
  }, []);

  const api = useMemo<LoadingApi>(
    () => ({
      start,
      stop,
      track: async (kind, work, message) => {
        start(kind, message);
        try {
          return await work();
        } finally {
          stop(kind);
        }
      },
    }),
    [start, stop],
  );

  const visible = Object.keys(active.counts).length > 0;
  return (
    <LoadingContext.Provider value={api}>
      {children}
      {visible && <LoadingOverlay message={active.message ?? "Loading..."} />}
    </LoadingContext.Provider>
  );
}

export function LoadingOverlay({ message }: { message: string }) {
  return (
    <div
      className="fixed inset-0 z-[900] flex items-center justify-center bg-base-300/70 backdrop-blur-sm"
      aria-busy="true"
    >
      <div className="rounded-box bg-base-100 px-6 py-4 shadow-xl">
        <Spinner size="lg" label={message} />
      </div>
    </div>
  );
}
