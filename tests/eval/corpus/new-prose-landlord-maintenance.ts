import type { EvalCase } from "../case";

export const newProseLandlordMaintenance: EvalCase = {
  id: "new-prose-landlord-maintenance",
  kind: "forum post by a small landlord (property web app)",
  work_kind: "product",
  description: `Maintenance requests for my 3 buildings (tired of texts)

I own three small apartment buildings, 22 units total, and right now maintenance "tracking" is me scrolling back through text messages at 11pm. Last month I forgot a leaking faucet for a week and the tenant was (rightly) furious.

I want something dead simple. Tenants submit a request from their phone with a description and photos, and mark whether it's an emergency. Emergencies should call my phone, not just send an e-mail. I assign each request to one of my two handymen, they update the status when they're on the way and when it's fixed, and the tenant gets a text at each step. I also want the history per unit so I can see that 3B has had the same dishwasher problem four times, and a monthly report of what I spent on repairs per building.

Rent collection is handled by my bank, so please don't touch that. Would a web app be enough, or do tenants really need an app from the store?`,
  requirements: [
    {
      id: "R1",
      text: "Tenants submit a request from their phone with a description and photos",
      match: ["photo"],
    },
    { id: "R2", text: "Tenants mark whether it's an emergency", match: ["emergenc"] },
    { id: "R3", text: "Emergencies call the landlord's phone", match: ["call"] },
    { id: "R4", text: "Assign each request to a handyman", match: ["assign"] },
    { id: "R5", text: "Handymen update the status (on the way, fixed)", match: ["status"] },
    { id: "R6", text: "The tenant gets a text at each step", match: ["tenant", "text"] },
    { id: "R7", text: "The history per unit", match: ["history"] },
    { id: "R8", text: "A monthly report of repair spending per building", match: ["monthly report"] },
  ],
  technologies: [],
  non_goals: [{ text: "rent collection", match: ["rent", "collect"] }],
  not_work: [
    { text: "scrolling through texts at 11pm", match: ["11pm"] },
    { text: "the forgotten leaking faucet", match: ["faucet"] },
    { text: "the example of 3B's dishwasher", match: ["dishwasher"] },
    { text: "the closing question about an app from the store", match: ["from the store"] },
  ],
  separate: [["R4", "R5", "R6"]],
  sequence: [["R1", "R4", "R5"]],
  independent: [
    ["R7", "R8"],
    ["R3", "R6"],
  ],
  inspired_by:
    "https://getrentlane.com/blog/maintenance-request-tracking-small-landlords.html (small landlords tracking maintenance by text message, quoting r/PropertyManagement)",
};
