import type { TaskClaim } from "./schemas/tasks";

/**
 * A claim on a leaf as people and agents see it (issue 41): who holds it, until when. A claim past its
 * time holds nothing, wherever it is read, so nothing needs to clear it when it runs out.
 */

/** How long a claim lasts unless the claimer says otherwise, and at most. */
export const CLAIM_MINUTES_DEFAULT = 120;
export const CLAIM_MINUTES_MAX = 24 * 60;

export type ClaimColumns = {
  claimedBy: string | null;
  claimedHolder: string | null;
  claimedAgent: string | null;
  claimedUntil: Date | string | null;
};

/** The claim a row holds now, or null (none, or run out by `now`). */
export function claimOf(row: ClaimColumns, now: number = Date.now()): TaskClaim | null {
  if (row.claimedUntil === null) return null;
  const until = typeof row.claimedUntil === "string" ? new Date(row.claimedUntil) : row.claimedUntil;
  if (Number.isNaN(until.getTime()) || until.getTime() <= now) return null;
  const name = row.claimedHolder || "Someone";
  return {
    claimed_by: row.claimedAgent ? `${name} (agent: ${row.claimedAgent})` : name,
    claimed_by_user_id: row.claimedBy,
    agent: row.claimedAgent,
    claimed_until: until.toISOString(),
  };
}

/** A claim in a sentence: "Ada (agent: Claude Code) holds it until 14:05 UTC". */
export function claimSentence(claim: TaskClaim): string {
  return `${claim.claimed_by} holds it until ${claim.claimed_until.slice(11, 16)} UTC`;
}
