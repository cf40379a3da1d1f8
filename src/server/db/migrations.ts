import { readFileSync } from "node:fs";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";

type Run = (query: SQL) => Promise<Record<string, unknown>[]>;

/**
 * Whether the database lacks a migration of `folder` (drizzle/). drizzle's migrator answers that by
 * reading and hashing every migration file, creating its schema and table if missing and opening a
 * transaction, at every start; a database that already holds the journal's newest migration (every start
 * but the first after an upgrade) needs one query instead. The rule is the migrator's own: it applies the
 * migrations newer than the newest one recorded in drizzle.__drizzle_migrations.
 */
export async function migrationsNeeded(run: Run, folder: string): Promise<boolean> {
  const newest = newestMigration(folder);
  if (newest === undefined) return false;
  let rows: Record<string, unknown>[];
  try {
    rows = await run(sql`select max(created_at) as recorded from drizzle.__drizzle_migrations`);
  } catch {
    // No such table (a new database), or a failure the migrator will run into and report itself.
    return true;
  }
  const recorded = rows[0]?.recorded;
  return recorded === null || recorded === undefined || Number(recorded) < newest;
}

/** When the journal's newest migration was generated (its `when`, what the migrator records). */
function newestMigration(folder: string): number | undefined {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ when: number }>;
  };
  return journal.entries.length ? Math.max(...journal.entries.map((e) => e.when)) : undefined;
}
