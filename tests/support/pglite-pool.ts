import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_START_PARAMS, type PGliteLease } from "../../src/server/db/client";
import { PGLITE_DUMP_ENV } from "./database-template";

/**
 * In-memory PGlite databases for test servers, reused within a vitest worker. Starting PGlite costs
 * about a second and a half of CPU even from the run's migrated dump, and the PGlite pass starts about
 * fifty servers; emptying every table costs a few milliseconds. A database comes back to the pool only
 * after its server has closed it and every table of the app's schema is empty again (sequences
 * restarted), so the next server finds exactly what a fresh copy of the migrated dump holds. One that
 * cannot be emptied is closed and dropped instead.
 */
const idle: PGlite[] = [];
let dump: Blob | undefined;

export async function leasePglite(): Promise<PGliteLease> {
  const client = idle.pop() ?? (await fresh());
  return {
    client,
    async release() {
      try {
        await empty(client);
        idle.push(client);
      } catch {
        await client.close().catch(() => {});
      }
    },
  };
}

async function fresh(): Promise<PGlite> {
  const file = process.env[PGLITE_DUMP_ENV];
  if (!file) throw new Error(`${PGLITE_DUMP_ENV} is not set (tests/support/database-template.ts sets it)`);
  dump ??= new Blob([readFileSync(file)]);
  // The server's own settings (its shared buffers among them), as openDatabase starts PGlite.
  const client = new PGlite({ loadDataDir: dump, startParams: PGLITE_START_PARAMS });
  await client.waitReady;
  return client;
}

/** Empties every table of the public schema; drizzle's record of applied migrations lives elsewhere. */
async function empty(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "select quote_ident(tablename) as name from pg_tables where schemaname = 'public'",
  );
  if (rows.length > 0) {
    await client.exec(
      `truncate table ${rows.map((r) => `public.${r.name}`).join(", ")} restart identity cascade`,
    );
  }
}
