/**
 * Refused at the edge with a 422, before any route or procedure reads the input (app.ts for /api and
 * /mcp, trpc/init.ts for procedures):
 * - PostgreSQL `text` cannot hold U+0000: a NUL byte that reaches a query fails it with a server error.
 * - JSON nested deeper than anything the app takes: the NUL check walks it, and that walk has to stop.
 */
export const NUL_MESSAGE = "Text must not contain NUL characters (\\u0000).";

/** Levels of nested objects and arrays; no input of the app's comes near it. */
export const JSON_DEPTH_MAX = 64;

export const TOO_DEEP_MESSAGE = `The JSON is nested too deeply (more than ${JSON_DEPTH_MAX} levels).`;

/**
 * Why `value` (parsed JSON, or a query) is refused, or null: a NUL character in a string or an object
 * key, or nesting past JSON_DEPTH_MAX (the top-level object or array is level 1). Nesting is found before
 * a NUL deeper down, which could not be looked for.
 */
export function forbiddenInput(value: unknown, level = 1): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? NUL_MESSAGE : null;
  if (value === null || typeof value !== "object") return null;
  if (level > JSON_DEPTH_MAX) return TOO_DEEP_MESSAGE;
  if (Array.isArray(value)) {
    for (const v of value) {
      const problem = forbiddenInput(v, level + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("\u0000")) return NUL_MESSAGE;
    const problem = forbiddenInput(v, level + 1);
    if (problem) return problem;
  }
  return null;
}
