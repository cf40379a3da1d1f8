import type { EvalCase } from "../case";

export const newTriviaPartyGame: EvalCase = {
  id: "new-trivia-party-game",
  kind: "one-liner with a comma list (browser game)",
  work_kind: "product",
  description:
    "Browser trivia party game — players join a room with a 4-letter code, 15-second timed questions, faster answers score more, a live leaderboard between questions, custom question packs, and a big-screen mode for the TV.",
  requirements: [
    { id: "R1", text: "Players join a room with a 4-letter code", match: ["room"] },
    { id: "R2", text: "15-second timed questions", match: ["timed"] },
    { id: "R3", text: "Faster answers score more", match: ["faster"] },
    { id: "R4", text: "A live leaderboard between questions", match: ["leaderboard"] },
    { id: "R5", text: "Custom question packs", match: ["question pack"] },
    { id: "R6", text: "A big-screen mode for the TV", match: ["TV"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R1", "R2", "R4", "R5", "R6"]],
  independent: [
    ["R2", "R5"],
    ["R1", "R5"],
  ],
  inspired_by:
    "READMEs of ericphamEP/MultiplayerTriviaGame and cady-kocanda/triviagame on GitHub (room codes, timed questions, speed-based scoring, live scoreboard)",
};
