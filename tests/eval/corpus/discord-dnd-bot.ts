import type { EvalCase } from "../case";

export const discordDndBot: EvalCase = {
  id: "discord-dnd-bot",
  kind: "chat bot (discord.js)",
  description: `discord.js bot for our D&D server. Slash commands: /roll with dice notation (2d6+3), /initiative to track turn order in a combat, and /remind to schedule session reminders. Keep campaign notes per channel that players can add to and search. Store data in SQLite.

Out of scope: voice/music features and a web dashboard.`,
  requirements: [
    { id: "R1", text: "Slash commands", match: ["slash command"] },
    { id: "R2", text: "/roll with dice notation", match: ["dice"] },
    { id: "R3", text: "/initiative tracks turn order in a combat", match: ["initiative"] },
    { id: "R4", text: "/remind schedules session reminders", match: ["remind"] },
    { id: "R5", text: "Campaign notes per channel", match: ["campaign note"] },
    { id: "R6", text: "Players search the notes", match: ["search"] },
    { id: "R7", text: "Data stored in SQLite", match: ["SQLite"] },
  ],
  technologies: ["discordjs", "sqlite"],
  non_goals: [
    { text: "voice features", match: ["voice"] },
    { text: "music features", match: ["music"] },
    { text: "a web dashboard", match: ["web dashboard"] },
  ],
};
