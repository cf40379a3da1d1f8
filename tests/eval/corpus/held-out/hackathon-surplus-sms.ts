import type { EvalCase } from "../../case";

export const hoHackathonSurplusSms: EvalCase = {
  id: "ho-hackathon-surplus-sms",
  kind: "hackathon post (food rescue web app + SMS)",
  work_kind: "product",
  description: `LastCall: our CityHack weekend submission

Inspiration: two of us close up at a bakery-café on weeknights, and every night trays of sandwiches and pastries that are perfectly fine go in the bin. Talking to the shelter down the road, we learned that most of their residents have a phone even when they don't have a reliable dinner, so plain text messages felt like the right channel, with no app to install.

What it does: restaurants log in and post what's left and until what time it can be picked up. Everyone on the subscriber list gets an SMS straight away. People subscribe by texting JOIN to our number and leave with STOP. There's a public page with tonight's open posts, restaurants can mark a post as claimed so two people don't walk over for the same tray, and shelter staff can sign residents up on their behalf.

How we built it: Flask, MySQL and Twilio in about 30 hours, most of it spent fighting the webhook (thanks to the mentor who spotted our missing trailing slash at 3am).

What's next: a map of pickup points, and photos on posts.

A question for the judges and anyone reading: is SMS enough, or would people rather get these on WhatsApp?`,
  requirements: [
    { id: "R1", text: "Restaurants log in", match: ["restaurant", "log"] },
    { id: "R2", text: "Restaurants post what's left and the pickup deadline", match: ["left"] },
    { id: "R3", text: "Every subscriber gets an SMS straight away", match: ["SMS"] },
    { id: "R4", text: "Subscribe by texting JOIN", match: ["JOIN"] },
    { id: "R5", text: "Unsubscribe by texting STOP", match: ["STOP"] },
    { id: "R6", text: "A public page with tonight's open posts", match: ["public page"] },
    { id: "R7", text: "Restaurants mark a post as claimed", match: ["claim"] },
    { id: "R8", text: "Shelter staff sign residents up on their behalf", match: ["shelter"] },
  ],
  technologies: ["flask", "mysql", "twilio"],
  non_goals: [
    { text: "a map of pickup points", match: ["map"] },
    { text: "photos on posts", match: ["photo"] },
  ],
  not_work: [
    { text: "the title line", match: ["CityHack"] },
    { text: "the inspiration story", match: ["bakery"] },
    { text: "the 30-hour build", match: ["30 hours"] },
    { text: "thanks to the mentor", match: ["mentor"] },
    { text: "the trailing-slash anecdote", match: ["trailing slash"] },
    { text: "the question to the judges", match: ["WhatsApp"] },
  ],
  separate: [["R6", "R7", "R8"]],
  independent: [
    ["R6", "R8"],
    ["R4", "R7"],
  ],
  inspired_by:
    "https://devpost.com/software/the-do-good-project (hackathon write-up: restaurants text surplus food to subscribers)",
};
