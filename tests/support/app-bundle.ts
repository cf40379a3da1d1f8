import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
// @ts-expect-error: a plain ES module script without types (scripts/build-server.mjs)
import { buildPgliteSeed, buildServer } from "../../scripts/build-server.mjs";
import { PGLITE_DIR_ENV } from "./database-template";

/**
 * Vitest globalSetup of the processes project: the server is bundled once per run (as `npm run build`
 * does), and every suite that starts the app as its own process runs that JavaScript instead of
 * compiling TypeScript with tsx at each start (tests/support/process.ts). The folder is laid out as a
 * built checkout (package.json, scripts/run-built.mjs, dist/server/), so a suite can run `npm start`
 * there, and dist/server holds the PGlite seed the build makes (on the PGlite pass a copy of the run's
 * migrated template): an app started on a new data folder creates its database from it, as in production.
 * It lives under node_modules/.cache so its packages resolve from the project, and is removed at teardown.
 * APP_BUNDLE_ENV names its dist/server folder.
 */
export const APP_BUNDLE_ENV = "ATOMIZE_TEST_APP_BUNDLE";

export default async function setup(): Promise<() => void> {
  const root = path.resolve("node_modules", ".cache", "atomize-test", randomBytes(6).toString("hex"));
  const outdir = path.join(root, "dist", "server");
  await buildServer(outdir);
  // Global setups run in order: on the PGlite pass tests/support/database-template.ts has made the
  // template by now; on the PostgreSQL pass the seed is made as the build makes it (the suites that start
  // the app on a data folder of their own use PGlite on either pass).
  const template = process.env[PGLITE_DIR_ENV];
  await buildPgliteSeed(outdir, template ? { from: template } : {});
  mkdirSync(path.join(root, "scripts"));
  copyFileSync("package.json", path.join(root, "package.json"));
  copyFileSync(path.join("scripts", "run-built.mjs"), path.join(root, "scripts", "run-built.mjs"));
  process.env[APP_BUNDLE_ENV] = outdir;
  return () => {
    delete process.env[APP_BUNDLE_ENV];
    rmSync(root, { recursive: true, force: true });
  };
}

/** The built checkout around the run's bundle (see above), where `npm start` runs it. */
export function bundleRoot(): string {
  const outdir = process.env[APP_BUNDLE_ENV];
  if (!outdir) throw new Error(`${APP_BUNDLE_ENV} is not set (tests/support/app-bundle.ts sets it)`);
  return path.resolve(outdir, "..", "..");
}
