import { desc, eq } from "drizzle-orm";
import type { RevisionList } from "../../../shared/schemas/replan";
import { taskRevisions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { toRevision } from "./revisions";

/** The plan's revisions, newest first (any task of the plan names the plan). */
export async function listRevisions(deps: Deps, userId: string, id: string): Promise<RevisionList> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const rows = await deps.db
    .select({
      id: taskRevisions.id,
      kind: taskRevisions.kind,
      summary: taskRevisions.summary,
      taskId: taskRevisions.taskId,
      createdAt: taskRevisions.createdAt,
      tasks: taskRevisions.taskCount,
    })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .orderBy(desc(taskRevisions.seq));
  return { task_id: row.id, revisions: rows.map(toRevision) };
}
