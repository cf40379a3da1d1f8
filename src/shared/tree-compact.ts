import { z } from "zod";
import type { TaskTreeNode } from "./schemas/tasks";

/**
 * The tree answer in a compact shape, for the web client (issue 32: at most 300 bytes a node besides
 * its own text). `GET /tasks/{id}/tree` keeps its shape for scripts and exports; `GET
 * /tasks/{id}/tree/compact` gives the same tree as `packTree` makes it, and `expandTree` gives back exactly
 * the tree answer (the tests check both ways on real plans). What packing does to each node below the top:
 * - it leaves out what the nesting says (`task_id`, `parent_id`, `root_task_id`, `depth`,
 *   `children_count`, `total_subtasks`, `estimated_hours` = the range's likely value) and fields at
 *   their default (status "pending", nulls, false, empty lists);
 * - it names the rest with short keys (COMPACT_KEYS), times as epoch milliseconds, and dependencies
 *   inside the tree as node numbers instead of ids;
 * - a field it does not know (a newer server's) travels as it is, under "+".
 * Nodes are in pre-order: the top is number 0 and each node's `p` is its parent's number.
 */

export const COMPACT_TREE_FORMAT = "atomize.tree.compact/1";

/** Short key of each packed field; the rest are left out (derived) or carried under "+". */
const COMPACT_KEYS = {
  description: "d",
  status: "s",
  position: "o",
  complexity_score: "x",
  story_points: "sp",
  implementation_details: "i",
  is_atomic: "a",
  created_at: "t",
  updated_at: "u",
  completed_at: "ca",
  started_at: "st",
  edited_at: "ed",
  exported_at: "ex",
  depends_on: "dep",
  acceptance_criteria: "ac",
  requirement_ids: "r",
  needs_attention: "n",
  attention_reason: "ar",
  locked: "lk",
  rollup: "ru",
  estimate_hours: "e",
  estimate_source: "es",
  remote_links: "rl",
  rejection_reason: "rj",
  failure_reason: "fr",
  warnings: "w",
  planner: "pl",
  model: "m",
  actual_hours: "ah",
  actual_source: "as",
} as const;
type PackedField = keyof typeof COMPACT_KEYS;

/** Fields every lean node has, and the value packing leaves out. */
const DEFAULTS: Partial<Record<PackedField, unknown>> = {
  status: "pending",
  complexity_score: null,
  story_points: null,
  implementation_details: null,
  is_atomic: false,
  depends_on: [],
  acceptance_criteria: [],
  requirement_ids: [],
  needs_attention: false,
  attention_reason: null,
  locked: [],
  rollup: null,
};
const TIMES = new Set<PackedField>([
  "created_at",
  "updated_at",
  "completed_at",
  "started_at",
  "edited_at",
  "exported_at",
]);
/** Left out of a packed node: the nesting, or another field, says them. */
const DERIVED = new Set([
  "id",
  "task_id",
  "parent_id",
  "root_task_id",
  "depth",
  "children",
  "children_count",
  "total_subtasks",
  "estimated_hours",
]);

export const compactNode = z.record(z.string(), z.unknown());
export const compactTree = z
  .object({
    format: z.literal(COMPACT_TREE_FORMAT),
    /** The top node without its children, as the tree answer has it (a whole Task for a plan's root). */
    top: z.record(z.string(), z.unknown()),
    /** Every node below the top, in pre-order; see packTree. */
    nodes: z.array(compactNode),
  })
  .meta({ id: "CompactTaskTree" });
export type CompactTree = z.infer<typeof compactTree>;

const isEmptyDefault = (value: unknown, fallback: unknown) =>
  value === fallback || (Array.isArray(fallback) && Array.isArray(value) && value.length === 0);

function packTime(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : value;
}

/** The tree answer in the compact shape. */
export function packTree(tree: TaskTreeNode): CompactTree {
  const { children, ...top } = tree;
  const nodes: Record<string, unknown>[] = [];
  const number = new Map<string, number>([[tree.id, 0]]);
  // Numbers first (a dependency may point to a node later in the order), then the nodes.
  const order: { node: TaskTreeNode; parent: number }[] = [];
  const stack: { node: TaskTreeNode; parent: number }[] = children
    .map((node) => ({ node, parent: 0 }))
    .reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    order.push(item);
    number.set(item.node.id, order.length);
    for (let i = item.node.children.length - 1; i >= 0; i--) {
      stack.push({ node: item.node.children[i]!, parent: order.length });
    }
  }
  for (const { node, parent } of order) {
    const out: Record<string, unknown> = { id: node.id, p: parent };
    let extra: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(node)) {
      if (DERIVED.has(key) || value === undefined) continue;
      if (!(key in COMPACT_KEYS)) {
        extra ??= {};
        extra[key] = value;
        continue;
      }
      const field = key as PackedField;
      if (field in DEFAULTS && isEmptyDefault(value, DEFAULTS[field])) continue;
      const short = COMPACT_KEYS[field];
      if (TIMES.has(field)) out[short] = packTime(value);
      else if (field === "depends_on") out[short] = (value as string[]).map((id) => number.get(id) ?? id);
      else if (field === "estimate_hours" && value !== null) {
        const e = value as { low: number; likely: number; high: number };
        out[short] = [e.low, e.likely, e.high];
      } else if (field === "is_atomic" || field === "needs_attention") out[short] = value ? 1 : 0;
      else out[short] = value;
    }
    // An estimate the range does not carry (a likely value apart from it) travels as it is.
    if (
      node.estimated_hours !== undefined &&
      node.estimated_hours !== (node.estimate_hours?.likely ?? undefined)
    ) {
      extra ??= {};
      extra.estimated_hours = node.estimated_hours;
    }
    if (extra) out["+"] = extra;
    nodes.push(out);
  }
  return { format: COMPACT_TREE_FORMAT, top, nodes };
}

const LONG = Object.fromEntries(Object.entries(COMPACT_KEYS).map(([long, short]) => [short, long])) as Record<
  string,
  PackedField
>;

/** Exactly the tree answer that `packTree` was given. */
export function expandTree(compact: CompactTree): TaskTreeNode {
  const top = { ...(compact.top as Omit<TaskTreeNode, "children">), children: [] } as TaskTreeNode;
  const all: TaskTreeNode[] = [top];
  const rootId = top.root_task_id ?? top.id;
  const ids = [top.id, ...compact.nodes.map((n) => n.id as string)];
  for (const packed of compact.nodes) {
    const parent = all[packed.p as number]!;
    const node: Record<string, unknown> = {
      id: packed.id,
      task_id: packed.id,
      parent_id: parent.id,
      root_task_id: rootId,
    };
    // In the order the tree answer has them (services/tasks/read.ts, leanNode).
    for (const field of [
      "description",
      "status",
      "depth",
      "position",
      "complexity_score",
      "story_points",
      "implementation_details",
      "is_atomic",
      "created_at",
      "depends_on",
      "acceptance_criteria",
      "requirement_ids",
      "needs_attention",
      "attention_reason",
      "locked",
      "rollup",
    ] as const) {
      if (field === "depth") node.depth = parent.depth + 1;
      else node[field] = field in DEFAULTS ? DEFAULTS[field] : undefined;
    }
    node.children = [];
    for (const [short, value] of Object.entries(packed)) {
      const field = LONG[short];
      if (!field) continue;
      if (TIMES.has(field)) node[field] = typeof value === "number" ? new Date(value).toISOString() : value;
      else if (field === "depends_on") {
        node[field] = (value as (number | string)[]).map((d) => (typeof d === "number" ? ids[d] : d));
      } else if (field === "estimate_hours" && Array.isArray(value)) {
        const [low, likely, high] = value as number[];
        node.estimated_hours = likely;
        node.estimate_hours = { low, likely, high };
      } else if (field === "is_atomic" || field === "needs_attention") node[field] = value === 1;
      else node[field] = value;
    }
    // Lists are fresh for every node (the defaults are shared constants).
    for (const field of ["depends_on", "acceptance_criteria", "requirement_ids", "locked"] as const) {
      if (node[field] === DEFAULTS[field]) node[field] = [];
    }
    if (packed["+"]) Object.assign(node, packed["+"]);
    all.push(node as TaskTreeNode);
    parent.children.push(node as TaskTreeNode);
  }
  // Counts of what each parent holds, children before parents (the tree answer gives them to parents).
  for (let i = all.length - 1; i >= 1; i--) {
    const node = all[i]!;
    if (node.children.length === 0) continue;
    let total = 0;
    for (const c of node.children) total += 1 + (c.total_subtasks ?? 0);
    node.children_count = node.children.length;
    node.total_subtasks = total;
  }
  return top;
}
