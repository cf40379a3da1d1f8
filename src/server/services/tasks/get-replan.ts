import type { ReplanProposal } from "../../../shared/schemas/replan";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { loadTreeRows } from "../../plan/rows";
import { findProposal } from "./proposals";
import { toProposal, uncoveredByProposal, whyNothingOf } from "./replan";

/** A proposal the caller made for this task (404 otherwise). */
export async function getReplan(
  deps: Deps,
  userId: string,
  id: string,
  proposalId: string,
): Promise<ReplanProposal> {
  const target = await getOwnedRow(deps, userId, id);
  const proposal = await findProposal(deps.db, userId, target.id, proposalId);
  const rootId = target.rootTaskId ?? target.id;
  const rows = await loadTreeRows(deps.db, rootId);
  return toProposal(
    proposal,
    uncoveredByProposal(rows, rows.find((r) => r.id === rootId)!, proposal.changes),
    proposal.changes.length === 0
      ? whyNothingOf(rows, target, proposal.guidance, proposal.keptLocked, proposal.planner)
      : null,
  );
}
