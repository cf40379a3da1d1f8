import type { EvalCase } from "../case";

export const newFoodBankVolunteers: EvalCase = {
  id: "new-food-bank-volunteers",
  kind: "terse one-liner with a comma list (nonprofit)",
  work_kind: "product",
  description:
    "volunteer scheduling for our food bank: shift sign-ups with a capacity limit per shift, SMS reminders the day before, hours tracking for school service credits, and a coordinator view to see who's coming",
  requirements: [
    { id: "R1", text: "Shift sign-ups", match: ["shift", "sign"] },
    { id: "R2", text: "A capacity limit per shift", match: ["capacity"] },
    { id: "R3", text: "SMS reminders the day before", match: ["SMS"] },
    { id: "R4", text: "Hours tracking for school service credits", match: ["hours"] },
    { id: "R5", text: "A coordinator view of who is coming", match: ["coordinator"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R1", "R3", "R4", "R5"]],
  independent: [
    ["R3", "R4"],
    ["R2", "R3"],
  ],
  inspired_by:
    "https://lakestevensthrift.com/docs/volunteer-admin (volunteer signup with per-shift capacity and an admin panel) and the Fresh Start Furniture Bank 'Volunteer Scheduling System' manual (bookstack.freshstartfurniturebank.org)",
};
