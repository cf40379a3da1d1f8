import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { postgresSuites } from "../../vitest.config";

// The PostgreSQL pass runs only the suites listed in vitest.config.ts (postgresSuites). This proves the list is
// exactly the suites that touch a database, found from their source, so none silently drops out.

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Calling one of these (or reading/handing on a database URL) means a suite touches a database. */
const DIRECT = [
  "startTestServer",
  "createScratchDatabase",
  "openDatabase",
  "startServer",
  "testDatabaseUrl",
  "databaseKind",
  "TEST_DATABASE_URL",
  "DATABASE_URL",
];
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
function declarations(source: string): { name: string; body: string }[] {
  const starts = [
    ...source.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm),
  ];
  return starts.map((m, i) => ({
    name: m[1]!,
    body: source.slice(m.index! + m[0].length, starts[i + 1]?.index ?? source.length),
  }));
}

function databaseMarkers(): Set<string> {
  const markers = new Set(DIRECT);
  const decls = HELPER_DIRS.flatMap(tsFiles)
    .filter((f) => !f.endsWith(".test.ts"))
    .flatMap((f) => declarations(readFileSync(path.join(root, f), "utf8")));
  for (let grew = true; grew; ) {
    grew = false;
    for (const d of decls) {
      if (!markers.has(d.name) && mentions(d.body, markers)) {
        markers.add(d.name);
        grew = true;
      }
    }
  }
  return markers;
}

function suitesTouchingDatabase(): string[] {
  const markers = databaseMarkers();
  return SUITE_DIRS.flatMap(tsFiles)
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => mentions(readFileSync(path.join(root, f), "utf8"), markers))
    .sort();
}

describe("the PostgreSQL pass (postgresSuites in vitest.config.ts)", () => {
  it("follows helpers that start a server, not only direct calls", () => {
    expect(databaseMarkers()).toContain("startModelBackedServer");
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
