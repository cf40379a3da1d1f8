import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { type CompactTree, packTree } from "../../../shared/tree-compact";
import type { Deps } from "../../deps";
import { shareAnswer } from "../../lib/shared-answer";
import { taskNotFound, visibleToSql } from "../../plan/owned";
import { getTaskTree } from "./read";

/**
 * Whole-plan reads that never hold the others (issue 39): a tree is built once per plan version and
 * shape, then served as built, with its JSON text and an entity tag, until the plan changes. Reads of a
 * version being built wait for that one build instead of starting their own, so eight readers of a
 * 10,000-node plan cost one build, and a repeated read costs two indexed lookups.
 *
 * The plan's version (migration 0022) grows with every commit that wrote a row the tree shows. It is
 * read before the rows, so a build may hold a newer plan than its version says, never an older one: a
 * later reader sees the newer version and builds again. The cache is per process and bounded by
 * TREE_CACHE_MB (0 turns it off); other processes keep their own, keyed by the same versions.
 */

export type TreeShape = "tree" | "compact";

/** Rows of plan_changes past which a read folds them into the plan's base (one statement). */
const FOLD_AFTER = 64;

/**
 * The task's plan and that plan's version, for the caller who owns the task: one indexed query. Throws
 * not found for anyone else's task, as every read does.
 */
export async function ownedPlanVersion(deps: Deps, userId: string, id: string) {
  if (!UUID_PATTERN.test(id)) throw taskNotFound();
  const [row] = await deps.database.rows<{ root: string; base: string | number; changes: number }>(sql`
    select coalesce(t.root_task_id, t.id) as root,
      coalesce((select v.base from plan_versions v where v.root_task_id = coalesce(t.root_task_id, t.id)), 0) as base,
      (select count(*)::int from plan_changes c where c.root_task_id = coalesce(t.root_task_id, t.id)) as changes
    from tasks t where t.id = ${id} and ${visibleToSql(userId)}`);
  if (!row) throw taskNotFound();
  if (row.changes > FOLD_AFTER) void foldChanges(deps, row.root);
  return { root: row.root, version: Number(row.base) + row.changes };
}

/**
 * Folds a plan's change rows into its base, in one statement so that no reader sees the version go
 * back: the rows deleted are exactly the ones added. A transaction still writing keeps its row (it is not
 * visible here) and adds it when it commits.
 */
export async function foldChanges(deps: Deps, root: string): Promise<void> {
  await deps.database
    .rows(sql`with folded as (delete from plan_changes where root_task_id = ${root} returning 1)
      insert into plan_versions (root_task_id, base) select ${root}, count(*) from folded
      on conflict (root_task_id) do update set base = plan_versions.base + excluded.base`)
    .catch((err: unknown) => deps.log.warn("folding a plan's change rows failed", { err, root }));
}

/**
 * What tells this build of the server from another in an entity tag: the hash of the file this code runs
 * from (the production bundle), so that a client's tag from before an upgrade never matches a tree the new
 * code would write differently.
 */
let buildStamp: string | undefined;
function stamp(): string {
  if (buildStamp === undefined) {
    try {
      buildStamp = createHash("sha256")
        .update(readFileSync(fileURLToPath(import.meta.url)))
        .digest("hex");
    } catch {
      buildStamp = String(Date.now());
    }
  }
  return buildStamp;
}

/** The shape's builder: the tree as getTaskTree gives it, or packed for the web app. */
const SHAPES: Record<TreeShape, (tree: TaskTreeNode) => object> = {
  tree: (tree) => tree,
  compact: (tree) => packTree(tree),
};

/**
 * A task's tree (the whole tree below it, as getTaskTree), in the shape asked for, from the cache when
 * the plan has not changed since it was built. The answer carries its entity tag and JSON text
 * (lib/shared-answer.ts) and is shared: callers must not change it.
 */
export async function readTree(deps: Deps, userId: string, id: string, shape: "tree"): Promise<TaskTreeNode>;
export async function readTree(
  deps: Deps,
  userId: string,
  id: string,
  shape: "compact",
): Promise<CompactTree>;
export async function readTree(deps: Deps, userId: string, id: string, shape: TreeShape): Promise<object> {
  return deps.treeCache.turns.run(userId, () => readTreeNow(deps, userId, id, shape));
}

async function readTreeNow(deps: Deps, userId: string, id: string, shape: TreeShape): Promise<object> {
  const { root, version } = await ownedPlanVersion(deps, userId, id);
  const key = `${shape}:${root}:${id}:${version}`;
  return deps.treeCache.get(key, async () => {
    const value = SHAPES[shape](await getTaskTree(deps, userId, id));
    const text = JSON.stringify(value);
    const tag = createHash("sha256").update(`${stamp()}:${key}`).digest("base64url").slice(0, 22);
    // Weak: the same tree goes out as JSON, brotli or gzip bytes (RFC 9110, 8.8.1).
    shareAnswer(value, `W/"${version}-${tag}"`, text);
    // The text, and the objects it was made from (about twice its size on V8's heap).
    return { value, bytes: text.length * 3 };
  });
}
