/** `npm run bench`: the figures issue notes report (never asserted in tests). */
import { benchDecomposition } from "./decomposition";
import { benchExports } from "./exports";
import { benchHostile } from "./hostile";
import { benchMcp } from "./mcp";
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

console.info("\n# decomposition: fake model at 200 ms per call, depth 3, 5 children per node");
const decompositions = [await benchDecomposition(null, 4)];
try {
  decompositions.push(await benchDecomposition(pgUrl, 4));
  decompositions.push(await benchDecomposition(pgUrl, 8));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message})`);
}
console.table(decompositions);

console.info(
  "\n# exports: 156-node tree, fakes at 50 ms per request, Trello and GitHub at their real limits (BENCH_GITHUB=0 skips GitHub's five minutes)",
);
console.table(await benchExports());

console.info("\n# hostile clients against the real process (PGlite, default limits, 5 s request deadline)");
for (const [k, v] of Object.entries(await benchHostile())) console.info(`${k.padEnd(58)} ${v}`);

console.info("\n# MCP server: tool list size and tool calls through the official SDK client (PGlite)");
for (const [k, v] of Object.entries(await benchMcp())) console.info(`${k.padEnd(58)} ${v}`);
