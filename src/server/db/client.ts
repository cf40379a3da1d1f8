import { EventEmitter } from "node:events";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { StartupTimeline } from "../lib/startup-timeline";
import { migrationsNeeded } from "./migrations";
import { seedPgliteFolder } from "./pglite-seed";
import * as schema from "./schema/index";

/** One type for both drivers: everything above this file uses the same query builder. */
export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction on the database (the callback argument of `db.transaction`). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database, or a transaction on it: what a read or write that may run in either takes. */
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  driver: "pglite" | "postgres";
  /** Runs raw SQL and returns its rows whatever the driver (PGlite returns {rows}, postgres.js an array). */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  ping(): Promise<boolean>;
  /**
   * Cross-process signals: PostgreSQL LISTEN/NOTIFY with DATABASE_URL; in-process delivery with PGlite
   * (one process owns a PGlite data folder, so there is nobody else to tell).
   */
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

/**
 * The project's `drizzle/` folder: the nearest one above this module, so the same code finds it from
 * src/server/db/ (tsx) and from a bundle under dist/ (scripts/build-server.mjs).
 */
export const migrationsFolder = findMigrations(path.dirname(fileURLToPath(import.meta.url)));

function findMigrations(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/ migrations folder above ${from}`);
  }
}

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  inMemory?: boolean;
  /**
   * A PGlite instance to use instead of opening one, handed back through `release` when the database is
   * closed. The tests lend servers already-migrated in-memory instances from a pool
   * (tests/support/pglite-pool.ts): starting PGlite is the slowest part of a test server's start.
   */
  pglite?: PGliteLease;
  /** Records the `database` and `migrations` phases of a start-up. */
  timeline?: StartupTimeline;
};

export type PGliteLease = { client: PGlite; release(): Promise<void> };

/**
 * PostgreSQL settings of the embedded database (decision 025). PGlite zeroes its shared memory at every
 * start, and initdb's 128 MB of shared buffers made that a fifth of an idle start and 128 MB of resident
 * memory; 32 MB hold the working set of a large instance (10,000 tasks, a 2,801-node plan) with room
 * to spare, and pages outside it are one file read away.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/**
 * V8's settings for PGlite's WebAssembly (decision 025): its baseline compiler only. By default V8 also
 * recompiles the functions PostgreSQL's start ran most with its optimising compiler, on another thread,
 * and the main thread then waited for that work: the first request after a start took 90-175 ms to be
 * accepted (the server idle, its event loop blocked on V8's background tasks), and the compiling took
 * the second core from the start itself. Baseline code only: spawn to /readyz on an existing folder
 * 0.53-0.63 s instead of 0.75-0.86 s. The cost: queries that scan run about 1.3x longer, and a
 * 2,801-node plan's writes 20-40% longer; the engine bench's ratios do not change. Set in this process
 * before PGlite compiles its module; PostgreSQL (DATABASE_URL) loads no WebAssembly.
 */
export const PGLITE_V8_FLAGS = "--liftoff-only";

/** The advisory lock one process holds while it migrates a PostgreSQL database (any fixed number). */
const MIGRATION_LOCK = 4_502_117;

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const timeline = opts.timeline;
  if (opts.databaseUrl) {
    // Loaded only when used: a PGlite instance never needs the PostgreSQL driver, nor the reverse.
    const [{ default: postgres }, { drizzle }] = await Promise.all([
      import("postgres"),
      import("drizzle-orm/postgres-js"),
    ]);
    const client = postgres(opts.databaseUrl, {
      max: opts.poolSize ?? 10,
      onnotice: () => {},
      connection: { application_name: "atomize" },
    });
    const db = drizzle(client, { schema, casing: "snake_case" });
    const run = async (q: SQL) => (await db.execute(q)) as unknown as Record<string, unknown>[];
    try {
      await run(sql`select 1`);
      timeline?.mark("database");
      if (await migrationsNeeded(run, migrationsFolder)) {
        // Processes started together on a new database (compose.yaml) would race to create the same
        // types and tables: one migrates at a time, holding an advisory lock (released when its connection ends),
        // and the others find nothing left to do once they have it. The lock's connection is not one of
        // the pool's, which may have only one (poolSize 1) and needs it for the migration.
        const lock = postgres(opts.databaseUrl, { max: 1, onnotice: () => {} });
        try {
          await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
          if (await migrationsNeeded(run, migrationsFolder)) {
            const { migrate } = await import("drizzle-orm/postgres-js/migrator");
            await migrate(db, { migrationsFolder });
          }
        } finally {
          await lock.end({ timeout: 5 });
        }
      }
      timeline?.mark("migrations");
    } catch (err) {
      await client.end({ timeout: 5 });
      throw err;
    }
    const signals: Signals = {
      notify: async (channel, payload) => {
        await client.notify(channel, payload);
      },
      listen: async (channel, onMessage) => {
        const { unlisten } = await client.listen(channel, onMessage);
        return unlisten;
      },
    };
    return wrap(db, "postgres", run, () => client.end({ timeout: 5 }), signals);
  }
  let dataDir: string | undefined;
  if (!opts.inMemory && !opts.pglite) {
    dataDir = path.resolve(opts.dataDir ?? "./.data", "pglite");
    // A new data folder starts from the migrated copy the build made, when there is one (decision 025).
    if (seedPgliteFolder(dataDir)) timeline?.mark("seed");
    else mkdirSync(dataDir, { recursive: true });
  }
  if (!opts.pglite) v8.setFlagsFromString(PGLITE_V8_FLAGS);
  const client = opts.pglite?.client ?? new PGlite(dataDir, { startParams: PGLITE_START_PARAMS });
  try {
    await client.waitReady;
    timeline?.mark("database");
    const db = drizzlePglite(client, { schema, casing: "snake_case" });
    const run = async (q: SQL) => ((await db.execute(q)) as { rows: Record<string, unknown>[] }).rows;
    if (await migrationsNeeded(run, migrationsFolder)) {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(db, { migrationsFolder });
    }
    timeline?.mark("migrations");
    return wrap(
      db as unknown as Db,
      "pglite",
      run,
      () => (opts.pglite ? opts.pglite.release() : client.close()),
      inProcessSignals(),
    );
  } catch (err) {
    if (!opts.pglite) await client.close().catch(() => {});
    throw err;
  }
}

type Signals = Pick<Database, "notify" | "listen">;

function inProcessSignals(): Signals {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify: async (channel, payload) => {
      // Delivered asynchronously, like a real NOTIFY after commit.
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    listen: async (channel, onMessage) => {
      emitter.on(channel, onMessage);
      return async () => {
        emitter.off(channel, onMessage);
      };
    },
  };
}

function wrap(
  db: Db,
  driver: Database["driver"],
  run: (q: SQL) => Promise<Record<string, unknown>[]>,
  close: () => Promise<void>,
  signals: Signals,
): Database {
  let closed = false;
  return {
    db,
    driver,
    ...signals,
    rows: run as Database["rows"],
    async ping() {
      if (closed) return false;
      try {
        await run(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await close();
    },
  };
}

/** Rows of a raw `execute()` result, whichever driver produced it (also inside a transaction). */
export function resultRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
