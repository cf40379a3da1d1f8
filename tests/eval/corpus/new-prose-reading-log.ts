import type { EvalCase } from "../case";

export const newProseReadingLog: EvalCase = {
  id: "new-prose-reading-log",
  kind: "forum post by a parent volunteer (education web app)",
  work_kind: "product",
  description: `Reading log app for my daughter's class (parent volunteer project)

Every Friday my daughter's 3rd grade class hands in a paper reading log, and every Friday half of them are lost in backpacks. Her teacher, Ms. Alvarez, asked if any parent could help, and I volunteered before I'd really thought about it.

Kids log the book and how many minutes they read each day. Finding the book should be as easy as scanning the barcode on the back (ISBN lookup), because typing titles is hard when you're eight. A parent confirms each entry from their phone. The teacher gets a class overview showing who hasn't logged anything this week, and she wants to export the month to a spreadsheet for the school office. The kids voted for reading streaks and badges, and who am I to say no.

Kids won't have e-mail addresses, so they'd sign in with a class code and a picture password. Is that even okay under COPPA, or do I need the school's lawyer for that? Still figuring that part out.`,
  requirements: [
    { id: "R1", text: "Kids log the book and the minutes they read each day", match: ["minutes"] },
    { id: "R2", text: "Find the book by scanning its barcode (ISBN lookup)", match: ["ISBN"] },
    { id: "R3", text: "A parent confirms each entry from their phone", match: ["parent", "confirm"] },
    {
      id: "R4",
      text: "A class overview for the teacher of who hasn't logged this week",
      match: ["class overview"],
    },
    { id: "R5", text: "Export the month to a spreadsheet", match: ["export"] },
    { id: "R6", text: "Reading streaks", match: ["streak"] },
    { id: "R7", text: "Badges", match: ["badge"] },
    { id: "R8", text: "Kids sign in with a class code and a picture password", match: ["picture password"] },
  ],
  technologies: [],
  non_goals: [],
  not_work: [
    { text: "papers lost in backpacks", match: ["backpack"] },
    { text: "the teacher asked and I volunteered", match: ["Alvarez"] },
    { text: "who am I to say no", match: ["who am I"] },
    { text: "the question about the school's lawyer", match: ["lawyer"] },
    { text: "Still figuring that part out.", match: ["figuring"] },
  ],
  separate: [
    ["R6", "R7"],
    ["R4", "R5"],
  ],
  independent: [
    ["R2", "R3"],
    ["R4", "R8"],
  ],
  inspired_by:
    "https://ralph-specs.vercel.app/prd/UZweIBxp7NSrHaqrmPKte ('Reading Log for Schools' idea: streaks, badges, a parent view) and the 'Family Reading Tracker' idea on buildfromstories.dev (minutes read, ISBN lookup)",
};
