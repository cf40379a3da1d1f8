import type { EvalCase } from "../../case";

export const hoBikeClassifieds: EvalCase = {
  id: "ho-bike-classifieds",
  kind: "two-liner with a comma list (marketplace)",
  work_kind: "product",
  description: `Classifieds site for second-hand bikes and bike parts, like craigslist but only bikes. Browse by region from a clickable map, sellers post ads with photos and a price, buyers message sellers on the site, admins can read message threads when there's a dispute, log in with Google or email, keyword search, saved searches that email you when a matching ad appears.
Paid/featured ads maybe later, not now.`,
  requirements: [
    { id: "R1", text: "Browse by region from a clickable map", match: ["map"] },
    { id: "R2", text: "Sellers post ads with photos and a price", match: ["photo"] },
    { id: "R3", text: "Buyers message sellers on the site", match: ["messag"] },
    { id: "R4", text: "Admins read message threads in a dispute", match: ["dispute"] },
    { id: "R5", text: "Log in with Google or email", match: ["Google"] },
    { id: "R6", text: "Keyword search", match: ["keyword"] },
    { id: "R7", text: "Saved searches that email on a matching ad", match: ["saved search"] },
  ],
  technologies: [],
  non_goals: [{ text: "paid/featured ads", match: ["featured"] }],
  separate: [["R1", "R2", "R3", "R5", "R6", "R7"]],
  independent: [
    ["R1", "R6"],
    ["R4", "R7"],
  ],
  inspired_by:
    "https://forums.digitalpoint.com/threads/need-classified-type-site-design-programming.2186279 (a request for a craigslist-like classifieds site)",
};
