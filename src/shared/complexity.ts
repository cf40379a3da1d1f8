export type ComplexityBand = "high" | "medium" | "low";

/** A complexity score's band: 8 or more high, 5 to 7 medium, below 5 (or no score) low. */
export function complexityBand(score: number | null): ComplexityBand {
  if (score !== null && score >= 8) return "high";
  if (score !== null && score >= 5) return "medium";
  return "low";
}
