import type { EvalCase } from "../case";

export const tsDateLibrary: EvalCase = {
  id: "ts-date-library",
  kind: "library (TypeScript)",
  description: `I'm writing a small TypeScript date library, zero dependencies, tree-shakeable, ESM and CJS builds. Functions: parse ISO 8601 strings, format with tokens like YYYY-MM-DD, add/subtract durations, difference between dates, and time zone conversion using the Intl API (no bundled tz database). Immutable API. Must have 100% test coverage and docs generated from TSDoc. Publish to npm.`,
  requirements: [
    { id: "R1", text: "Parse ISO 8601 strings", match: ["parse", "ISO"] },
    { id: "R2", text: "Format with tokens like YYYY-MM-DD", match: ["format"] },
    { id: "R3", text: "Add and subtract durations", match: ["duration"] },
    { id: "R4", text: "Difference between dates", match: ["difference"] },
    { id: "R5", text: "Time zone conversion with the Intl API", match: ["time zone"] },
    { id: "R6", text: "ESM and CJS builds", match: ["ESM", "CJS"] },
    { id: "R7", text: "Tree-shakeable", match: ["tree shak"] },
    { id: "R8", text: "100% test coverage", match: ["coverage"] },
    { id: "R9", text: "Docs generated from TSDoc", match: ["TSDoc"] },
    { id: "R10", text: "Published to npm", match: ["npm"] },
    { id: "R11", text: "An immutable API", match: ["immutab"] },
  ],
  technologies: ["typescript", "npm"],
  non_goals: [{ text: "a bundled tz database", match: ["bundl", "tz"] }],
};
