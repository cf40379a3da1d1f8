import type { TaskClaim } from "./schemas/tasks";

/**
 * A claim on a leaf as people and agents see it (issue 41): who holds it, until when. A claim past its
 * time holds nothing, wherever it is read, so nothing needs to clear it when it runs out.
 */

/** How long a claim lasts unless the claimer says otherwise, and at most. */
export const CLAIM_MINUTES_DEFAULT = 120;
export const CLAIM_MINUTES_MAX = 24 * 60;

/** A claim as stored (task_claims), its time as the database driver gives it. */
export type ClaimRow = {
  userId: string;
  holder: string;
  agent: string | null;
  until: Date | string;
};

/** A person, or one of their coding agents: "Ada", "Ada (agent: Claude Code)". */
export function byline(name: string, agent: string | null): string {
  return agent ? `${name} (agent: ${agent})` : name;
}

/** The claim a row holds now, or null (run out by `now`). */
export function claimOf(row: ClaimRow, now: number = Date.now()): TaskClaim | null {
  const until = typeof row.until === "string" ? new Date(row.until) : row.until;
  if (Number.isNaN(until.getTime()) || until.getTime() <= now) return null;
  const name = row.holder || "Someone";
  return {
    claimed_by: byline(name, row.agent),
    claimed_by_user_id: row.userId,
    agent: row.agent,
    claimed_until: until.toISOString(),
  };
}

/** A claim in a sentence: "Ada (agent: Claude Code) holds it until 14:05 UTC". */
export function claimSentence(claim: TaskClaim): string {
  return `${claim.claimed_by} holds it until ${claim.claimed_until.slice(11, 16)} UTC`;
}
