import type { EvalCase } from "../../case";

export const hoWeddingRsvpSite: EvalCase = {
  id: "ho-wedding-rsvp-site",
  kind: "two-liner with a comma list (event website)",
  work_kind: "product",
  description:
    "Wedding website for our September wedding. Guests RSVP with the invite code printed on their card, pick a meal (beef / fish / veggie) and tell us about allergies, add a plus-one only if their invite allows it, we get an email every time someone responds, an add-to-calendar button, and an export of the guest list with meal counts to a spreadsheet for the caterer.",
  requirements: [
    { id: "R1", text: "Guests RSVP with the invite code on their card", match: ["invite code"] },
    { id: "R2", text: "Guests pick a meal", match: ["meal"] },
    { id: "R3", text: "Guests tell us about allergies", match: ["allerg"] },
    { id: "R4", text: "A plus-one only if the invite allows it", match: ["plus one"] },
    { id: "R5", text: "An email to the couple for every response", match: ["email"] },
    { id: "R6", text: "An add-to-calendar button", match: ["calendar"] },
    { id: "R7", text: "Export the guest list with meal counts to a spreadsheet", match: ["export"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R1", "R4", "R5", "R6", "R7"]],
  independent: [
    ["R5", "R6"],
    ["R6", "R7"],
  ],
  inspired_by:
    "https://github.com/jorgef21/jorgef21.github.io and https://github.com/aaronlauterer/rsvp-frontend (wedding RSVP site READMEs)",
};
