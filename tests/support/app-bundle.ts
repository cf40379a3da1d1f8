import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
// @ts-expect-error: a plain ES module script without types (scripts/build-server.mjs)
import { buildServer } from "../../scripts/build-server.mjs";

/**
 * Vitest globalSetup of the integration project: the server is bundled once per run (as `npm run build`
 * does), and every suite that starts the app as its own process runs that JavaScript instead of
 * compiling TypeScript with tsx at each start (tests/support/process.ts). The bundle lives under
 * node_modules/.cache so its packages resolve from the project, and is removed at teardown.
 */
export const APP_BUNDLE_ENV = "ATOMIZE_TEST_APP_BUNDLE";

export default async function setup(): Promise<() => void> {
  const outdir = path.resolve("node_modules", ".cache", "atomize-test", randomBytes(6).toString("hex"));
  await buildServer(outdir);
  process.env[APP_BUNDLE_ENV] = outdir;
  return () => {
    delete process.env[APP_BUNDLE_ENV];
    rmSync(outdir, { recursive: true, force: true });
  };
}
