import type { EvalCase } from "../case";

export const browserExtensionHighlights: EvalCase = {
  id: "browser-extension-highlights",
  kind: "browser extension",
  description: `Chrome + Firefox extension (Manifest V3) that lets you highlight text on any page and save it with a note. Highlights are restored when you revisit the page. A popup lists your highlights per site and lets you export them as Markdown. Sync between your devices via the browser's storage sync, no server. Keyboard shortcut to highlight the current selection.`,
  requirements: [
    { id: "R1", text: "Highlight text on any page", match: ["highlight"] },
    { id: "R2", text: "Save a highlight with a note", match: ["note"] },
    { id: "R3", text: "Highlights are restored when you revisit the page", match: ["restor"] },
    { id: "R4", text: "A popup lists highlights per site", match: ["popup"] },
    { id: "R5", text: "Export highlights as Markdown", match: ["Markdown"] },
    { id: "R6", text: "Sync between devices via the browser's storage sync", match: ["sync"] },
    { id: "R7", text: "Keyboard shortcut to highlight the selection", match: ["shortcut"] },
    { id: "R8", text: "Works in Firefox as well as Chrome", match: ["Firefox"] },
    { id: "R9", text: "Manifest V3", match: ["Manifest V3"] },
  ],
  technologies: [],
  non_goals: [{ text: "a server", match: ["server"] }],
};
