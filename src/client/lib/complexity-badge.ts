import { type ComplexityBand, complexityBand } from "../../shared/complexity";

const BADGE: Record<ComplexityBand, string> = {
  high: "badge-error",
  medium: "badge-warning",
  low: "badge-success",
};

/** The daisyUI badge colour of a complexity score's band. */
export function complexityBadgeClass(score: number | null): string {
  return BADGE[complexityBand(score)];
}
