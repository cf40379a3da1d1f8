export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/**
 * Servers measured as they run in use: the test servers' check of every answer against its output schema
 * (operations/invoke.ts) is off, as it is in production.
 */
export const AS_IN_USE = { CHECK_OPERATION_OUTPUTS: "false" } as const;
