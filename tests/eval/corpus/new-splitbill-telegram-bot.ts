import type { EvalCase } from "../case";

export const newSplitbillTelegramBot: EvalCase = {
  id: "new-splitbill-telegram-bot",
  kind: "one-liner with a comma list (chat bot)",
  work_kind: "product",
  description:
    "A Telegram bot for splitting shared house expenses: log an expense with /pay, split it evenly or by custom shares, multiple currencies, a monthly summary with the fewest transfers needed to settle up, and a CSV export for the house spreadsheet.",
  requirements: [
    { id: "R1", text: "Log an expense with /pay", match: ["log", "expense"] },
    { id: "R2", text: "Split an expense evenly", match: ["evenly"] },
    { id: "R3", text: "Split an expense by custom shares", match: ["custom share"] },
    { id: "R4", text: "Multiple currencies", match: ["currenc"] },
    { id: "R5", text: "A monthly summary", match: ["monthly summary"] },
    { id: "R6", text: "The fewest transfers needed to settle up", match: ["settle"] },
    { id: "R7", text: "A CSV export", match: ["CSV"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R1", "R4", "R5", "R7"]],
  independent: [
    ["R2", "R3"],
    ["R4", "R7"],
  ],
  inspired_by:
    "https://mlago.dev/blog/index.php/2021/12/05/how-a-telegram-bot-did-accounting-at-my-house/ and the devpost page of OpenSplit (devpost.com/software/opensplitbot), a Telegram bot for group expenses",
};
