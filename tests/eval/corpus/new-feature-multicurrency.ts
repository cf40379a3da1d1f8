import type { EvalCase } from "../case";

export const newFeatureMulticurrency: EvalCase = {
  id: "new-feature-multicurrency",
  kind: "terse feature request for an existing shop (e-commerce)",
  work_kind: "feature",
  description:
    "add multi-currency to our shop. we sell ceramics from Lisbon and 40% of traffic is from the US and UK but everything is in EUR, people bounce at checkout when they see euros. need: currency picker in the header (EUR, USD, GBP), guess the currency from the visitor's country on first visit, exchange rates refreshed daily from the ECB feed, prices rounded to .00 or .50 so they don't look weird, a fixed price override per product per currency for bestsellers, and charge in the chosen currency through Stripe. reports and payouts stay in EUR. the shop is Laravel + Livewire. acceptance: a UK visitor sees GBP from the first page to the receipt email",
  requirements: [
    { id: "R1", text: "A currency picker in the header", match: ["picker"] },
    { id: "R2", text: "Guess the currency from the visitor's country on first visit", match: ["country"] },
    { id: "R3", text: "Exchange rates refreshed daily from the ECB feed", match: ["ECB"] },
    { id: "R4", text: "Prices rounded to .00 or .50", match: ["round"] },
    { id: "R5", text: "A fixed price override per product per currency", match: ["override"] },
    { id: "R6", text: "Charge in the chosen currency through Stripe", match: ["Stripe"] },
    { id: "R7", text: "Reports and payouts stay in EUR", match: ["payout"] },
  ],
  technologies: ["stripe", "laravel", "livewire"],
  non_goals: [],
  not_work: [
    { text: "what the shop sells and where from", match: ["ceramics"] },
    { text: "the traffic rationale", match: ["bounce"] },
  ],
  separate: [["R1", "R2", "R3", "R4", "R5", "R6"]],
  independent: [
    ["R2", "R5"],
    ["R1", "R7"],
  ],
  inspired_by:
    "GitHub issues apiwatRata/dorumuri-admin#12 'Multi-Currency & Exchange Rate Management' and VividWeb/vivid_store#81 'multi currency' (price per currency, exchange-rate job, rounding rules)",
};
