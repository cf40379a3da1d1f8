/**
 * Repository maps (issue 42): how big a map is and how long it takes to build on this machine, for this
 * repository itself and for a generated 10,000-file tree (TypeScript modules with exports and routes, a
 * manifest, nested .gitignore files), through `atomize new --repo`'s own code. Median of 3 runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { mapLocalRepository } from "../src/cli/local-repository";
import { percentile } from "./stats";

function generatedTree(files: number): string {
  const root = mkdtempSync(path.join(tmpdir(), "atomize-bench-map-"));
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ dependencies: { express: "4" } }));
  writeFileSync(path.join(root, ".gitignore"), "dist/\n*.log\n");
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, "src", `area${i % 50}`, `module${i % 20}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `file${i}.ts`),
      `import { x } from "./x";\nexport function handle${i}(input: string) { return input; }\nexport class Service${i} {}\nrouter.get("/items/${i}", handle${i});\n`,
    );
  }
  return root;
}

async function measure(folder: string) {
  const times: number[] = [];
  let bytes = 0;
  let files = 0;
  let symbols = 0;
  let truncated = false;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const map = await mapLocalRepository(folder);
    times.push(performance.now() - t0);
    bytes = Buffer.byteLength(JSON.stringify(map));
    files = map.files.length;
    symbols = map.symbols.reduce((n, s) => n + s.names.length, 0);
    truncated = map.truncated;
  }
  return { files, symbols, truncated, kB: Math.round(bytes / 1024), ms: Math.round(percentile(times, 50)) };
}

export async function benchRepositoryMaps(): Promise<Record<string, string | number | boolean>[]> {
  const rows: Record<string, string | number | boolean>[] = [
    { tree: "this repository", ...(await measure(".")) },
  ];
  const generated = generatedTree(10_000);
  try {
    rows.push({ tree: "generated, 10,000 files", ...(await measure(generated)) });
  } finally {
    rmSync(generated, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchRepositoryMaps());
