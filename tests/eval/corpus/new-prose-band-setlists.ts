import type { EvalCase } from "../case";

export const newProseBandSetlists: EvalCase = {
  id: "new-prose-band-setlists",
  kind: "forum post (music web app)",
  work_kind: "product",
  description: `Setlist app for my cover band — does this exist already?

I play bass in a six-piece wedding band and every gig starts with someone asking which key we're doing "September" in. We've tried shared Google Docs, printed binders and a WhatsApp group, and all three fall apart the moment the singer changes the order on the day.

What I want: a song library where each song has its key, tempo and a chord chart; a setlist builder where you drag songs into order and it adds up the total set length; transposing a chart with one tap for the horn players; and sharing a setlist with the band so everyone's phone updates when it changes. A gig calendar with venue, load-in time and the setlist for that night would be the cherry on top. Dark mode is a must, stages are dark!

I'm a backend dev by day so I'll probably do it in Django with a React front end. Our keys player says she'll wait with her review until she's used it at an actual gig, fair enough. Does something like this already exist, or am I about to reinvent the wheel?`,
  requirements: [
    { id: "R1", text: "A song library", match: ["song library"] },
    { id: "R2", text: "Each song has its key, tempo and a chord chart", match: ["tempo"] },
    { id: "R3", text: "A setlist builder where songs are dragged into order", match: ["drag"] },
    { id: "R4", text: "The builder adds up the total set length", match: ["set length"] },
    { id: "R5", text: "Transpose a chart with one tap", match: ["transpos"] },
    {
      id: "R6",
      text: "Share a setlist with the band; phones update when it changes",
      match: ["shar", "setlist"],
    },
    {
      id: "R7",
      text: "A gig calendar with venue, load-in time and the night's setlist",
      match: ["calendar"],
    },
    { id: "R8", text: "Dark mode", match: ["dark mode"] },
  ],
  technologies: ["django", "react"],
  non_goals: [],
  not_work: [
    { text: "the title's question", match: ["exist already"] },
    { text: "the closing question", match: ["reinvent"] },
    { text: "the wedding band story", match: ["wedding"] },
    { text: "the tools tried before", match: ["binder"] },
    { text: "I'm a backend dev by day", match: ["dev by day"] },
    { text: "the keys player will wait with her review", match: ["actual gig"] },
    { text: "the aside about dark stages", match: ["stages are dark"] },
  ],
  separate: [["R1", "R3", "R5", "R6"]],
  independent: [
    ["R5", "R6"],
    ["R7", "R8"],
  ],
  inspired_by:
    "https://markberkley.com/allset (the 'All Set' setlist app case study: song keys, tempo, transposing, setlists) and the ROADMAP.md of khink/band-it (shared chord sheets and setlists)",
};
