import { type ComponentType, lazy } from "react";

/** Script chunks load lazily with a 120 s time-out; failure is a ChunkLoadError. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  override name = "ChunkLoadError";
}

function withTimeout<T>(load: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading a page chunk timed out after ${ms / 1000} s`)),
      ms,
    );
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        const message = err instanceof Error ? err.message : String(err);
        reject(new ChunkLoadError(`Loading a page chunk failed: ${message}`, { cause: err }));
      },
    );
  });
}

/** Bumped by the error boundary's reset: pages whose chunk failed before it load again. */
let retryEpoch = 0;

export function retryFailedPages(): void {
  retryEpoch++;
}

/** A lazily loaded page; `preload()` loads it ahead, after which it renders without suspending. */
// biome-ignore lint/suspicious/noExplicitAny: page components take any props (route params)
export type LazyPage<P extends Record<string, any>> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A lazily loaded page. React.lazy keeps a rejected load forever, so after a failure the page builds a
 * fresh lazy component, but only once a retry was asked for (the error boundary's 'Try Again' or a
 * route change); re-creating it at once would make Suspense retry in a loop. Once the module is loaded
 * the page renders it directly: the server renders a page it preloaded in one pass, and the browser
 * hydrates it without suspending.
 */
// biome-ignore lint/suspicious/noExplicitAny: page components take any props (route params)
export function lazyPage<P extends Record<string, any>>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let failedAt: number | null = null;
  const loadOnce = () =>
    withTimeout(load, CHUNK_LOAD_TIMEOUT_MS).then((module) => {
      loaded = module.default;
      return module;
    });
  const create = () =>
    lazy(() =>
      loadOnce().catch((err: unknown) => {
        failedAt = retryEpoch;
        throw err;
      }),
    );
  let Lazy = create();
  // biome-ignore lint/correctness/noComponentHookFactories: called once per page at module load, never during render
  function LazyPage(props: P) {
    // A suspended <Lazy> never commits, so switching to the loaded module never remounts a page.
    if (loaded) {
      const Page = loaded;
      return <Page {...props} />;
    }
    if (failedAt !== null && retryEpoch > failedAt) {
      failedAt = null;
      Lazy = create();
    }
    return <Lazy {...props} />;
  }
  LazyPage.preload = async () => {
    if (!loaded) await loadOnce();
  };
  return LazyPage;
}
