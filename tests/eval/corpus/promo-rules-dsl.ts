import type { EvalCase } from "../case";

/** Trap: the rules' keywords and paths (when, then, cart.total, in) are code, not features. */
export const promoRulesDsl: EvalCase = {
  id: "promo-rules-dsl",
  kind: "DSL",
  description: `We want a small rules language so our merchandisers can write promotions without a deploy. Example rules:

\`\`\`
when cart.total > 100 and customer.tier == "gold" then discount 10%
when cart.items.count >= 3 then free_shipping
when product.category in ["shoes", "bags"] and today is weekend then discount 5% on category
\`\`\`

Needs: a parser with clear error messages, a type checker (cart.total is money, customer.tier is a string enum), an evaluator that runs inside our existing Kotlin checkout service, and a web editor with syntax highlighting and a "test this rule against a sample cart" button. Rules are versioned and can be scheduled (start/end date). Conflicting rules: highest priority wins, ties go to the bigger discount.`,
  requirements: [
    { id: "R1", text: "A parser", match: ["parser"] },
    { id: "R2", text: "Clear error messages", match: ["error message"] },
    { id: "R3", text: "A type checker", match: ["type check"] },
    { id: "R4", text: "An evaluator", match: ["evaluat"] },
    { id: "R5", text: "The evaluator runs inside the Kotlin checkout service", match: ["Kotlin"] },
    { id: "R6", text: "A web editor with syntax highlighting", match: ["syntax highlight"] },
    { id: "R7", text: "Test a rule against a sample cart", match: ["sample cart"] },
    { id: "R8", text: "Rules are versioned", match: ["version"] },
    { id: "R9", text: "Rules can be scheduled (start/end date)", match: ["schedul"] },
    {
      id: "R10",
      text: "Conflicts: highest priority wins, ties go to the bigger discount",
      match: ["priority"],
    },
  ],
  technologies: ["kotlin"],
  non_goals: [],
};
