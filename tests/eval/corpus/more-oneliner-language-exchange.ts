import type { EvalCase } from "../case";

export const moreOnelinerLanguageExchange: EvalCase = {
  id: "more-oneliner-language-exchange",
  kind: "terse lowercase one-liner with a comma list (social mobile app)",
  work_kind: "product",
  description:
    "language exchange app: match people by native and target language, text chat where your partner can tap a message to suggest a correction, voice notes, scheduling calls across time zones, and a weekly streak so people keep showing up",
  requirements: [
    { id: "R1", text: "Match people by native and target language", match: ["match"] },
    { id: "R2", text: "Text chat between partners", match: ["chat"] },
    { id: "R3", text: "Tap a message to suggest a correction", match: ["correction"] },
    { id: "R4", text: "Voice notes", match: ["voice note"] },
    { id: "R5", text: "Scheduling calls across time zones", match: ["schedul"] },
    { id: "R6", text: "A weekly streak", match: ["streak"] },
  ],
  technologies: [],
  non_goals: [],
  not_work: [{ text: "the reason for the streak", match: ["showing up"] }],
  separate: [["R1", "R2", "R4", "R5", "R6"]],
  independent: [
    ["R4", "R6"],
    ["R5", "R6"],
  ],
  inspired_by:
    "https://github.com/langx/docs README (LangX, an open-source language exchange app: match by native and target language, chat) and the langx/website post 'Open Source Alternative to Tandem'",
};
