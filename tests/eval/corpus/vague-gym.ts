import type { EvalCase } from "../case";

export const vagueGym: EvalCase = {
  id: "vague-gym",
  kind: "vague one-liner",
  description: "an app for my gym",
  requirements: [{ id: "R1", text: "An app for the gym", match: ["gym"] }],
  technologies: [],
  non_goals: [],
};
