import type { EvalCase } from "../case";

export const newProsePillboxHackathon: EvalCase = {
  id: "new-prose-pillbox-hackathon",
  kind: "hackathon prose (health IoT)",
  work_kind: "product",
  description: `PillPing — a pillbox that texts you back

Our grandma takes eight pills a day and lives alone two hours away from us. Last winter she doubled her blood pressure meds because she couldn't remember if she'd already taken them, and that scared all of us. So for this weekend's hackathon we're building PillPing.

The box has seven compartments, one per day, with an LED in each lid. At dose time the right compartment lights up and a buzzer goes off until the lid is opened. A reed switch on each lid logs when a dose was taken. If a dose isn't taken within 30 minutes, the caregiver gets a text. In the caregiver app you create a profile per patient, set the medication schedule, and see a weekly adherence history.

It'll run on a Raspberry Pi Zero with a small Flask server. Honestly no idea if we can finish the app in 36 hours, but we'll try! Wish us luck.`,
  requirements: [
    { id: "R1", text: "The right compartment's LED lights up at dose time", match: ["LED"] },
    { id: "R2", text: "A buzzer goes off until the lid is opened", match: ["buzzer"] },
    { id: "R3", text: "A reed switch on each lid logs when a dose was taken", match: ["reed"] },
    {
      id: "R4",
      text: "The caregiver gets a text when a dose isn't taken within 30 minutes",
      match: ["caregiver", "text"],
    },
    { id: "R5", text: "A profile per patient", match: ["profile"] },
    { id: "R6", text: "Set the medication schedule", match: ["schedule"] },
    { id: "R7", text: "A weekly adherence history", match: ["adherence"] },
    { id: "R8", text: "A small Flask server on the Raspberry Pi Zero", match: ["Flask"] },
  ],
  technologies: ["raspberry-pi", "flask"],
  non_goals: [],
  not_work: [
    { text: "the title line", match: ["texts you back"] },
    { text: "the story of grandma", match: ["grandma"] },
    { text: "the story of the doubled blood pressure meds", match: ["blood pressure"] },
    { text: "doubt about finishing in 36 hours", match: ["36 hours"] },
    { text: "Wish us luck.", match: ["luck"] },
  ],
  separate: [
    ["R1", "R2"],
    ["R5", "R6", "R7"],
  ],
  independent: [["R2", "R4"]],
  inspired_by:
    "devpost project page 'Nudge' (https://devpost.com/software/nudge-txm34z): a smart pillbox with a blinking light per compartment and a caregiver app",
};
