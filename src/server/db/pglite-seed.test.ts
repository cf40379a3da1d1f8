import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedPgliteVersion, seedPgliteFolder } from "./pglite-seed";

const root = mkdtempSync(path.join(tmpdir(), "atomize-seed-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A stand-in for the build's seed: a few files of a data folder, and the manifest naming its PGlite. */
function seed(pglite = installedPgliteVersion()): string {
  const dir = path.join(root, `seed-${++n}`, "pglite-seed");
  mkdirSync(path.join(dir, "base", "5"), { recursive: true });
  writeFileSync(path.join(dir, "PG_VERSION"), "18\n");
  writeFileSync(path.join(dir, "base", "5", "1259"), Buffer.alloc(8192, 7));
  writeFileSync(`${dir}.json`, JSON.stringify({ pglite }));
  return dir;
}
const dataFolder = () => path.join(root, `data-${++n}`, "pglite");

describe("a new PGlite data folder from the build's seed", () => {
  it("is a copy of the seed, made beside the folder and moved into place", () => {
    const target = dataFolder();
    expect(seedPgliteFolder(target, seed())).toBe(true);
    expect(readFileSync(path.join(target, "PG_VERSION"), "utf8")).toBe("18\n");
    expect(readFileSync(path.join(target, "base", "5", "1259"))).toEqual(Buffer.alloc(8192, 7));
    expect(readdirSync(path.dirname(target))).toEqual(["pglite"]);
  });

  it("also fills an empty folder an earlier start left", () => {
    const target = dataFolder();
    mkdirSync(target, { recursive: true });
    expect(seedPgliteFolder(target, seed())).toBe(true);
    expect(existsSync(path.join(target, "PG_VERSION"))).toBe(true);
  });

  it("never touches a folder that already holds a database, or anything", () => {
    const withDatabase = dataFolder();
    mkdirSync(withDatabase, { recursive: true });
    writeFileSync(path.join(withDatabase, "PG_VERSION"), "17\n");
    expect(seedPgliteFolder(withDatabase, seed())).toBe(false);
    expect(readFileSync(path.join(withDatabase, "PG_VERSION"), "utf8")).toBe("17\n");

    const withFiles = dataFolder();
    mkdirSync(withFiles, { recursive: true });
    writeFileSync(path.join(withFiles, "notes.txt"), "mine");
    expect(seedPgliteFolder(withFiles, seed())).toBe(false);
    expect(readdirSync(withFiles)).toEqual(["notes.txt"]);
  });

  it("is not used when another PGlite version wrote it, or there is none (PGlite then runs initdb)", () => {
    const target = dataFolder();
    expect(seedPgliteFolder(target, seed("0.0.1"))).toBe(false);
    expect(seedPgliteFolder(target, undefined)).toBe(false);
    const withoutManifest = seed();
    rmSync(`${withoutManifest}.json`);
    expect(seedPgliteFolder(target, withoutManifest)).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});
