/**
 * PostgreSQL `text` cannot hold U+0000: a NUL byte that reaches a query fails it with a server error.
 * Inputs are refused with a 422 at the edge instead (app.ts for /api, trpc/init.ts for procedures).
 */
export const NUL_MESSAGE = "Text must not contain NUL characters (\\u0000).";

const MAX_DEPTH = 64;

/** Whether any string (or object key) inside `value` contains a NUL character. Too deep counts as yes. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (value === null || typeof value !== "object") return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("\u0000") || containsNul(v, depth + 1)) return true;
  }
  return false;
}
