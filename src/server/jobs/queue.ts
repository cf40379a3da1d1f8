import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Database, resultRows } from "../db/client";
import { jobs } from "../db/schema/index";
import type { Logger } from "../lib/logger";
import { type JobKind, type JobPayload, jobPayloads } from "./payloads";

export type JobRow = typeof jobs.$inferSelect;
type Tx = Parameters<Parameters<Database["db"]["transaction"]>[0]>[0];
export type DbOrTx = Database["db"] | Tx;

export type EnqueueInput<K extends JobKind = JobKind> = {
  kind: K;
  payload: JobPayload<K>;
  /** A second job with the same key is not created while the first is queued or running. */
  dedupeKey?: string;
  groupKey?: string;
  runAt?: Date;
  maxAttempts?: number;
};

export type JobContext = {
  signal: AbortSignal;
  workerId: string;
  /** Work to run in the same transaction that marks the job done (e.g. "was I the last of my group?"). */
  onComplete(fn: (tx: Tx) => Promise<void>): void;
};

export type JobHandler = (job: JobRow, ctx: JobContext) => Promise<void>;
/** A job as its handler sees it: the payload already checked against its kind's schema. */
export type TypedJob<K extends JobKind> = Omit<JobRow, "kind" | "payload"> & {
  kind: K;
  payload: JobPayload<K>;
};

/** An error that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {}

export type JobQueueOptions = {
  concurrency: number;
  /** A running job's claim lasts this long unless its worker renews it; a dead worker's jobs are reclaimed after it. */
  leaseMs: number;
  /** Fallback poll when no wake-up signal arrives (signals normally wake workers at once). */
  pollMs?: number;
  onFailed?: (job: JobRow, error: Error) => Promise<void>;
};

const WAKE_CHANNEL = "atomize_jobs";
const CANCEL_CHANNEL = "atomize_jobs_cancel";

/**
 * A small durable queue in PostgreSQL (or PGlite): jobs are rows, claimed with
 * `SELECT ... FOR UPDATE SKIP LOCKED` under a lease, so several processes share one table and no job is
 * processed twice; a job whose worker died is claimed again once its lease runs out.
 */
export class JobQueue {
  readonly workerId = `w-${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<number, { job: JobRow; abort: AbortController; done: Promise<void> }>();
  private stopped = true;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private unlisten: Array<() => Promise<void>> = [];

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
    private readonly opts: JobQueueOptions,
  ) {}

  register<K extends JobKind>(kind: K, handler: (job: TypedJob<K>, ctx: JobContext) => Promise<void>): void {
    const schema = jobPayloads[kind];
    this.handlers.set(kind, (job, ctx) => {
      const parsed = schema.safeParse(job.payload);
      if (!parsed.success) {
        throw new PermanentJobError(
          `Job ${job.id} (${kind}) has an invalid payload: ${parsed.error.message}`,
        );
      }
      return handler({ ...job, kind, payload: parsed.data as JobPayload<K> }, ctx);
    });
  }

  /** Adds a job (inside the caller's transaction when given one) and wakes the workers. */
  async enqueue<K extends JobKind>(
    input: EnqueueInput<K>,
    tx: DbOrTx = this.database.db,
  ): Promise<number | null> {
    const rows = await tx
      .insert(jobs)
      .values({
        kind: input.kind,
        payload: input.payload as Record<string, unknown>,
        dedupeKey: input.dedupeKey ?? null,
        groupKey: input.groupKey ?? null,
        runAt: input.runAt ?? new Date(),
        maxAttempts: input.maxAttempts ?? 3,
      })
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    // Wake after the caller's transaction has had a chance to commit; the poll covers the rest.
    setTimeout(() => this.signalWork(), 5);
    return rows[0]?.id ?? null;
  }

  signalWork(): void {
    this.wakeUp?.();
    void this.database.notify(WAKE_CHANNEL, "1").catch(() => {});
  }

  /** Cancels every queued or running job of a group, in every process. */
  async cancelGroup(groupKey: string, tx: DbOrTx = this.database.db): Promise<void> {
    await tx
      .update(jobs)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(and(eq(jobs.groupKey, groupKey), inArray(jobs.status, ["queued", "running"])));
    await this.database.notify(CANCEL_CHANNEL, groupKey);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten.push(await this.database.listen(WAKE_CHANNEL, () => this.wakeUp?.()));
    this.unlisten.push(
      await this.database.listen(CANCEL_CHANNEL, (groupKey) => {
        for (const r of this.running.values())
          if (r.job.groupKey === groupKey) r.abort.abort(new Error("cancelled"));
      }),
    );
    this.loop = this.run();
  }

  /** Stops claiming; running jobs are aborted and released so another worker can take them at once. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    for (const r of this.running.values()) r.abort.abort(new Error("shutting down"));
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    for (const u of this.unlisten.splice(0)) await u().catch(() => {});
  }

  activeCount(): number {
    return this.running.size;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let claimed = false;
      while (!this.stopped && this.running.size < this.opts.concurrency) {
        const job = await this.claim().catch((err) => {
          this.log.error("job claim failed", { err });
          return null;
        });
        if (!job) break;
        claimed = true;
        this.execute(job);
      }
      if (this.stopped) break;
      if (!claimed || this.running.size >= this.opts.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.opts.pollMs ?? 2000);
          this.wakeUp = () => {
            clearTimeout(timer);
            this.wakeUp = null;
            resolve();
          };
        });
      }
    }
  }

  private async claim(): Promise<JobRow | null> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return null;
    const leaseSeconds = this.opts.leaseMs / 1000;
    const rows = resultRows<{ id: number }>(
      await this.database.db.execute(sql`
        update ${jobs} set status = 'running', locked_by = ${this.workerId},
          locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1, updated_at = now()
        where id = (
          select id from ${jobs}
          where kind in ${kinds}
            and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
          order by run_at, id
          limit 1
          for update skip locked)
        returning id`),
    );
    const id = rows[0]?.id;
    if (id === undefined) return null;
    const [job] = await this.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, Number(id)));
    return job ?? null;
  }

  private execute(job: JobRow): void {
    const abort = new AbortController();
    const completions: Array<(tx: Tx) => Promise<void>> = [];
    const renew = setInterval(
      () => {
        void this.database.db
          .update(jobs)
          .set({ lockedUntil: sql`now() + make_interval(secs => ${this.opts.leaseMs / 1000})` })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId), eq(jobs.status, "running")))
          .catch(() => {});
      },
      Math.max(200, this.opts.leaseMs / 3),
    );
    const done = (async () => {
      const handler = this.handlers.get(job.kind)!;
      try {
        await handler(job, {
          signal: abort.signal,
          workerId: this.workerId,
          onComplete: (fn) => completions.push(fn),
        });
        await this.database.db.transaction(async (tx) => {
          const updated = await tx
            .update(jobs)
            .set({ status: "done", lockedUntil: null, updatedAt: new Date() })
            .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId), eq(jobs.status, "running")))
            .returning({ id: jobs.id });
          // Cancelled or reclaimed meanwhile: the completion work belongs to nobody.
          if (updated.length === 0) return;
          for (const fn of completions) await fn(tx);
        });
      } catch (err) {
        await this.fail(job, err as Error, abort.signal.aborted);
      } finally {
        clearInterval(renew);
        this.running.delete(job.id);
        this.wakeUp?.();
      }
    })();
    this.running.set(job.id, { job, abort, done });
  }

  private async fail(job: JobRow, error: Error, aborted: boolean): Promise<void> {
    if (aborted && this.stopped) {
      // Shutting down: hand the job back at once rather than waiting for the lease.
      await this.database.db
        .update(jobs)
        .set({
          status: "queued",
          lockedBy: null,
          lockedUntil: null,
          attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, "running")))
        .catch(() => {});
      return;
    }
    if (aborted) return; // cancelled: the row already says so
    const permanent = error instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    // An error may say how long the other side asked to wait (a Retry-After): the job waits at least that.
    const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
    const backoffMs = Math.max(
      Math.min(30_000, 500 * 2 ** (job.attempts - 1)),
      typeof asked === "number" && Number.isFinite(asked) ? Math.min(asked, 86_400_000) : 0,
    );
    const [row] = await this.database.db
      .update(jobs)
      .set(
        permanent
          ? {
              status: "failed",
              lastError: error.message.slice(0, 2000),
              lockedUntil: null,
              updatedAt: new Date(),
            }
          : {
              status: "queued",
              lastError: error.message.slice(0, 2000),
              lockedBy: null,
              lockedUntil: null,
              runAt: new Date(Date.now() + backoffMs),
              updatedAt: new Date(),
            },
      )
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId), eq(jobs.status, "running")))
      .returning();
    this.log.warn(permanent ? "job failed" : "job will be retried", {
      jobId: job.id,
      kind: job.kind,
      attempt: job.attempts,
      err: error.message,
    });
    if (permanent && row)
      await this.opts.onFailed?.(row, error).catch((err) => this.log.error("onFailed failed", { err }));
  }
}
