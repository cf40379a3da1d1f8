import type { EvalCase } from "../case";

export const moreOnelinerHomebrewCalculator: EvalCase = {
  id: "more-oneliner-homebrew-calculator",
  kind: "two-liner with a feature list (hobby calculator web app)",
  work_kind: "product",
  description:
    "Homebrew recipe calculator. Enter grains, hops and yeast and see OG, FG, ABV, IBU and SRM colour update live as you edit; scale a recipe to a new batch size; compare it against BJCP style ranges; import and export BeerXML; and a brew-day timer for the hop additions.",
  requirements: [
    { id: "R1", text: "Enter grains, hops and yeast", match: ["grain"] },
    { id: "R2", text: "OG, FG and ABV update live", match: ["ABV"] },
    { id: "R3", text: "IBU updates live", match: ["IBU"] },
    { id: "R4", text: "SRM colour updates live", match: ["SRM"] },
    { id: "R5", text: "Scale a recipe to a new batch size", match: ["batch size"] },
    { id: "R6", text: "Compare against BJCP style ranges", match: ["style"] },
    { id: "R7", text: "Import and export BeerXML", match: ["BeerXML"] },
    { id: "R8", text: "A brew-day timer for the hop additions", match: ["timer"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R5", "R6", "R7", "R8"]],
  independent: [
    ["R7", "R8"],
    ["R5", "R6"],
  ],
  inspired_by:
    "README of edrews/BrewShopApp (homebrew recipes, OG, IBU and SRM calculated on the fly, compare to styles) and README of anttikantee/wbc (brew calculator: ABV, IBUs, hop additions)",
};
