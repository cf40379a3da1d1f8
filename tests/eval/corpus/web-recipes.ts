import type { EvalCase } from "../case";

export const webRecipes: EvalCase = {
  id: "web-recipes",
  kind: "greenfield web app",
  application_type: "web-application",
  tech_stack_id: "nextjs-postgres",
  description: `We want to build a recipe sharing website. Users sign up with email or Google, create recipes with ingredients, steps and photos, and browse other people's recipes. Needs full-text search over titles and ingredients, tags (vegan, gluten-free, etc.), and the ability to save recipes to collections. Each recipe page should have a printable view and a shopping list generator that merges ingredients from several recipes. Moderators can hide recipes that get reported.

Stack: Next.js with PostgreSQL, hosted on Vercel.`,
  requirements: [
    { id: "R1", text: "Users sign up with email or Google", match: ["sign", "Google"] },
    { id: "R2", text: "Create recipes with ingredients and steps", match: ["recipe", "ingredient"] },
    { id: "R3", text: "Recipes have photos", match: ["photo"] },
    { id: "R4", text: "Browse other people's recipes", match: ["browse"] },
    { id: "R5", text: "Full-text search over titles and ingredients", match: ["search"] },
    { id: "R6", text: "Tags such as vegan or gluten-free", match: ["tag"] },
    { id: "R7", text: "Save recipes to collections", match: ["collection"] },
    { id: "R8", text: "A printable view of each recipe", match: ["print"] },
    {
      id: "R9",
      text: "A shopping list generator merging ingredients of several recipes",
      match: ["shopping list"],
    },
    { id: "R10", text: "Moderators hide reported recipes", match: ["moderat"] },
    { id: "R11", text: "Hosted on Vercel", match: ["Vercel"] },
  ],
  technologies: ["nextjs", "postgresql", "vercel"],
  non_goals: [],
};
