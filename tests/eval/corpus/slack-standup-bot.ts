import type { EvalCase } from "../case";

export const slackStandupBot: EvalCase = {
  id: "slack-standup-bot",
  kind: "terse",
  description: "need a slack bot that posts standup reminders, python, deploy on fly.io. no db needed",
  requirements: [
    { id: "R1", text: "A Slack bot", match: ["Slack"] },
    { id: "R2", text: "Posts standup reminders", match: ["standup"] },
    { id: "R3", text: "Deployed on fly.io", match: ["fly.io"] },
  ],
  technologies: ["python", "fly"],
  non_goals: [
    { text: "a database (no db needed)", match: ["database"] },
    { text: "a database (no db needed)", match: ["db"] },
  ],
};
