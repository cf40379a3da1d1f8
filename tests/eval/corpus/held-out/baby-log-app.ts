import type { EvalCase } from "../../case";

export const hoBabyLogApp: EvalCase = {
  id: "ho-baby-log-app",
  kind: "one-liner with a comma list (mobile app)",
  work_kind: "product",
  description:
    "Expo app for logging our newborn's day: one-tap buttons for feeds (breast left/right with a timer, or a bottle in ml), sleep start/stop and wet/dirty diapers, a today timeline, weekly charts, real-time sync between my partner's phone and mine (pair them with a family code), and a dark screen for the 3am feeds.",
  requirements: [
    { id: "R1", text: "Breast feeds, left/right, with a timer", match: ["breast"] },
    { id: "R2", text: "Bottle feeds in ml", match: ["bottle"] },
    { id: "R3", text: "Sleep start/stop", match: ["sleep"] },
    { id: "R4", text: "Wet/dirty diapers", match: ["diaper"] },
    { id: "R5", text: "A today timeline", match: ["timeline"] },
    { id: "R6", text: "Weekly charts", match: ["chart"] },
    { id: "R7", text: "Real-time sync between the two parents' phones", match: ["sync"] },
    { id: "R8", text: "Phones paired with a family code", match: ["family code"] },
    { id: "R9", text: "A dark screen for night feeds", match: ["dark"] },
  ],
  technologies: ["expo"],
  non_goals: [],
  separate: [
    ["R1", "R3", "R4"],
    ["R5", "R6"],
  ],
  independent: [
    ["R3", "R4"],
    ["R6", "R9"],
  ],
  inspired_by:
    "https://github.com/mikebarkmin/baby-tracker and https://github.com/gavalierm/babycare (READMEs of baby feed/sleep/diaper trackers)",
};
