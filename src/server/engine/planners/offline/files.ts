import type { DetectedStack } from "../../../../shared/repository-map/stack";
import type { RepositoryMap, TaskFile } from "../../../../shared/schemas/repository-map";
import { APPLIED_MIGRATION, type FileIndex, indexOf, TESTING } from "../../repository/likely-files";
import type { OutlineNode } from "./nodes";

/**
 * The outline on a repository (issue 42): each leaf names the files it most likely touches, ranked from
 * its words (and the requirements it covers) against the map (repository/likely-files.ts); a leaf that
 * checks or tests names the test folders and the tooling that exist; the first step starts from the
 * detected stack.
 */

type Context = {
  index: FileIndex;
  stack: DetectedStack;
  map: RepositoryMap;
  focus: Map<string, number>;
  /** One migration a plan: the first leaf that stores something new makes it. */
  migrated: boolean;
};

function annotate(node: OutlineNode, c: Context): OutlineNode {
  if (node.children.length > 0) return { ...node, children: node.children.map((n) => annotate(n, c)) };
  const { index, stack, map } = c;
  const own = [node.title, node.body ?? "", ...node.covers.map((r) => r.text)].join("\n");
  const testing = node.role === "verify" || TESTING.test(node.title);
  const found = index.filesFor(own, { tests: testing, focus: c.focus });
  const migration = testing || c.migrated ? null : migrationFor(map, node.title, found);
  if (migration) c.migrated = true;
  const files = migration ? [...found, migration] : found;
  let details = node.details;
  if (testing && map.tests.length) {
    const tools = stack.tests.length ? ` with ${stack.tests.join(" and ")}` : "";
    details = `${details}\nTests live in ${map.tests.slice(0, 5).join(", ")}: extend them${tools}.`;
  }
  if (node.role === "setup" && stack.sentence && !details.includes(stack.sentence))
    details = `${stack.sentence}.\n${details}`;
  return { ...node, details, files };
}

export function withFiles(
  nodes: OutlineNode[],
  repository: { map: RepositoryMap; stack: DetectedStack },
  request: string,
): OutlineNode[] {
  const index = indexOf(repository.map);
  const context = {
    index,
    stack: repository.stack,
    map: repository.map,
    focus: index.focusOf(request),
    migrated: false,
  };
  return nodes.map((n) => annotate(n, context));
}

/** Where a repository keeps its migrations: folders of files or folders named by a number or a date. */
function migrationFolders(map: RepositoryMap): string[] {
  const folders = new Set<string>();
  for (const f of map.files) {
    const m = f.path.match(APPLIED_MIGRATION);
    if (m) folders.add(m[1]!);
  }
  return [...folders];
}

/** Words a migration's name leaves out. */
const FILLER = new Set(
  "the and for with when that this can should would could please let lets want wants allow allows able our their they them its".split(
    " ",
  ),
);

/** Words that say a task stores something new: a field, a column, a flag, a date. */
const STORES =
  /\b(store|stores|record|track|save|optional|field|column|attribute|flag|date|count|priority|expir\w*|renew\w*|assign\w*)\b/i;
const MODEL_FILE =
  /(schema\.prisma|(^|\/)(models?|schema|entit(y|ies)|db)(\.\w+$|\/)|(^|\/)app\/models\/|\/Models\/|\.entity\.\w+$)/;

/**
 * The migration a task that stores something new needs (issue 42): when its likely files include a
 * model or a schema and the repository keeps migrations, a new file there, named as that folder names its
 * files: the next number of a numbered series, or a timestamp the project's migration tool fills in.
 */
export function migrationFor(map: RepositoryMap, title: string, files: TaskFile[]): TaskFile | null {
  if (!STORES.test(title) || !files.some((f) => MODEL_FILE.test(f.path))) return null;
  const folder = migrationFolders(map)[0];
  if (!folder) return null;
  const entries = map.files
    .filter((f) => f.path.startsWith(`${folder}/`))
    .map((f) => f.path.slice(folder.length + 1));
  const words = title
    .toLowerCase()
    .replace(/^r\d+:\s*/, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !FILLER.has(w))
    .slice(0, 5);
  const slug = words.join("_") || "change";
  const last = entries.sort().at(-1) ?? "";
  const ext = last.includes("/") ? "" : (last.match(/\.\w+$/)?.[0] ?? ".sql");
  const nested = last.includes("/") ? `/${last.split("/").slice(1).join("/")}` : "";
  // A date (Laravel's 2024_02_01_000200_…), a timestamp (Rails', Prisma's 20240115100000_…), or a
  // numbered series (Alembic's, sqlx's 0001_…): the next number, or the tool's own time.
  const numbered = last.match(/^(\d{1,6})_/);
  const name = /^\d{4}_\d{2}_\d{2}_/.test(last)
    ? `YYYY_MM_DD_HHMMSS_${slug}`
    : /^\d{8,}/.test(last) || !numbered
      ? `YYYYMMDDHHMMSS_${slug}`
      : `${String(Number(numbered[1]) + 1).padStart(numbered[1]!.length, "0")}_${slug}`;
  return { path: `${folder}/${name}${nested || ext}`, confidence: "medium", new: true };
}
