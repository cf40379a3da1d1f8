import type { EvalCase } from "../case";

export const moreForumChessClubPairings: EvalCase = {
  id: "more-forum-chess-club-pairings",
  kind: "forum post by a club organiser (tournament web app)",
  work_kind: "product",
  description: `Pairing app for our chess club: worth building, or should I just learn Swiss Manager?

I run the Tuesday night club at our community centre, about 40 members from 9 to 80 years old. Every event I do the pairings by hand with index cards, results go on a paper wall chart, and the standings are whatever I can work out in my head at 11 pm. Last month I paired two kids who had already played each other and the dad let me know about it.

What I'd like: register players for an event (including walk-ins on the night), Swiss pairings that avoid rematches and balance colours, several arbiters entering results from their phones at the same time, standings with Buchholz tie-breaks, and a club rating (plain Elo) that updates after each event. Also a projector view with board numbers and White always on the left (half our juniors sit on the wrong side otherwise). It has to work offline on the club laptop, the basement has no signal.

I'm thinking SvelteKit with SQLite so it's one folder on that laptop. Exporting results in the format the national federation wants for rating submission would be great, but that's for later, first I want to get through the winter cup with it.

Has anyone here implemented the FIDE Dutch pairing rules themselves? Is it a rabbit hole?`,
  requirements: [
    { id: "R1", text: "Register players for an event, including walk-ins", match: ["regist"] },
    { id: "R2", text: "Swiss pairings", match: ["pairing"] },
    { id: "R3", text: "Pairings avoid rematches", match: ["rematch"] },
    { id: "R4", text: "Pairings balance colours", match: ["colour"] },
    {
      id: "R5",
      text: "Several arbiters enter results from their phones at the same time",
      match: ["result"],
    },
    { id: "R6", text: "Standings with Buchholz tie-breaks", match: ["standing"] },
    { id: "R7", text: "A club rating (plain Elo) that updates after each event", match: ["Elo"] },
    { id: "R8", text: "A projector view with board numbers and White on the left", match: ["projector"] },
    { id: "R9", text: "Works offline on the club laptop", match: ["offline"] },
  ],
  technologies: ["sveltekit", "sqlite"],
  non_goals: [
    {
      text: "exporting results in the national federation's format for rating submission",
      match: ["federation"],
    },
  ],
  not_work: [
    { text: "the title's question", match: ["Swiss Manager"] },
    { text: "the index cards and paper wall chart of today", match: ["index card"] },
    { text: "the story of the angry dad", match: ["dad"] },
    { text: "the aside about juniors on the wrong side", match: ["wrong side"] },
    { text: "the winter cup", match: ["winter cup"] },
    { text: "the closing question", match: ["rabbit hole"] },
  ],
  separate: [["R1", "R2", "R5", "R6", "R7", "R8"]],
  independent: [
    ["R7", "R8"],
    ["R4", "R9"],
  ],
  inspired_by:
    "https://sbezo.github.io/projects/chess-pairing (a club member builds a pairing page for the club's tournament) and https://elias-teubner.dev/blog/chess-tourney-creator/ (replacing Swiss Manager; projected pairings where players sit on the wrong colour)",
};
