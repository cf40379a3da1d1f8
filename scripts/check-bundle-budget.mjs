// Build-time check (`npm run build` runs it after the client build): the JavaScript a visitor's first page
// loads, gzipped, from Vite's manifest (dist/client/.vite/manifest.json): the entry and everything it
// imports statically, plus the page's own chunk and its static imports. Lazy chunks (the signed-in app,
// other pages) are not counted: they load later, if at all. The build fails when the landing page goes over
// its budget, and when a page of src/client/public-pages.ts is missing from the manifest (the server
// preloads a page's chunk by that name). Decision 023 explains the figure.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A visitor's public page is complete without scripts, and its entry (src/client/main.tsx) starts React
 * only once the page has loaded (or at the reader's first input): what it loads before is the entry and
 * its static imports. Issue 15 asks for under 60 KB on the landing page.
 */
export const LANDING_JS_BUDGET_BYTES = 60 * 1024;

/**
 * Then React's side (src/client/start.tsx) and the page's chunk load and hydrate the page: react-dom's
 * client alone is about 62 KB gzipped in React 19, so this budget is what the app meets with React
 * (decision 023): lower it when the bundle shrinks.
 */
export const LANDING_HYDRATION_JS_BUDGET_BYTES = 90 * 1024;

/** React's side of the page, loaded by the entry (manifest key). */
export const HYDRATION_SOURCE = "src/client/start.tsx";

/**
 * The chunk files the entries and their static imports load, then each of `sources` (manifest keys) with
 * its static imports; each file once. Lazy chunks not named in `sources` are not counted.
 * @param {Record<string, { file: string; isEntry?: boolean; imports?: string[] }>} manifest
 * @param {string[]} sources
 * @returns {string[]}
 */
export function initialChunks(manifest, sources) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    if (chunk.file.endsWith(".js")) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  for (const source of sources) visit(source);
  return [...files];
}

/** Gzipped size (zlib's default level, as servers compress on the fly) of files under `dir`. */
export function gzippedBytes(dir, files) {
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dir, file))).length, 0);
}

/** The public pages' manifest keys, from src/client/public-pages.ts. */
export function publicPageSources(
  text = readFileSync(path.join(root, "src/client/public-pages.ts"), "utf8"),
) {
  return Object.fromEntries(
    [...text.matchAll(/^\s{2}(\w+): \{\s*source: "([^"]+)"/gm)].map((m) => [m[1], m[2]]),
  );
}

function main() {
  const clientDir = path.join(root, "dist", "client");
  const manifestFile = path.join(clientDir, ".vite", "manifest.json");
  if (!existsSync(manifestFile)) {
    console.error(`No ${path.relative(root, manifestFile)}: run \`vite build\` first.`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  const pages = publicPageSources();
  const missing = Object.entries(pages).filter(([, source]) => !manifest[source]);
  if (missing.length > 0) {
    console.error(`Public pages missing from the manifest: ${missing.map(([, s]) => s).join(", ")}`);
    process.exit(1);
  }
  if (!manifest[HYDRATION_SOURCE]) {
    console.error(`${HYDRATION_SOURCE} is missing from the manifest: the entry must import it lazily`);
    process.exit(1);
  }
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const initial = initialChunks(manifest, []);
  const initialBytes = gzippedBytes(clientDir, initial);
  console.log(
    `JavaScript a visitor's public page loads before it has loaded (gzip): ${kb(initialBytes)} (${initial.length} files)`,
  );
  console.log("then, to hydrate it, in all (gzip):");
  const hydration = {};
  for (const [name, source] of Object.entries(pages)) {
    const files = initialChunks(manifest, [HYDRATION_SOURCE, source]);
    hydration[name] = gzippedBytes(clientDir, files);
    console.log(`  ${name.padEnd(10)} ${kb(hydration[name]).padStart(9)}  (${files.length} files)`);
  }
  const over = [
    initialBytes > LANDING_JS_BUDGET_BYTES &&
      `The landing page loads ${kb(initialBytes)} of JavaScript before it has loaded: over its ${kb(LANDING_JS_BUDGET_BYTES)} budget.`,
    hydration.landing > LANDING_HYDRATION_JS_BUDGET_BYTES &&
      `The landing page loads ${kb(hydration.landing)} of JavaScript to hydrate: over its ${kb(LANDING_HYDRATION_JS_BUDGET_BYTES)} budget.`,
  ].filter(Boolean);
  if (over.length > 0) {
    for (const line of over) console.error(line);
    process.exit(1);
  }
  console.log(
    `landing page: ${kb(initialBytes)} of its ${kb(LANDING_JS_BUDGET_BYTES)} budget before it has loaded, ` +
      `${kb(hydration.landing)} of ${kb(LANDING_HYDRATION_JS_BUDGET_BYTES)} to hydrate`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
