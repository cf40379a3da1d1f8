import type { EvalCase } from "../../case";

export const hoPrdKitchenBooking: EvalCase = {
  id: "ho-prd-kitchen-booking",
  kind: "PRD with an ASCII wireframe and acceptance criteria (booking web app)",
  work_kind: "product",
  description: `# Bench booking for the Eastside Kitchen Co-op (PRD v0.3)

## Why
Fourteen member businesses share one commercial kitchen. Bookings live on a paper sheet taped to the walk-in door: two people regularly turn up for the same oven, and last month someone used the blast chiller without the food-safety sign-off.

## Workstations
Oven A, Oven B, proofing cabinet, blast chiller, deep fryer, packaging bench.

## Requirements
1) A week view of every workstation showing free and taken slots and who booked them.
2) Members book in 30-minute slots, up to 4 hours in one booking.
   (a) No double bookings, ever.
   (b) A weekly cap of 12 hours per member across all stations.
3) The blast chiller and the deep fryer need a certification. Members without it can't book them; admins record who holds which certification and when it expires.
4) Members can cancel up to 24 hours before. Later cancellations count as a no-show, and three no-shows in a month are shown to the admins.
5) Email confirmation on booking, and a reminder the evening before.
6) Monthly usage report per member (hours per station), downloadable as CSV, so the treasurer can invoice.

## Wireframe: week view
\`\`\`
+---------------------------------------------------------------+
|  Week of 3 March   [<] [>]                   [ Book a slot ]  |
+----------------+---------+---------+---------+---------+------+
|                |  Mon    |  Tue    |  Wed    |  Thu    |  ... |
| Oven A         | ####### |         | Dana    |         |      |
| Oven B         |         | Raj     | Raj     |         |      |
| Blast chiller* |         |         |         | (cert)  |      |
+----------------+---------+---------+---------+---------+------+
\`\`\`

## Out:
- Taking payments (the treasurer invoices from the CSV)
- A native app
- Ingredient inventory

## Constraints
Must work on phones, since members book from the kitchen floor. SvelteKit and PostgreSQL, hosted on Fly.io like our newsletter signup.

## Acceptance criteria
- Priya books Oven A on Tuesday 06:00-08:00; when Tom opens the week view that slot shows as taken by Priya.
- Tom has no blast chiller certification: the chiller's slots are not bookable for him and he is told why.
- A member with 11.5 hours booked this week cannot add a 1-hour booking.
- Cancelling 23 hours before the slot records a no-show.`,
  requirements: [
    {
      id: "R1",
      text: "A week view of every workstation, free and taken slots and who booked",
      match: ["week view"],
    },
    { id: "R2", text: "Book in 30-minute slots", match: ["30 minute"] },
    { id: "R3", text: "Up to 4 hours in one booking", match: ["4 hours"] },
    { id: "R4", text: "No double bookings", match: ["double booking"] },
    { id: "R5", text: "A weekly cap of 12 hours per member", match: ["weekly cap"] },
    {
      id: "R6",
      text: "Certified equipment cannot be booked without the certification",
      match: ["certification"],
    },
    { id: "R7", text: "Admins record certifications and when they expire", match: ["expir"] },
    { id: "R8", text: "Members cancel up to 24 hours before", match: ["cancel"] },
    { id: "R9", text: "Later cancellations count as a no-show", match: ["no show"] },
    { id: "R10", text: "Three no-shows in a month are shown to the admins", match: ["no show", "admin"] },
    { id: "R11", text: "Email confirmation on booking", match: ["confirmation"] },
    { id: "R12", text: "A reminder the evening before", match: ["reminder"] },
    { id: "R13", text: "Monthly usage report per member, as CSV", match: ["usage"] },
    { id: "R14", text: "Works on phones", match: ["phone"] },
    { id: "R15", text: "Built with SvelteKit", match: ["SvelteKit"] },
    { id: "R16", text: "Data in PostgreSQL", match: ["Postgres"] },
    { id: "R17", text: "Hosted on Fly.io", match: ["Fly.io"] },
  ],
  technologies: ["sveltekit", "postgresql", "fly"],
  non_goals: [
    { text: "taking payments", match: ["payment"] },
    { text: "a native app", match: ["native"] },
    { text: "ingredient inventory", match: ["ingredient"] },
  ],
  not_work: [
    { text: "the document title", match: ["PRD"] },
    { text: "the paper sheet on the door", match: ["taped"] },
    { text: "the wireframe's week label", match: ["3 March"] },
    { text: "a booking in the wireframe", match: ["Dana"] },
    { text: "the acceptance scenario", match: ["Priya"] },
    { text: "the newsletter aside", match: ["newsletter"] },
  ],
  independent: [
    ["R3", "R5"],
    ["R11", "R13"],
  ],
  inspired_by:
    "https://learnbydirectingai.dev/web-dev/p3/materials/templates/prd-template (its example: a kitchen co-op replacing a paper sign-up sheet)",
};
