import type { EvalCase } from "../case";

export const moreOnelinerTattooCrm: EvalCase = {
  id: "more-oneliner-tattoo-crm",
  kind: "one-liner with a comma list (studio CRM)",
  work_kind: "product",
  description:
    "CRM for my tattoo studio (3 artists): client profiles with signed consent forms and an ID check, booking with a non-refundable deposit through Stripe, a calendar per artist, automatic aftercare texts the day after a session, and a portfolio gallery clients can browse by style",
  requirements: [
    { id: "R1", text: "Client profiles", match: ["client profile"] },
    { id: "R2", text: "Signed consent forms on the client profile", match: ["consent"] },
    { id: "R3", text: "An ID check on the client profile", match: ["ID check"] },
    { id: "R4", text: "Booking with a non-refundable deposit through Stripe", match: ["deposit"] },
    { id: "R5", text: "A calendar per artist", match: ["calendar"] },
    { id: "R6", text: "Automatic aftercare texts the day after a session", match: ["aftercare"] },
    { id: "R7", text: "A portfolio gallery clients can browse by style", match: ["portfolio"] },
  ],
  technologies: ["stripe"],
  non_goals: [],
  not_work: [{ text: "the aside about the studio's size", match: ["3 artists"] }],
  separate: [["R1", "R4", "R5", "R6", "R7"]],
  independent: [
    ["R6", "R7"],
    ["R3", "R7"],
  ],
  inspired_by:
    "https://www.mintlify.com/dbourjac/Tattoo_Studio/features/client-management (tattoo studio client profiles, consent tracking, preferred artist) and https://bookedin.com/?p=14682 (tattoo booking form vs consent form, deposits)",
};
