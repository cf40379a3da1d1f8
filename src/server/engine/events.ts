import { eq } from "drizzle-orm";
import { STAGES, type StageId, type StageStatus } from "../../shared/schemas/realtime";
import type { TaskStatus } from "../../shared/schemas/tasks";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import type { PublishInput } from "../events/event-bus";
import type { TaskRow } from "../plan/rows";

/** What a plan's run tells the people watching it: the stages' progress and the root's status. */

/** The stage a failing job was in, so the failure is reported against the right step. */
export const failedStage = new WeakMap<object, StageId>();

/** A stage's progress as an event (published alone by reportStage, or with others by publishMany). */
export function stageEvent(
  root: TaskRow,
  stage: StageId,
  status: StageStatus,
  message: string,
  extra: Record<string, unknown> = {},
): PublishInput {
  const info = STAGES.find((s) => s.id === stage)!;
  return {
    type: "service.status",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    operatorId: stage,
    status,
    message,
    data: {
      stage,
      stage_name: info.name,
      progress: status === "completed" ? info.progress + 10 : info.progress,
      ...extra,
    },
  };
}

export async function reportStage(
  deps: Deps,
  root: TaskRow,
  stage: StageId,
  status: StageStatus,
  message: string,
  extra: Record<string, unknown> = {},
) {
  await deps.events.publish(stageEvent(root, stage, status, message, extra));
}

export function statusEvent(root: TaskRow, status: TaskStatus): PublishInput {
  return {
    type: "task.status_changed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status,
    isAtomic: root.isAtomic,
  };
}

export async function setRootStatus(
  deps: Deps,
  root: TaskRow,
  status: TaskStatus,
  extra: Partial<TaskRow> = {},
) {
  await deps.db
    .update(tasks)
    .set({ status, updatedAt: new Date(), ...extra })
    .where(eq(tasks.id, root.id));
  await deps.events.publish(statusEvent(root, status));
}

/** Events of steps that wait on nothing, sent together before the next step that does. */
export type PendingEvents = { push(...events: PublishInput[]): void; flush(): Promise<void> };

export function pendingEvents(deps: Deps): PendingEvents {
  const events: PublishInput[] = [];
  return {
    push: (...more) => {
      events.push(...more);
    },
    flush: async () => {
      await deps.events.publishMany(events.splice(0));
    },
  };
}
