import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A new PGlite data folder starts as a copy of a migrated one that `npm run build` makes next to the
 * server bundle (dist/server/pglite-seed, scripts/build-server.mjs), instead of running initdb and every
 * migration: on these machines initdb alone costs several seconds of CPU, a copy a fraction of one
 * (decision 025). The copy is used only if the installed PGlite is the one that wrote it (its manifest,
 * pglite-seed.json, names the version); otherwise, and when run from the TypeScript source, PGlite
 * creates the database itself as before.
 */
export const PGLITE_SEED = "pglite-seed";

/**
 * The seed of the running server: the nearest one above this module, which the build writes beside the
 * bundle's entry points (this code may sit in a chunk below them). From the TypeScript source there is none.
 */
const seedDir = findSeed(path.dirname(fileURLToPath(import.meta.url)));

function findSeed(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, `${PGLITE_SEED}.json`))) return path.join(dir, PGLITE_SEED);
    if (path.dirname(dir) === dir) return undefined;
  }
}

export type PgliteSeedManifest = { pglite: string };

/**
 * Fills `dataDir` (the PGlite folder inside DATA_DIR) from the seed when it holds no database yet.
 * Returns whether it did. The copy is made beside the folder and renamed into place, so an interrupted
 * copy never looks like a database.
 */
export function seedPgliteFolder(dataDir: string, from = seedDir): boolean {
  if (!from || existsSync(path.join(dataDir, "PG_VERSION"))) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  if (!seedMatchesPglite(from)) return false;
  const partial = `${dataDir}.seeding-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    copyFolder(from, partial);
    rmSync(dataDir, { recursive: true, force: true }); // an empty folder left by an earlier start
    renameSync(partial, dataDir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
  return true;
}

function seedMatchesPglite(from: string): boolean {
  const manifest = `${from}.json`;
  if (!existsSync(manifest) || !existsSync(path.join(from, "PG_VERSION"))) return false;
  return (
    (JSON.parse(readFileSync(manifest, "utf8")) as PgliteSeedManifest).pglite === installedPgliteVersion()
  );
}

/** The version of the PGlite package this module loads. */
export function installedPgliteVersion(): string {
  // The package exports no package.json; its entry point sits in dist/, one level below it.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pkg = path.join(path.dirname(entry), "..", "package.json");
  return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
}

// fs.cpSync spends several times longer per file on stat calls; a cluster is about 1,100 small files.
function copyFolder(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyFolder(source, target);
    else copyFileSync(source, target);
  }
}
