import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { buildRepositoryMap, SYMBOL_FILE_MAX_BYTES, type TreeEntry } from "../shared/repository-map/build";
import { REPOSITORY_MAP_LIMITS, type RepositoryMap } from "../shared/schemas/repository-map";
import { CliError } from "./errors";

/**
 * A repository map of a checkout on this machine (issue 42): its paths and sizes, honouring every
 * .gitignore on the way (and never .git itself), and the few files the map reads (manifests, README,
 * CODEOWNERS, source files' top-level symbols). Nothing of a file's contents leaves the machine but what
 * the map keeps.
 */

/** Folders no one wants in a map even where .gitignore forgets them. */
const ALWAYS_SKIPPED = new Set([".git", "node_modules", ".hg", ".svn"]);

async function walk(root: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  // Each folder's rules apply below it: [folder relative to root, its .gitignore].
  const visit = async (dir: string, rules: { base: string; ig: Ignore }[]) => {
    if (out.length > REPOSITORY_MAP_LIMITS.paths) return;
    const here = path.relative(root, dir).split(path.sep).join("/");
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const own = entries.find((e) => e.isFile() && e.name === ".gitignore");
    const scoped = own
      ? [...rules, { base: here, ig: ignore().add(await readFile(path.join(dir, ".gitignore"), "utf8")) }]
      : rules;
    const ignored = (rel: string, isDir: boolean) =>
      scoped.some(({ base, ig }) => {
        const inner = base ? rel.slice(base.length + 1) : rel;
        return inner !== "" && ig.ignores(isDir ? `${inner}/` : inner);
      });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isSymbolicLink()) continue;
      const rel = here ? `${here}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ALWAYS_SKIPPED.has(e.name) || ignored(rel, true)) continue;
        await visit(path.join(dir, e.name), scoped);
      } else if (e.isFile()) {
        if (ignored(rel, false)) continue;
        const size = (await stat(path.join(dir, e.name))).size;
        out.push({ path: rel, size });
        if (out.length > REPOSITORY_MAP_LIMITS.paths) return;
      }
    }
  };
  await visit(root, []);
  return out;
}

/** The commit a checkout is at, if git's files say (no git needed). */
async function headCommit(root: string): Promise<string | null> {
  try {
    const head = (await readFile(path.join(root, ".git", "HEAD"), "utf8")).trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = head.match(/^ref: (.+)$/)?.[1];
    if (!ref) return null;
    try {
      return (await readFile(path.join(root, ".git", ref), "utf8")).trim().slice(0, 64);
    } catch {
      const packed = await readFile(path.join(root, ".git", "packed-refs"), "utf8");
      return (
        packed
          .split("\n")
          .find((l) => l.endsWith(` ${ref}`))
          ?.split(" ")[0] ?? null
      );
    }
  } catch {
    return null;
  }
}

export async function mapLocalRepository(folder: string): Promise<RepositoryMap> {
  const root = path.resolve(folder);
  let info: import("node:fs").Stats;
  try {
    info = await stat(root);
  } catch {
    throw new CliError(`--repo ${folder}: no such folder.`);
  }
  if (!info.isDirectory()) throw new CliError(`--repo ${folder} is not a folder.`);
  const tree = await walk(root);
  return buildRepositoryMap({
    source: "local",
    name: path.basename(root),
    commit: await headCommit(root),
    tree,
    read: async (rel) => {
      try {
        const file = path.join(root, ...rel.split("/"));
        if ((await stat(file)).size > SYMBOL_FILE_MAX_BYTES) return null;
        const bytes = await readFile(file);
        return bytes.includes(0) ? null : bytes.toString("utf8");
      } catch {
        return null;
      }
    },
  });
}
