import type { EvalCase } from "../case";

export const newBakeryPreorders: EvalCase = {
  id: "new-bakery-preorders",
  kind: "terse one-liner with a comma list (e-commerce)",
  work_kind: "product",
  description:
    "online preorders for our neighbourhood bakery: weekly menu, pickup time slots with a max number of orders per slot, prepay with Stripe, order cutoff at 3pm the day before, and a printable bake list for the kitchen",
  requirements: [
    { id: "R1", text: "A weekly menu", match: ["menu"] },
    { id: "R2", text: "Pickup time slots", match: ["pickup", "slot"] },
    { id: "R3", text: "A max number of orders per slot", match: ["max"] },
    { id: "R4", text: "Prepayment with Stripe", match: ["Stripe"] },
    { id: "R5", text: "An order cutoff at 3pm the day before", match: ["cutoff"] },
    { id: "R6", text: "A printable bake list for the kitchen", match: ["bake list"] },
  ],
  technologies: ["stripe"],
  non_goals: [],
  separate: [["R1", "R2", "R4", "R5", "R6"]],
  independent: [
    ["R3", "R5"],
    ["R4", "R6"],
  ],
  inspired_by:
    "https://crumbcoach.com/blog/how-to-create-a-holiday-pre-order-system-that-runs-itself and https://help.tendypos.com/en/articles/8380754-how-do-i-set-my-order-pick-up-settings (pickup time slots, orders per time slot)",
};
