import type { Revision, RevisionKind } from "../../../shared/schemas/replan";

export function toRevision(r: {
  id: string;
  kind: RevisionKind;
  summary: string;
  taskId: string | null;
  createdAt: Date;
  tasks: number;
}): Revision {
  return {
    revision_id: r.id,
    kind: r.kind,
    summary: r.summary,
    task_id: r.taskId,
    created_at: r.createdAt.toISOString(),
    tasks: r.tasks,
  };
}
