import type { EvalCase } from "../case";

export const angularjsToReact: EvalCase = {
  id: "angularjs-to-react",
  kind: "migration",
  description: `We're moving our AngularJS 1.6 admin frontend (about 60 screens) to React incrementally — both have to run side by side during the migration. Routing stays in AngularJS until the last screen moves. Shared auth session, shared design system components, and the REST API stays untouched. Start with the reports section because it changes most often. We need a way to track which screens are migrated.`,
  requirements: [
    { id: "R1", text: "Migrate incrementally", match: ["incremental"] },
    { id: "R2", text: "AngularJS and React run side by side", match: ["side by side"] },
    { id: "R3", text: "Routing stays in AngularJS until the last screen moves", match: ["rout"] },
    { id: "R4", text: "A shared auth session", match: ["session"] },
    { id: "R5", text: "Shared design system components", match: ["design system"] },
    { id: "R6", text: "Start with the reports section", match: ["report"] },
    { id: "R7", text: "Track which screens are migrated", match: ["track"] },
  ],
  technologies: ["angularjs", "react"],
  non_goals: [],
};
