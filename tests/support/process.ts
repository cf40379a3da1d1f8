import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { APP_BUNDLE_ENV } from "./app-bundle";
import { waitUntil } from "./wait";

export type AppProcess = {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
};

/**
 * The node arguments that run one of the server's entry points: the run's bundle when the integration
 * project's global setup made one (tests/support/app-bundle.ts), else the TypeScript source through tsx.
 */
export function entryPointArgs(entry: "main" | "make-admin"): string[] {
  const bundle = process.env[APP_BUNDLE_ENV];
  if (bundle) return [path.join(bundle, `${entry}.js`)];
  return ["--import", "tsx", entry === "main" ? "src/server/main.ts" : "src/server/commands/make-admin.ts"];
}

/**
 * Starts the server as its own Node process, as `npm start` does: the run's bundle, whose PGlite seed
 * gives a DATA_DIR that holds no database yet a migrated one, as the build's seed does in production
 * (tests/support/app-bundle.ts). `command` runs something else that starts it (`npm start` itself, or
 * the benchmark's build), in `cwd`.
 */
export function spawnApp(
  env: Record<string, string>,
  opts: {
    command?: [string, ...string[]];
    cwd?: string;
    /** In a process group of its own, which a test can signal as a terminal would (`kill(-pid)`). */
    detached?: boolean;
  } = {},
): AppProcess {
  let out = "";
  const [file, ...args] = opts.command ?? [process.execPath, ...entryPointArgs("main")];
  const child = spawn(file, args, {
    cwd: opts.cwd,
    detached: opts.detached,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      // The process's own log lines join the run's log capture (see tests/support/server.ts).
      const dir = process.env.ATOMIZE_LOG_CAPTURE_DIR;
      if (dir) appendFileSync(path.join(dir, `process-${child.pid}.log`), out);
      resolve(code);
    }),
  );
  return { child, url: `http://127.0.0.1:${env.PORT}`, output: () => out, exited };
}

/**
 * How long a wait on a spawned process (its readiness, an answer, a status it reaches) may take before
 * the test calls it hung. A ceiling, not a budget: every wait returns as soon as what it waits for
 * happens, so a healthy run never comes near it, however slow or busy the machine. The processes
 * project's test and hook timeouts sit above it (vitest.config.ts).
 */
export const PROCESS_CEILING_MS = 120_000;

export async function waitForReady(app: AppProcess, timeoutMs = PROCESS_CEILING_MS): Promise<number> {
  const start = Date.now();
  await waitUntil(
    async () => {
      if (app.child.exitCode !== null) throw new Error(`app exited early:\n${app.output()}`);
      try {
        return (await fetch(`${app.url}/readyz`)).status === 200;
      } catch {
        return false; // not listening yet
      }
    },
    { timeoutMs, message: () => `app not ready:\n${app.output()}` },
  );
  return Date.now() - start;
}
