// Bundles the server's entry points (the app, the make-admin command and the `atomize` command line) into plain JavaScript with
// esbuild, the compiler tsx itself runs on. Packages stay external and resolve from node_modules, so the
// output must live inside the project (dist/server by default). The tests bundle once per run into a
// folder of their own (tests/support/app-bundle.ts), so a spawned app starts without compiling TypeScript.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Writes main.js and make-admin.js into `outdir`; returns their paths. */
export async function buildServer(outdir = path.join(root, "dist", "server")) {
  await build({
    absWorkingDir: root,
    entryPoints: {
      main: "src/server/main.ts",
      "make-admin": "src/server/cli/make-admin.ts",
      atomize: "src/cli/atomize.ts",
    },
    outdir,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
  return {
    main: path.join(outdir, "main.js"),
    makeAdmin: path.join(outdir, "make-admin.js"),
    cli: path.join(outdir, "atomize.js"),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`server bundled: ${path.relative(root, out.main)}, ${path.relative(root, out.makeAdmin)}`);
}
