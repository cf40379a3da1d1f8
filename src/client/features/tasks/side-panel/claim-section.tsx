import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { claimTime, useClaimActions, useClaims } from "../shared/use-claims";

/**
 * A leaf's claim in its details (issue 41): who works on it until when, and Claim, Renew or Let go. A
 * done leaf has none; a claim by someone else (or an agent) can still be let go on one's own plan.
 */
export function ClaimSection({ node, rootId }: { node: TaskTreeNode; rootId: string }) {
  const claims = useClaims(rootId);
  const actions = useClaimActions();
  if (node.children.length > 0 || node.status === "completed") return null;
  const held = claims.byTask.get(node.id);
  const mine = claims.mine(held);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="claim">
      <p className="min-w-0 flex-1 basis-full break-words sm:basis-auto">
        {held
          ? `${mine ? "You hold it" : `${held.claimed_by} works on it`} until ${claimTime(held)}.`
          : "Nobody has claimed it."}
      </p>
      {(!held || mine) && (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={actions.pending}
          onClick={() => actions.claim(node.id)}
        >
          {mine ? "Renew claim" : "Claim"}
        </button>
      )}
      {held && (
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={actions.pending}
          onClick={() => actions.release(node.id)}
        >
          Let go
        </button>
      )}
    </div>
  );
}
