import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsNeeded } from "./migrations";

const folder = mkdtempSync(path.join(tmpdir(), "atomize-migrations-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
mkdirSync(path.join(folder, "meta"));
// A journal as drizzle-kit writes it: the newest migration is the largest `when`.
writeFileSync(
  path.join(folder, "meta", "_journal.json"),
  JSON.stringify({
    entries: [
      { idx: 0, when: 1_700_000_000_000, tag: "0000_init" },
      { idx: 1, when: 1_700_000_500_000, tag: "0001_more" },
    ],
  }),
);

/** What the database says its newest applied migration is (postgres.js returns bigint as a string). */
const database = (recorded: unknown) => async () => [{ recorded }];

describe("whether a start must run the migrator", () => {
  it("does when the database has no record of migrations, or lacks the newest", async () => {
    const newDatabase = async () => {
      throw new Error('relation "drizzle.__drizzle_migrations" does not exist');
    };
    expect(await migrationsNeeded(newDatabase, folder)).toBe(true);
    expect(await migrationsNeeded(database(null), folder)).toBe(true);
    expect(await migrationsNeeded(database("1700000000000"), folder)).toBe(true);
  });

  it("does not when the database holds the newest migration (or one newer, from a later version)", async () => {
    expect(await migrationsNeeded(database("1700000500000"), folder)).toBe(false);
    expect(await migrationsNeeded(database(1_700_000_500_000), folder)).toBe(false);
    expect(await migrationsNeeded(database("1800000000000"), folder)).toBe(false);
  });
});
