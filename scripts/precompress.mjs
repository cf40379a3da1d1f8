// The last step of `npm run build`: writes a brotli (quality 11) and a gzip (level 9) copy next to every
// text file of the built client over 1 KB (index.html, scripts, styles, SVG, JSON...), so the server sends
// them as they are (serveStatic's `precompressed`, src/server/app.ts) instead of compressing each request
// at a fast, weaker setting. Source maps are left out: only developer tools fetch them, and the server
// compresses them on the fly. Runs after every other build step, so pages written at build time are included.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Matches src/server/lib/compression.ts: smaller files are sent as they are. */
export const MIN_BYTES = 1024;
const EXTENSIONS = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".txt", ".webmanifest"]);

/** Compresses one file's bytes both ways; a variant that saves nothing is not written. */
async function compressFile(file) {
  const bytes = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.length < bytes.length) await writeFile(`${file}.br`, br);
  if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
  return { file, bytes: bytes.length, br: br.length, gzip: gz.length };
}

/** Every file under `dir` that gets compressed copies. */
async function candidates(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = [];
  for (const e of entries) {
    if (!e.isFile() || !EXTENSIONS.has(path.extname(e.name))) continue;
    const file = path.join(e.parentPath, e.name);
    if ((await stat(file)).size >= MIN_BYTES) files.push(file);
  }
  return files;
}

/** Writes `.br` and `.gz` next to each candidate under `dir`, two files at a time; returns the sizes. */
export async function precompress(dir) {
  const queue = await candidates(dir);
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await compressFile(file));
  };
  await Promise.all([worker(), worker()]);
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dir = path.resolve(process.argv[2] ?? path.join(root, "dist", "client"));
  const started = performance.now();
  const results = await precompress(dir);
  const sum = (key) => results.reduce((n, r) => n + r[key], 0);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `precompressed ${results.length} files in ${path.relative(root, dir) || "."}: ${kib(sum("bytes"))} -> ` +
      `${kib(sum("gzip"))} gzip, ${kib(sum("br"))} brotli (${Math.round(performance.now() - started)} ms)`,
  );
}
