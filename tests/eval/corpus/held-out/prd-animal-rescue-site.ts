import type { EvalCase } from "../../case";

export const hoPrdAnimalRescueSite: EvalCase = {
  id: "ho-prd-animal-rescue-site",
  kind: "requirements doc with a table, Scope IN/OUT, Stretch and acceptance criteria (nonprofit website)",
  work_kind: "product",
  description: `Paws & Whiskers Rescue: website requirements

Vision
People find out about our animals through social media posts that scroll away in a day. We want a site where adopters can browse every animal we have and apply online, and where volunteers and people who can no longer keep a pet can reach us without phoning.

Scope: IN
1- Adoptable animals: a list with filters (species, age, size, good with kids/cats/dogs) and a page per animal with its photos.
2- An adoption application form per animal. Staff see applications in a queue and set them to approved, declined or on hold; the applicant gets an email on every status change.
3- Volunteer sign-up: pick shifts from a weekly calendar (dog walking, cattery cleaning, events), at most 2 volunteers per dog-walking slot.
4- A surrender request form with the animal's details and photos, so staff can call back instead of animals being left at the gate.
5- A staff-only area to add and edit animals and mark them adopted; adopted animals disappear from the public list.
6- Works on phones: most visitors come from social media on mobile.

Animal record

| Field     | Type                       | Notes                |
|-----------|----------------------------|----------------------|
| Name      | text                       |                      |
| Species   | dog / cat / rabbit / other |                      |
| Age       | months                     | shown as "2 yrs"     |
| Good with | kids, cats, dogs           | checkboxes           |
| Photos    | up to 10                   | the first is the cover |

Scope: OUT
- Online donations (we use our bank's donation page)
- Lost & found pets

Stretch
- Sponsor-an-animal monthly giving
- RSVPs for adoption-day events

Acceptance criteria
- Filtering the list on "dog, good with cats" shows only dogs marked good with cats.
- When Biscuit is marked adopted, he is gone from the public list within a minute.
- A third volunteer cannot book the Saturday 9:00 dog-walking slot.`,
  requirements: [
    { id: "R1", text: "A list of adoptable animals with filters", match: ["filter"] },
    { id: "R2", text: "A page per animal with its photos", match: ["page", "photo"] },
    { id: "R3", text: "An adoption application form per animal", match: ["application"] },
    {
      id: "R4",
      text: "Staff set applications to approved, declined or on hold in a queue",
      match: ["queue"],
    },
    { id: "R5", text: "The applicant gets an email on every status change", match: ["status change"] },
    { id: "R6", text: "Volunteers pick shifts from a weekly calendar", match: ["volunteer"] },
    { id: "R7", text: "At most 2 volunteers per dog-walking slot", match: ["dog walking"] },
    { id: "R8", text: "A surrender request form with details and photos", match: ["surrender"] },
    { id: "R9", text: "A staff-only area to add and edit animals", match: ["edit"] },
    { id: "R10", text: "Adopted animals disappear from the public list", match: ["adopted"] },
    { id: "R11", text: "Works on phones", match: ["phone"] },
  ],
  technologies: [],
  non_goals: [
    { text: "online donations", match: ["donation"] },
    { text: "lost & found pets", match: ["lost"] },
    { text: "sponsor-an-animal monthly giving", match: ["sponsor"] },
    { text: "RSVPs for adoption-day events", match: ["RSVP"] },
  ],
  not_work: [
    { text: "the document title", match: ["Whiskers"] },
    { text: "the vision's social media posts", match: ["scroll"] },
    { text: "the table's display note", match: ["yrs"] },
    { text: "the adoption acceptance scenario", match: ["Biscuit"] },
    { text: "the dog-walking acceptance scenario", match: ["third volunteer"] },
  ],
  separate: [["R1", "R2"]],
  independent: [
    ["R6", "R8"],
    ["R5", "R7"],
  ],
  inspired_by:
    "https://github.com/JadeGladys/petsheltermanagementsystem (README: animal shelter website requirements), laid out like https://github.com/House-Rulez/black-jack requirements.md (Scope In/Out, Stretch)",
};
