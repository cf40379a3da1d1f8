import type { EvalCase } from "../case";

/** Trap: "calendar heatmap" is a chart, not a calendar integration (which is a non-goal). */
export const habitTracker: EvalCase = {
  id: "habit-tracker",
  kind: "trap: calendar heatmap",
  description: `Habit tracker web app. You define habits (daily or X times per week), check them off each day, and see your streaks. The main view is a GitHub-style calendar heatmap per habit showing the last 12 months. Reminders via browser push notifications at a time you pick. Works offline (PWA) and syncs when back online.

Not in v1: social features / sharing with friends, Google Calendar sync, Apple Health integration.`,
  requirements: [
    { id: "R1", text: "Habits are daily or X times per week", match: ["per week"] },
    { id: "R2", text: "Check habits off each day", match: ["check"] },
    { id: "R3", text: "See your streaks", match: ["streak"] },
    { id: "R4", text: "A calendar heatmap per habit", match: ["heatmap"] },
    { id: "R5", text: "The heatmap shows the last 12 months", match: ["12 months"] },
    { id: "R6", text: "Reminders at a time you pick", match: ["reminder"] },
    { id: "R7", text: "Browser push notifications", match: ["push notification"] },
    { id: "R8", text: "Works offline (PWA)", match: ["offline"] },
    { id: "R9", text: "Syncs when back online", match: ["sync"] },
  ],
  technologies: [],
  non_goals: [
    { text: "social features", match: ["social"] },
    { text: "sharing with friends", match: ["friend"] },
    { text: "Google Calendar sync", match: ["Google Calendar"] },
    { text: "Apple Health integration", match: ["Apple Health"] },
  ],
};
