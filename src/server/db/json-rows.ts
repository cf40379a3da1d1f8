import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * A multi-row insert whose rows travel as one JSON parameter:
 * `insert into t (cols) select cols from json_populate_recordset(null::t, $1)`.
 *
 * Drizzle's `insert().values(rows)` spells out every column of every row, the table's defaults included,
 * as separate parameters. For a split's five children that is about 200 chunks, and building the
 * statement took about 3 ms of the event loop per split (decision 026). Here the database reads one
 * JSON value instead.
 * - Only the keys of the first row are written. The others take their defaults, as with `values()`.
 * - Within a row, a key left undefined is written as null, not as the column's default, so it must be
 *   a column that takes null (a programming error throws otherwise).
 * - Values must be what the column's input accepts from JSON: text, numbers, booleans, JSON for
 *   json(b), and ISO text for timestamps (a Date becomes that through JSON).
 */
export function insertRowsAsJson<T extends PgTable>(
  table: T,
  rows: Partial<T["$inferInsert"]>[],
  opts: { onConflictDoNothing?: boolean } = {},
): SQL {
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0] ?? {});
  const cols = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`insertRowsAsJson: ${key} is not a column`);
    return column;
  });
  // The schema names its columns by their keys; the database's are their snake_case forms.
  const names = cols.map((c) => sql.identifier(c.keyAsName ? toSnakeCase(c.name) : c.name));
  const list = sql.join(names, sql`, `);
  const json = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      keys.forEach((key, i) => {
        const value = (row as Record<string, unknown>)[key];
        if (value === undefined && cols[i]!.notNull)
          throw new Error(`insertRowsAsJson: ${key} is undefined and its column takes no null`);
        out[names[i]!.value] = value ?? null;
      });
      return out;
    }),
  );
  const conflict = opts.onConflictDoNothing ? sql` on conflict do nothing` : sql``;
  return sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${json}::json)${conflict}`;
}
