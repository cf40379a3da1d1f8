import { eq, inArray, sql } from "drizzle-orm";
import { EXPORT_LABELS, type ExportKind } from "../../../shared/schemas/integrations";
import type { EventData } from "../../../shared/schemas/realtime";
import { exports, remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { PublishInput, PublishOf } from "../../events/event-bus";
import { IntegrationError } from "../../integrations/errors";
import { type JobContext, PermanentJobError, type TypedJob } from "../../jobs/queue";
import { actorById, recordActivity } from "../../plan/activity";
import { getTaskTree } from "../tasks/read";
import { JOB_EXPORT } from "./exports";
import { type ExportOutcome, type ExportPlan, type ExportRow, subtasksOf } from "./tracker";
import type { ExportContext, Exporter } from "./tracker-deps";

type ExportEvent = "export.progress" | "export.success" | "export.error";

/** An export's event, with the export's id and kind beside what its type carries (EVENT_DATA). */
async function publish<T extends ExportEvent>(
  deps: Deps,
  row: ExportRow,
  type: T,
  data: Omit<EventData<T>, "export_id" | "kind">,
) {
  // TypeScript does not narrow a generic T to one member of the union PublishInput; PublishOf<T> is it.
  const event = {
    type,
    userId: row.userId,
    taskId: row.taskId,
    rootTaskId: row.taskId,
    data: { export_id: row.id, kind: row.kind, ...data },
  } as unknown as PublishOf<T> as PublishInput;
  await deps.events.publish(event);
}

async function runExport(deps: Deps, job: TypedJob<typeof JOB_EXPORT>, jobCtx: JobContext) {
  const exportId = job.payload.exportId;
  const [row] = await deps.db.select().from(exports).where(eq(exports.id, exportId)).limit(1);
  if (!row || row.status === "completed") return;
  const exporter = deps.trackers[row.kind as ExportKind]?.exporter;
  if (!exporter) throw new PermanentJobError(`No exporter for ${row.kind}`);
  if (!row.taskId) throw new PermanentJobError("The exported task was deleted.");
  const tree = await getTaskTree(deps, row.userId, row.taskId).catch(() => null);
  if (!tree) throw new PermanentJobError("The exported task was deleted.");
  const { sealed, ...state } = row.state as { sealed?: string } & Record<string, unknown>;
  if (!sealed) throw new PermanentJobError("The export's credentials are gone; start a new export.");
  const secret = JSON.parse(deps.vault.decrypt(sealed)) as Record<string, string>;
  let percent = row.progress;
  await deps.db
    .update(exports)
    .set({ status: "running", updatedAt: new Date() })
    .where(eq(exports.id, exportId));

  const ctx: ExportContext = {
    deps,
    row,
    tree,
    config: row.config,
    secret,
    signal: jobCtx.signal,
    state,
    async saveState() {
      await deps.db
        .update(exports)
        .set({ state: { ...ctx.state, sealed }, updatedAt: new Date() })
        .where(eq(exports.id, exportId));
    },
    async progress(step, p, message) {
      percent = Math.max(percent, Math.min(100, Math.round(p)));
      await deps.db
        .update(exports)
        .set({ step, progress: percent, message, updatedAt: new Date() })
        .where(eq(exports.id, exportId));
      await publish(deps, row, "export.progress", { step, progress: percent, message });
    },
  };
  try {
    const plan = await exporter.prepare(ctx);
    deps.log.info("export planned", { exportId, kind: row.kind, ...plan.writes });
    const { remote, ...result } = await runResuming(exporter, ctx, plan);
    // What now exists in JIRA, Trello or GitHub is locked against re-plans (a person can unlock it).
    const exported = [tree.id, ...subtasksOf(tree).map((t) => t.id)];
    await deps.db.update(tasks).set({ exportedAt: new Date() }).where(inArray(tasks.id, exported));
    if (remote) {
      const described = new Map([tree, ...subtasksOf(tree)].map((t) => [t.id, t.description]));
      await recordRemoteItems(deps, row, tree.id, remote, described);
    }
    await deps.db
      .update(exports)
      // The sealed credentials are dropped once the export is done.
      .set({
        status: "completed",
        step: "completion",
        progress: 100,
        message: "Export complete",
        result,
        state: ctx.state,
        updatedAt: new Date(),
      })
      .where(eq(exports.id, exportId));
    await publish(deps, row, "export.progress", {
      step: "completion",
      progress: 100,
      message: "Export complete",
    });
    await recordActivity(
      deps.db,
      {
        rootId: tree.id,
        taskId: tree.id,
        kind: "export",
        summary: `exported the plan to ${EXPORT_LABELS[row.kind as ExportKind]}`,
      },
      await actorById(deps, row.userId),
    );
    await publish(deps, row, "export.success", result);
  } catch (err) {
    await ctx.saveState().catch(() => {});
    if (jobCtx.signal.aborted) throw err;
    const retryable = err instanceof IntegrationError ? err.retryable : !(err instanceof PermanentJobError);
    const last = !retryable || job.attempts >= job.maxAttempts;
    if (last) {
      const message = (err as Error).message;
      await deps.db
        .update(exports)
        .set({ status: "failed", error: message, message, updatedAt: new Date() })
        .where(eq(exports.id, exportId));
      // The plan may have been deleted while it was exported: then there is no activity to add to.
      await recordActivity(
        deps.db,
        {
          rootId: row.taskId,
          taskId: row.taskId,
          kind: "export",
          summary: `the export to ${EXPORT_LABELS[row.kind as ExportKind]} failed: ${message.slice(0, 200)}`,
        },
        null,
      ).catch(() => {});
      await publish(deps, row, "export.error", { message });
      throw new PermanentJobError(message, { cause: err });
    }
    await ctx.progress(
      row.step ?? "retry",
      percent,
      `Temporary problem (${(err as Error).message}); retrying`,
    );
    throw err;
  }
}

/** Keeps what the export made per task (one row per task and place; a new export there replaces it). */
async function recordRemoteItems(
  deps: Deps,
  row: ExportRow,
  rootId: string,
  remote: NonNullable<ExportOutcome["remote"]>,
  /** Each task's description as exported: the baseline's own part of the text sent. */
  described: Map<string, string>,
) {
  const kind = row.kind as ExportKind;
  for (let i = 0; i < remote.items.length; i += 500) {
    const chunk = remote.items.slice(i, i + 500);
    await deps.db
      .insert(remoteItems)
      .values(
        chunk.map((it) => ({
          userId: row.userId,
          taskId: it.task_id,
          rootTaskId: rootId,
          kind,
          target: remote.target,
          remoteId: it.remote_id,
          remoteKey: it.key,
          url: it.url,
          remoteParent: it.parent ?? null,
          containerId: remote.container ?? null,
          baseline: it.sent ? { ...it.sent, description: described.get(it.task_id) ?? "" } : null,
          baselineAt: it.sent ? new Date() : null,
        })),
      )
      .onConflictDoUpdate({
        target: [remoteItems.taskId, remoteItems.kind, remoteItems.target],
        set: {
          remoteId: sql`excluded.remote_id`,
          remoteKey: sql`excluded.remote_key`,
          url: sql`excluded.url`,
          remoteParent: sql`excluded.remote_parent`,
          containerId: sql`coalesce(excluded.container_id, ${remoteItems.containerId})`,
          baseline: sql`coalesce(excluded.baseline, ${remoteItems.baseline})`,
          baselineAt: sql`coalesce(excluded.baseline_at, ${remoteItems.baselineAt})`,
        },
      });
  }
}

/** Resumes after a write whose answer was lost, this many times in one attempt, before the job retries. */
const LOST_ANSWER_RESUMES = 5;

/**
 * Runs an exporter, resuming it when a create's answer was lost (IntegrationError.unconfirmed): its saved
 * state says what it was creating, and it looks for that before creating anything again.
 */
async function runResuming<Plan extends ExportPlan>(
  exporter: Exporter<Plan>,
  ctx: ExportContext,
  plan: Plan,
) {
  for (let resumes = 0; ; resumes++) {
    try {
      return await exporter.run(ctx, plan);
    } catch (err) {
      if (!(err instanceof IntegrationError && err.unconfirmed) || resumes >= LOST_ANSWER_RESUMES) throw err;
      await ctx.saveState();
      ctx.deps.log.warn("export write unconfirmed; resuming", { exportId: ctx.row.id, resumes });
    }
  }
}

export function registerExports(deps: Deps) {
  deps.jobs.register(JOB_EXPORT, (job, ctx) => runExport(deps, job, ctx));
}
