/** `npm run bench`: the figures issue notes report (never asserted in tests). */
import { benchStartup } from "./startup";
import { benchTasks } from "./tasks";

const pgUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

console.info("\n# start-up and sign-in (PGlite, child process)");
for (const [k, v] of Object.entries(await benchStartup())) console.info(`${k.padEnd(58)} ${v}`);

console.info("\n# task reads: 10,000 tasks / 20 users + a 2,801-node tree (server time from Server-Timing)");
const rows = [...(await benchTasks(undefined))];
try {
  rows.push(...(await benchTasks(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(rows);
