import { eq } from "drizzle-orm";
import { detectStack } from "../../../shared/repository-map/stack";
import type { RepositoryMap } from "../../../shared/schemas/repository-map";
import type { DbOrTx } from "../../db/client";
import { repositoryMaps } from "../../db/schema/index";

/** The summary a model's brief gets of a map, at most this long (the context stage's budget). */
export const MAP_SUMMARY_MAX = 6000;

/** Maps read lately, by project: a map never changes once stored, and every split of a plan reads it. */
const recentMaps = new Map<string, RepositoryMap>();
const RECENT_MAPS = 8;

export async function loadRepositoryMap(db: DbOrTx, rootId: string): Promise<RepositoryMap | null> {
  const recent = recentMaps.get(rootId);
  if (recent) return recent;
  const [row] = await db
    .select({ map: repositoryMaps.map })
    .from(repositoryMaps)
    .where(eq(repositoryMaps.rootTaskId, rootId));
  if (!row) return null;
  if (recentMaps.size >= RECENT_MAPS) recentMaps.delete(recentMaps.keys().next().value!);
  recentMaps.set(rootId, row.map);
  return row.map;
}

/**
 * A repository map in a few thousand characters, for a model's brief and for reading the kind of work
 * (issue 42): the detected stack, the README's headings and first words, the folders with their sizes,
 * the routes, models and tables, the test folders. The paths near a node come with the node itself.
 */
export function summarizeMap(map: RepositoryMap): string {
  const stack = detectStack(map);
  const folders = new Map<string, number>();
  for (const f of map.files) {
    const parts = f.path.split("/");
    const key = parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.length === 2 ? parts[0]! : ".";
    folders.set(key, (folders.get(key) ?? 0) + 1);
  }
  const named = (kinds: string[]) =>
    map.symbols.flatMap((s) =>
      s.names.filter((n) => kinds.includes(n.kind)).map((n) => `${n.name} (${s.path})`),
    );
  const lines = [
    `Repository ${map.name}${map.commit ? ` at ${map.commit.slice(0, 12)}` : ""}: ${map.files.length} files${map.truncated ? " (a part of it)" : ""}.`,
    stack.sentence ?? "No stack detected from manifests.",
    map.readme ? `README headings: ${map.readme.headings.slice(0, 15).join(" · ")}` : "",
    map.readme?.intro ? `README: ${map.readme.intro.slice(0, 600)}` : "",
    `Folders: ${[...folders]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([d, n]) => `${d} (${n})`)
      .join(", ")}`,
    named(["route"]).length ? `Routes: ${named(["route"]).slice(0, 40).join("; ")}` : "",
    named(["model", "table"]).length
      ? `Models and tables: ${named(["model", "table"]).slice(0, 40).join("; ")}`
      : "",
    map.tests.length ? `Tests: ${map.tests.slice(0, 15).join(", ")}` : "",
  ].filter(Boolean);
  // The paths themselves, as many as the budget leaves room for.
  let room = MAP_SUMMARY_MAX - lines.join("\n").length - 20;
  const paths: string[] = [];
  for (const f of map.files) {
    if (f.path.length + 2 > room) break;
    paths.push(f.path);
    room -= f.path.length + 2;
  }
  if (paths.length) lines.push(`Files: ${paths.join(", ")}${paths.length < map.files.length ? ", …" : ""}`);
  const text = lines.join("\n");
  return text.length > MAP_SUMMARY_MAX ? `${text.slice(0, MAP_SUMMARY_MAX - 1)}…` : text;
}
