import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { DbOrTx } from "../../db/client";
import { replanProposals } from "../../db/schema/index";
import { AppError } from "../../errors";
import { subtreeOf, type TaskRow } from "../../plan/rows";

/** What proposing and accepting a re-plan share: the subtree's fingerprint, the rules, the proposal's lookup. */

/** The re-planned subtree as it is now: any change to it (content, place, status, locks) changes this. */
export function fingerprint(rows: TaskRow[], id: string): string {
  const target = rows.find((r) => r.id === id);
  const nodes = [...(target ? [target] : []), ...subtreeOf(rows, id)].sort((a, b) => (a.id < b.id ? -1 : 1));
  const hash = createHash("sha256");
  for (const n of nodes) {
    hash.update(
      `${n.id}|${n.parentId}|${n.position}|${n.updatedAt.getTime()}|${n.status}|${n.editedAt?.getTime() ?? ""}|${n.exportedAt?.getTime() ?? ""}\n`,
    );
  }
  return hash.digest("hex");
}

/** Re-plans wait while a decomposition runs or a plan waits for review. */
export function refuseWhileDecomposing(root: TaskRow, what: string) {
  if (["pending", "processing", "submitted"].includes(root.status)) {
    throw new AppError(
      "CONFLICT",
      root.status === "submitted"
        ? `This plan is waiting for your review. Approve or reject it before you ${what}.`
        : `This plan is still being decomposed. Wait until it finishes before you ${what}.`,
    );
  }
}

/** The caller's proposal for this task (404 otherwise, whatever the id looks like). */
export async function findProposal(db: DbOrTx, userId: string, taskId: string, proposalId: string) {
  const notFound = new AppError("NOT_FOUND", "Re-plan proposal not found");
  if (!UUID_PATTERN.test(proposalId)) throw notFound;
  const [row] = await db
    .select()
    .from(replanProposals)
    .where(
      and(
        eq(replanProposals.id, proposalId),
        eq(replanProposals.userId, userId),
        eq(replanProposals.taskId, taskId),
      ),
    )
    .limit(1);
  if (!row) throw notFound;
  return row;
}
