import { z } from "zod";
import { CLAIM_MINUTES_MAX } from "../claims";
import { agentTask, taskRef } from "./agent";
import { progress, taskClaim } from "./tasks";

/** POST /tasks/{id}/claim and claim_next_task: how long the claim lasts (default 120 minutes). */
export const claimInput = z.strictObject({
  minutes: z
    .number({ error: "minutes must be a whole number of minutes" })
    .int("minutes must be a whole number of minutes")
    .min(1, "minutes is at least 1")
    .max(CLAIM_MINUTES_MAX, `minutes is at most ${CLAIM_MINUTES_MAX} (a day)`)
    .optional(),
});

export const claimResult = taskClaim.extend({ task_id: z.string() }).meta({ id: "ClaimResult" });
export type ClaimResult = z.infer<typeof claimResult>;

/** claim_next_task: the leaf claimed for the caller (null when none is free), with what it needs to do it. */
export const claimedNext = z
  .object({
    project_id: z.string(),
    task: agentTask.nullable(),
    claim: taskClaim.nullable(),
    message: z.string(),
    /** Ready leaves others hold now. */
    held_by_others: z.array(taskRef.extend({ claimed_by: z.string(), claimed_until: z.string() })),
    progress,
  })
  .meta({ id: "ClaimedNext" });
export type ClaimedNext = z.infer<typeof claimedNext>;

/** GET /tasks/{id}/claims: the claims held now on the task's plan. */
export const planClaims = z.object({ claims: z.array(claimResult) }).meta({ id: "PlanClaims" });
export type PlanClaims = z.infer<typeof planClaims>;
