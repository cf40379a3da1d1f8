import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { postgresSuites } from "../../vitest.config";

// The PostgreSQL pass runs only the suites listed in vitest.config.ts (postgresSuites). This proves the list is
// exactly the suites that touch a database, found from their source, so none silently drops out.

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Calling one of these, or reading TEST_DATABASE_URL, means a database is touched. */
const DIRECT = [
  "startTestServer",
  "createScratchDatabase",
  "openDatabase",
  "startServer",
  "testDatabaseUrl",
  "databaseKind",
  "TEST_DATABASE_URL",
];
/** A suite that hands a DATABASE_URL to a process it starts touches one too. */
const SUITE_ONLY = ["DATABASE_URL"];
/** Helpers here that reach a DIRECT name, however indirectly, count too (startModelBackedServer...). */
const HELPER_DIRS = ["tests/support", "tests/eval", "tests/fakes"];
const SUITE_DIRS = ["tests/integration", "tests/fakes"];

const mentions = (text: string, names: Iterable<string>) =>
  [...names].some((n) => new RegExp(`\\b${n}\\b`).test(text));

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

/** Top-level declarations of a module, each with its source up to the next one. */
function declarations(
  source: string,
): { name: string; exported: boolean; isDefault: boolean; body: string }[] {
  const starts = [
    ...source.matchAll(
      /^(export\s+)?(default\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm,
    ),
  ];
  return starts.map((m, i) => ({
    name: m[3]!,
    // A suite can call only what a module exports by name.
    exported: Boolean(m[1]) && !m[2],
    isDefault: Boolean(m[2]),
    body: source.slice(m.index! + m[0].length, starts[i + 1]?.index ?? source.length),
  }));
}

/** The names a suite that touches a database would mention: DIRECT and the helpers that reach them. */
function databaseMarkers(): Set<string> {
  const decls = HELPER_DIRS.flatMap(tsFiles)
    .filter((f) => !f.endsWith(".test.ts"))
    .flatMap((file) => declarations(readFileSync(path.join(root, file), "utf8")).map((d) => ({ ...d, file })))
    // A default export (a vitest globalSetup) is an entry point, called by no suite.
    .filter((d) => !d.isDefault);
  // A module's own (unexported) helper is visible only inside it: another file's word "fresh" is not it.
  const reaching = new Map<string, Set<string>>(DIRECT.map((n) => [n, new Set(["*"])]));
  const reaches = (d: (typeof decls)[number]) =>
    [...reaching].some(([name, files]) => (files.has("*") || files.has(d.file)) && mentions(d.body, [name]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const d of decls) {
      const scope = d.exported ? "*" : d.file;
      if (reaching.get(d.name)?.has(scope) || !reaches(d)) continue;
      reaching.set(d.name, new Set([...(reaching.get(d.name) ?? []), scope]));
      grew = true;
    }
  }
  return new Set([...reaching].filter(([, files]) => files.has("*")).map(([name]) => name));
}

function suitesTouchingDatabase(): string[] {
  const markers = [...databaseMarkers(), ...SUITE_ONLY];
  return SUITE_DIRS.flatMap(tsFiles)
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => mentions(readFileSync(path.join(root, f), "utf8"), markers))
    .sort();
}

describe("the PostgreSQL pass (postgresSuites in vitest.config.ts)", () => {
  it("follows helpers that start a server, not only direct calls", () => {
    expect(databaseMarkers()).toContain("startModelBackedServer");
    // spawnApp starts the app on the DATA_DIR (PGlite) or DATABASE_URL its caller gives.
    expect(databaseMarkers()).not.toContain("spawnApp");
  });

  it("lists exactly the integration suites that start a test server or open a database", () => {
    expect([...postgresSuites].sort()).toEqual(suitesTouchingDatabase());
  });

  it("lists every PostgreSQL-only suite (*.pg.test.ts)", () => {
    const pgOnly = SUITE_DIRS.flatMap(tsFiles).filter((f) => f.endsWith(".pg.test.ts"));
    expect(pgOnly.length).toBeGreaterThan(0);
    for (const f of pgOnly) expect(postgresSuites).toContain(f);
  });
});
