import type { EvalCase } from "../case";

export const supportAdminDashboard: EvalCase = {
  id: "support-admin-dashboard",
  kind: "terse",
  description:
    "internal admin dashboard for our support team to look up orders + issue refunds. nextjs, we already have a postgres db and stripe. needs google login restricted to our domain, and every refund logged with who did it",
  requirements: [
    { id: "R1", text: "Look up orders", match: ["order"] },
    { id: "R2", text: "Issue refunds", match: ["refund"] },
    { id: "R3", text: "Google login", match: ["Google"] },
    { id: "R4", text: "Restricted to the company's domain", match: ["domain"] },
    { id: "R5", text: "Every refund logged with who did it", match: ["refund", "log"] },
  ],
  technologies: ["nextjs", "postgresql", "stripe"],
  non_goals: [],
};
