import { performance } from "node:perf_hooks";

/**
 * Where a start-up's time goes, in milliseconds since the process began: Node's own start, loading the
 * server's modules, opening the database, migrations, building the app, listening. The "atomize
 * listening" log line carries it, and bench/startup.ts reads it from there (decision 025).
 */
export type StartupTimeline = {
  /** Ends the phase running since the previous mark (or since the modules finished loading). */
  mark(phase: string): void;
  /** Each phase's duration, plus `total` (process start to now). */
  phases(): Record<string, number>;
};

export function createStartupTimeline(): StartupTimeline {
  // Node's bootstrap ends before the entry module is loaded; what follows until now is module loading.
  const bootstrap = performance.nodeTiming.bootstrapComplete;
  const phases: Record<string, number> = {
    node: Math.round(bootstrap),
    modules: Math.round(performance.now() - bootstrap),
  };
  let last = performance.now();
  return {
    mark(phase) {
      const now = performance.now();
      phases[phase] = Math.round((phases[phase] ?? 0) + now - last);
      last = now;
    },
    phases: () => ({ ...phases, total: Math.round(performance.now()) }),
  };
}
