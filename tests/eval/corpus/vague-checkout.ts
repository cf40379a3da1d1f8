import type { EvalCase } from "../case";

export const vagueCheckout: EvalCase = {
  id: "vague-checkout",
  kind: "vague one-liner",
  description: "make our checkout faster",
  requirements: [{ id: "R1", text: "The checkout is faster", match: ["checkout"] }],
  technologies: [],
  non_goals: [],
};
