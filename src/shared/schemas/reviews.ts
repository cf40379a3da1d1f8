import { z } from "zod";
import { isoTimestamp } from "./common";

/**
 * A plan's approval before it leaves Atomize (issue 41; docs/decisions/036-teams-and-claims.md). The
 * plan's `requires_approval` (the spec's switch) holds it for a person's approval: its first level before
 * it is split further, and the whole plan before an export writes it to JIRA, Trello or GitHub.
 */
export const REVIEW_DECISIONS = ["approve", "request_changes"] as const;
export const REVIEW_COMMENT_MAX = 2000;

/** POST /tasks/{id}/reviews */
export const reviewInput = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS, { error: 'decision must be "approve" or "request_changes"' }),
  comment: z
    .string({ error: "comment must be text" })
    .trim()
    .max(REVIEW_COMMENT_MAX, `A review's comment is at most ${REVIEW_COMMENT_MAX} characters`)
    .default(""),
});

export const REVIEW_STATES = ["not_required", "waiting", "approved", "changes_requested", "stale"] as const;

export const planReview = z.object({
  id: z.string(),
  decision: z.enum(REVIEW_DECISIONS),
  comment: z.string(),
  reviewer_name: z.string().nullable(),
  created_at: isoTimestamp,
});

export const reviewState = z
  .object({
    /**
     * not_required; waiting (no review yet); approved; changes_requested; stale (approved, then the plan
     * changed: an edit, a re-plan or a restore).
     */
    state: z.enum(REVIEW_STATES),
    /** What changed since the approval, when stale: the revisions' summaries, newest first. */
    changed_since: z.array(z.string()),
    /** Who asks for the approval: the plan's own switch, or its team's setting for all its plans. */
    required_by: z.enum(["plan", "team"]).nullable(),
    reviews: z.array(planReview),
  })
  .meta({ id: "ReviewState" });
export type ReviewState = z.infer<typeof reviewState>;

/** Where a plan stands on approval, in a sentence, for every client (CLI, MCP, web). */
export function approvalSentence(
  state: ReviewState["state"],
  requiredBy: ReviewState["required_by"],
): string {
  const rule = requiredBy === "team" ? " (its team's rule)" : "";
  switch (state) {
    case "not_required":
      return "No approval is needed before it is exported.";
    case "waiting":
      return `It needs an approval before it is exported${rule}: not approved yet.`;
    case "approved":
      return "Approved: it may be exported.";
    case "changes_requested":
      return `Changes were asked for: it needs an approval before it is exported${rule}.`;
    case "stale":
      return `It changed after it was approved: it needs approving again before it is exported${rule}.`;
  }
}

/** A plan's approval as the agent's views (and the CLI) show it. */
export const approvalSummary = z.object({ state: z.enum(REVIEW_STATES), sentence: z.string() });
