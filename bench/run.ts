/** `npm run bench`: the figures issue notes report (never asserted in tests). */

import { benchBigPlans } from "./big-plans";
import { benchBrowserBigPlan } from "./browser-big-plan";
import { benchClaims } from "./claims";
import { benchCompression } from "./compression";
import { benchDecompositions } from "./decomposition";
import { benchExports } from "./exports";
import { benchHistory } from "./history";
import { benchHostile } from "./hostile";
import { benchLighthouse } from "./lighthouse";
import { benchMcp } from "./mcp";
import { benchReading } from "./reading";
import { benchRepositoryCollisions } from "./repository-collisions";
import { benchRepositoryMaps } from "./repository-map";
import { benchScaleOut } from "./scale-out";
import { benchStall } from "./stall";
import { benchStartup } from "./startup";
import { benchTasks } from "./tasks";

const pgUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

console.info("\n# reading a description and outlining it, offline planner (median of 5 runs)");
console.table(benchReading());

console.info("\n# start-up and sign-in (the compiled server as npm start runs it, PGlite, child process)");
for (const [k, v] of Object.entries(await benchStartup())) console.info(`${k.padEnd(76)} ${v}`);

console.info("\n# task reads: 10,000 tasks / 20 users + a 2,801-node tree (server time from Server-Timing)");
const rows = [...(await benchTasks(undefined))];
try {
  rows.push(...(await benchTasks(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(rows);

console.info(
  "\n# history: bytes per edit, PATCH and restore at 2,801 and 10,000 nodes, PGlite and PostgreSQL",
);
const history = [...(await benchHistory())];
try {
  history.push(...(await benchHistory(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(history);

console.info(
  "\n# big plans: tree answer, edits, schedule and MCP at 2,801 (7 × 4) and 11,111 (10 × 4) nodes, PGlite and PostgreSQL",
);
const big = [...(await benchBigPlans(undefined))];
try {
  big.push(...(await benchBigPlans(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(big);

console.info(
  "\n# reads that never block (issue 39): another user's dashboard while 8 clients read a 10,000-node plan's tree without pause, cache off and on, PGlite and PostgreSQL (the real process)",
);
const stall = [...(await benchStall())];
try {
  stall.push(...(await benchStall(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(stall);

console.info(
  "\n# the browser on an 11,111-node plan: long tasks while it opens, expands and scrolls (needs `npm run build`)",
);
try {
  for (const [k, v] of Object.entries(await benchBrowserBigPlan())) console.info(`${k.padEnd(40)} ${v}`);
} catch (err) {
  console.warn(`browser run skipped (${(err as Error).message})`);
}

console.info(
  "\n# decomposition: fake model (on its own thread) at 200 ms per call, depth 3, 5 children per node; wall time against the call-graph bound",
);
console.table(await benchDecompositions(pgUrl));

console.info(
  "\n# exports: 156-node tree, fakes at 50 ms per request, Trello and GitHub at their real limits (BENCH_GITHUB=0 skips GitHub's five minutes)",
);
console.table(await benchExports());

console.info("\n# hostile clients against the real process (PGlite, default limits, 5 s request deadline)");
for (const [k, v] of Object.entries(await benchHostile())) console.info(`${k.padEnd(58)} ${v}`);

console.info("\n# MCP server: tool list size and tool calls through the official SDK client (PGlite)");
for (const [k, v] of Object.entries(await benchMcp())) console.info(`${k.padEnd(58)} ${v}`);

console.info(
  "\n# compression: bytes on the wire for the landing page (HTML + the scripts and styles Chromium loads) and the 2,801-node tree (PGlite; needs `npm run build`)",
);
try {
  const { landing, tree, settings } = await benchCompression();
  console.table(landing);
  console.table(tree);
  console.table(settings);
} catch (err) {
  console.warn(`compression skipped (${(err as Error).message})`);
}

console.info(
  "\n# repository maps (issue 42): size and build time of `atomize new --repo`'s map (median of 3)",
);
console.table(await benchRepositoryMaps());
console.info(
  "\n# collisions in parallel waves on the 12 sample repositories' plans (issue 42; PGlite, offline planner)",
);
console.table(await benchRepositoryCollisions());

console.info(
  "\n# claims (issue 41): 20 agents call claim-next at once on a 2,801-node plan, 10 rounds (goal: p95 < 50 ms on PostgreSQL)",
);
const claims = [...(await benchClaims())];
try {
  claims.push(...(await benchClaims(pgUrl)));
} catch (err) {
  console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
}
console.table(claims);

console.info(
  "\n# Lighthouse 12, mobile profile, on the public pages of a fresh production server (needs `npm run build`; median of BENCH_LIGHTHOUSE_RUNS=3)",
);
try {
  console.table(await benchLighthouse());
} catch (err) {
  console.warn(`Lighthouse run skipped (${(err as Error).message})`);
}

console.info(
  "\n# several processes (issue 45): 200 users read their dashboard and tree and edit for 60 s through nginx, 1 process against 3 on one PostgreSQL, then 3 with one killed half-way",
);
try {
  console.table(await benchScaleOut(pgUrl));
} catch (err) {
  console.warn(`scale-out run skipped (${(err as Error).message}); needs PostgreSQL and nginx`);
}
