import type { EvalCase } from "../case";

export const moreForumCommunityGarden: EvalCase = {
  id: "more-forum-community-garden",
  kind: "forum post by a volunteer coordinator (community web app)",
  work_kind: "product",
  description: `Anyone built a plot waitlist + watering rota thing for a community garden?

I'm the (unpaid, obviously) plot coordinator at a 60-plot community garden. Our waitlist is a spreadsheet with 140 names on it, and I'd bet half of them have moved away. Every February I email all plot holders to ask if they're keeping their plot, and chasing the answers takes me most of March.

So here's what I'm after. People can join the waitlist online and see their position on it. When a plot frees up, it's offered to the next person, who has 48 hours to accept before it moves on to the one after. Renewal happens every February with a one-click "keep my plot" link, and plot fees get paid online instead of cash in an envelope. For the shared beds we need a watering rota where members pick their days and can swap days with each other. The shed padlock code should only be shown to whoever is on the rota that day (we change it monthly since the bolt cutters incident, long story).

A seed swap board would be lovely too, but that's for later.

Our website is just a static page, and I know a bit of Python. Would you build this as a small web app, or is there something off the shelf I'm missing?`,
  requirements: [
    { id: "R1", text: "People join the waitlist online", match: ["waitlist", "join"] },
    { id: "R2", text: "Applicants see their position on the waitlist", match: ["position"] },
    {
      id: "R3",
      text: "A freed plot is offered to the next person, with 48 hours to accept before it moves on",
      match: ["offer"],
    },
    {
      id: "R4",
      text: "Renewal every February with a one-click keep-my-plot link",
      match: ["renewal"],
    },
    { id: "R5", text: "Plot fees paid online", match: ["fee"] },
    { id: "R6", text: "A watering rota where members pick their days", match: ["watering rota"] },
    { id: "R7", text: "Members can swap rota days with each other", match: ["swap", "day"] },
    {
      id: "R8",
      text: "The shed padlock code is shown only to whoever is on the rota that day",
      match: ["padlock"],
    },
  ],
  technologies: ["python"],
  non_goals: [{ text: "a seed swap board", match: ["seed swap"] }],
  not_work: [
    { text: "the title's question", match: ["anyone built"] },
    { text: "the spreadsheet of today", match: ["140 names"] },
    { text: "chasing answers through March", match: ["March"] },
    { text: "the bolt cutters aside", match: ["bolt cutter"] },
    { text: "the static website", match: ["static page"] },
    { text: "the closing question", match: ["off the shelf"] },
  ],
  separate: [["R1", "R3", "R4", "R5", "R6"]],
  independent: [
    ["R5", "R8"],
    ["R2", "R6"],
  ],
  inspired_by:
    "https://greenbeltgardenclub.com/accepting-plots-and-wait-list-procedures/ (plot offered from the waiting list, 48 hours to accept), https://www.mortbaycommunitygarden.com.au/daily-garden-care/ (watering roster, padlock combination for the sheds) and the allotments4all.co.uk thread 'Allotment Waiting lists' (yearly re-registration)",
};
