/**
 * What one batch of calls may cost (issue 39): counting calls alone let one tRPC batch of 20 reads of a
 * 10,000-node plan take 25 s and 105 MB while others waited. A call that reads or computes over a whole
 * plan weighs HEAVY_CALL_COST ordinary calls, and a batch (tRPC over HTTP, MCP JSON-RPC) may weigh at most
 * BATCH_COST_MAX: two whole-plan reads, or twenty ordinary calls.
 */
export const HEAVY_CALL_COST = 10;
export const BATCH_COST_MAX = 20;

/** tRPC procedures that read or compute over a whole plan. */
export const HEAVY_PROCEDURES = new Set(["tasks.tree", "tasks.treeCompact", "tasks.schedule"]);

/** MCP requests that do: a plan read as a resource, and the tools that outline or schedule a plan. */
export function heavyMcpMessage(message: unknown): boolean {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (!m || typeof m !== "object") return false;
  if (m.method === "resources/read") return true;
  return m.method === "tools/call" && (m.params?.name === "get_plan" || m.params?.name === "plan");
}

/** The cost of a batch whose calls are heavy or not. */
export const batchCost = (heavy: readonly boolean[]) =>
  heavy.reduce((sum, h) => sum + (h ? HEAVY_CALL_COST : 1), 0);

export const batchTooCostly = (cost: number) =>
  `This batch asks for too much at once: a call that reads a whole plan counts as ${HEAVY_CALL_COST}, and a batch may count at most ${BATCH_COST_MAX} (it counts ${cost}). Send the reads one by one.`;
