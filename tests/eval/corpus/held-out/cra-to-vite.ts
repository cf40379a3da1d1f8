import type { EvalCase } from "../../case";

export const hoCraToVite: EvalCase = {
  id: "ho-cra-to-vite",
  kind: "migration task with a scope list (frontend build tool)",
  work_kind: "migration",
  description: `[chore] Move the web client off Create React App to Vite

CRA is unmaintained, \`npm start\` takes about 90 seconds on a cold cache, and the last two react-scripts bumps broke the build anyway.

Scope
- A Vite config with the React plugin; the dev server stays on port 3000 because the API's CORS allow-list has it.
- index.html moves to the project root and loads /src/main.tsx.
- Env vars: rename REACT_APP_* to VITE_* and switch process.env to import.meta.env (12 call sites), in the GitHub Actions workflow and the Netlify settings as well.
- Keep the @/ import alias.
- Tests: Jest to Vitest, keeping the Testing Library setup; the snapshot files will need regenerating.
- About 40 SVGs are imported as React components and need a plugin for that.
- The production build must still be served under /app/ (base path).

Out of scope: upgrading React 17 to 18, the theme, any component changes.

Acceptance: npm run dev, npm run build and npm test all pass in CI, and the PR has a bundle-size comparison before and after.`,
  requirements: [
    { id: "R1", text: "A Vite config with the React plugin", match: ["Vite config"] },
    { id: "R2", text: "The dev server stays on port 3000", match: ["3000"] },
    { id: "R3", text: "index.html moves to the project root", match: ["index.html"] },
    { id: "R4", text: "Rename REACT_APP_* env vars to VITE_*", match: ["REACT_APP"] },
    { id: "R5", text: "Switch process.env to import.meta.env", match: ["import.meta"] },
    { id: "R6", text: "Update the GitHub Actions workflow", match: ["GitHub Actions"] },
    { id: "R7", text: "Update the Netlify settings", match: ["Netlify"] },
    { id: "R8", text: "Keep the @/ import alias", match: ["alias"] },
    { id: "R9", text: "Move the tests from Jest to Vitest", match: ["Vitest"] },
    { id: "R10", text: "Regenerate the snapshot files", match: ["snapshot"] },
    { id: "R11", text: "SVGs imported as React components", match: ["SVG"] },
    { id: "R12", text: "The production build served under /app/", match: ["base path"] },
    { id: "R13", text: "A bundle-size comparison before and after", match: ["bundle size"] },
  ],
  technologies: ["create-react-app", "vite", "react", "npm", "github-actions", "netlify", "jest", "vitest"],
  non_goals: [
    { text: "upgrading React 17 to 18", match: ["React", "18"] },
    { text: "the theme", match: ["theme"] },
    { text: "component changes", match: ["component change"] },
  ],
  not_work: [{ text: "the cold-cache start time", match: ["cold cache"] }],
  independent: [
    ["R8", "R11"],
    ["R2", "R12"],
  ],
  inspired_by:
    "https://github.com/SimpleAccounts/SimpleAccounts-UAE/issues/157 and https://github.com/astarte-platform/astarte-dashboard/pull/405 (Create React App to Vite migrations)",
};
