// Bundles the server's entry points (the app, the make-admin command and the `atomize` command line) into plain JavaScript with
// esbuild, the compiler tsx itself runs on. The packages they use are bundled too: Node's loader spent
// about a second of CPU resolving and reading a few thousand files of node_modules at every start
// (decision 025). Code loaded on demand (`await import(...)`) goes into chunks of its own, loaded only
// when used. The few packages listed in `external` stay in node_modules and resolve from there, so the
// output must live inside the project (dist/server by default). The tests bundle once per run into a
// folder of their own (tests/support/app-bundle.ts), so a spawned app starts without compiling TypeScript.
// `npm run build` also makes the PGlite seed: a migrated database that a new data folder starts from
// (src/server/db/pglite-seed.ts, decision 025).
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrationsFolder = path.join(root, "drizzle");

/**
 * Packages left in node_modules: PGlite finds its WebAssembly and data files beside its own module,
 * argon2 is a native addon, the model SDK is loaded at the first model call
 * (src/server/engine/planners/model/model-planner.ts), and ws tries two optional native helpers.
 */
const external = ["@electric-sql/pglite", "@node-rs/argon2", "@langchain/*", "bufferutil", "utf-8-validate"];

/** Writes main.js, make-admin.js and atomize.js (and their shared chunks) into `outdir`; returns their paths. */
export async function buildServer(outdir = path.join(root, "dist", "server")) {
  // Chunk names change with their content: drop the previous build's.
  rmSync(path.join(outdir, "chunks"), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      main: "src/server/main.ts",
      "make-admin": "src/server/commands/make-admin.ts",
      atomize: "src/cli/atomize.ts",
    },
    outdir,
    bundle: true,
    external,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node22",
    // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
    banner: {
      js: 'import { createRequire as __atomizeRequire } from "node:module"; const require = __atomizeRequire(import.meta.url);',
    },
    sourcemap: "linked",
    logLevel: "warning",
  });
  return {
    main: path.join(outdir, "main.js"),
    makeAdmin: path.join(outdir, "make-admin.js"),
    cli: path.join(outdir, "atomize.js"),
  };
}

/**
 * Writes `outdir/pglite-seed` (a PGlite data folder holding every migration of drizzle/) and its manifest
 * `outdir/pglite-seed.json`, which names the PGlite version that wrote it: the server uses the seed only
 * with that version. `from` copies an already-migrated folder instead of creating one (the tests reuse the
 * run's template). A seed whose manifest already matches is kept, so a rebuild skips initdb.
 */
export async function buildPgliteSeed(outdir = path.join(root, "dist", "server"), { from } = {}) {
  const seed = path.join(outdir, "pglite-seed");
  const manifestFile = `${seed}.json`;
  const manifest = { pglite: pgliteVersion(), newestMigration: newestMigration(), layout: SEED_LAYOUT };
  if (!from && existsSync(manifestFile) && existsSync(path.join(seed, "PG_VERSION"))) {
    const current = JSON.parse(readFileSync(manifestFile, "utf8"));
    if (
      current.pglite === manifest.pglite &&
      current.newestMigration === manifest.newestMigration &&
      current.layout === manifest.layout
    )
      return seed;
  }
  rmSync(manifestFile, { force: true });
  rmSync(seed, { recursive: true, force: true });
  if (from) cpSync(from, seed, { recursive: true });
  else {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = new PGlite(seed);
    await client.waitReady;
    await migrate(drizzle(client), { migrationsFolder });
    await client.close();
  }
  await dropTemplateDatabases(seed);
  // Written last: a seed without its manifest is never used.
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return seed;
}

/** What the seed holds besides the migrated database; a seed of another layout is rebuilt. */
const SEED_LAYOUT = 2;

/**
 * Drops the cluster's template databases from the seed. The app uses only the `postgres` database and
 * never creates one, and the templates are half of the files (14 of 40 MB, 600 of 1,125 files) that a
 * new data folder's copy writes: the copy is most of such a start (decision 025).
 */
async function dropTemplateDatabases(seed) {
  const { PGlite } = await import("@electric-sql/pglite");
  const client = new PGlite(seed);
  await client.waitReady;
  await client.exec(
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
  );
  await client.exec("drop database if exists template0");
  await client.exec("drop database if exists template1");
  await client.exec("checkpoint");
  await client.close();
}

function pgliteVersion() {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  return JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")).version;
}

function newestMigration() {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"));
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const out = await buildServer(outdir);
  const seed = await buildPgliteSeed(outdir);
  console.log(
    `server bundled: ${path.relative(root, out.main)}, ${path.relative(root, out.makeAdmin)}; database seed: ${path.relative(root, seed)}`,
  );
}
