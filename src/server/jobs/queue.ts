import { randomUUID } from "node:crypto";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { insertRowsAsJson } from "../db/json-rows";
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
  /**
   * Marks the job done inside the handler's own transaction, with its onComplete work, so the job's
   * writes and its completion commit together (one transaction instead of two). Call it last in a
   * transaction whose failure fails the job. False when the job is no longer this worker's (cancelled,
   * or reclaimed after its lease ran out): the completion work is then skipped, as it would be anyway.
   */
  completeIn(tx: Tx): Promise<boolean>;
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
function jobValues(input: EnqueueInput) {
  return {
    kind: input.kind,
    payload: input.payload as Record<string, unknown>,
    dedupeKey: input.dedupeKey ?? null,
    groupKey: input.groupKey ?? null,
    runAt: input.runAt ?? new Date(),
    maxAttempts: input.maxAttempts ?? 3,
  };
}

export class JobQueue {
  readonly workerId = `w-${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<number, { job: JobRow; abort: AbortController; done: Promise<void> }>();
  private stopped = true;
  private wakeUp: (() => void) | null = null;
  private wakePending = false;
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
    const [id] = await this.enqueueMany([input], tx);
    return id ?? null;
  }

  /**
   * Adds several jobs in one statement (inside the caller's transaction when given one) and wakes the
   * workers once. Returns the ids of the jobs created (a job whose dedupe key is taken is not).
   */
  async enqueueMany(inputs: EnqueueInput[], tx: DbOrTx = this.database.db): Promise<number[]> {
    if (inputs.length === 0) return [];
    const rows = await tx
      .insert(jobs)
      .values(inputs.map(jobValues))
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    await this.wakeAfterCommit(tx);
    return rows.map((r) => r.id);
  }

  /**
   * The same as `enqueueMany` inside a transaction, for a caller that writes the jobs as part of a
   * statement of its own (a data-modifying CTE, in its transaction) to save a round trip: `insert` is
   * the insert, `wake` an expression to select in that statement (PostgreSQL's NOTIFY, delivered at
   * commit) or null, and `written` must be called once the statement has run.
   */
  prepareEnqueue(inputs: EnqueueInput[]): { insert: SQL; wake: SQL | null; written(): void } {
    const insert = insertRowsAsJson(jobs, inputs.map(jobValues), { onConflictDoNothing: true });
    if (this.database.driver === "postgres") {
      return { insert, wake: sql`pg_notify(${WAKE_CHANNEL}, '')`, written: () => {} };
    }
    return { insert, wake: null, written: () => this.signalWork() };
  }

  /**
   * Wakes the workers of every process once the jobs just written are visible. Inside a PostgreSQL
   * transaction, NOTIFY is delivered at commit (and not at all on rollback), so no worker looks before
   * the rows are there. PGlite runs every query after the open transaction ends, so a claim made now
   * already sees its outcome.
   */
  private async wakeAfterCommit(tx: DbOrTx): Promise<void> {
    if (this.database.driver === "postgres" && tx !== this.database.db) {
      await tx.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
      return;
    }
    this.signalWork();
  }

  /** Wakes this process's workers now and the other processes' through NOTIFY. */
  signalWork(): void {
    this.wake();
    // Only another process needs it (this one is awake); PGlite is never shared between processes.
    if (this.database.driver === "postgres")
      void this.database.notify(WAKE_CHANNEL, this.workerId).catch(() => {});
  }

  /** The loop claims again before it sleeps if a wake-up came while it was busy. */
  private wake(): void {
    this.wakePending = true;
    this.wakeUp?.();
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
    this.unlisten.push(
      await this.database.listen(WAKE_CHANNEL, (from) => {
        if (from !== this.workerId) this.wake();
      }),
    );
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
    this.wake();
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
      this.wakePending = false;
      const free = this.opts.concurrency - this.running.size;
      if (free > 0) {
        const claimed = await this.claim(free).catch((err) => {
          this.log.error("job claim failed", { err });
          return [];
        });
        for (const job of claimed) this.execute(job);
        // All it asked for: there may be more.
        if (claimed.length === free && !this.stopped) continue;
      }
      if (this.stopped) break;
      if (this.wakePending) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.pollMs ?? 2000);
        this.wakeUp = () => {
          clearTimeout(timer);
          this.wakeUp = null;
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  /** Claims up to `limit` due jobs (or jobs whose lease ran out) in one statement, oldest first. */
  private async claim(limit: number): Promise<JobRow[]> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return [];
    const leaseSeconds = this.opts.leaseMs / 1000;
    const rows = await this.database.db
      .update(jobs)
      .set({
        status: "running",
        lockedBy: this.workerId,
        lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
        attempts: sql`${jobs.attempts} + 1`,
        updatedAt: sql`now()`,
      })
      .where(
        sql`${jobs.id} in (
          select id from ${jobs}
          where kind in ${kinds}
            and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
          order by run_at, id
          limit ${limit}
          for update skip locked)`,
      )
      .returning();
    return rows.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
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
    let completedInHandler = false;
    const complete = async (tx: Tx): Promise<boolean> => {
      const updated = await tx
        .update(jobs)
        .set({ status: "done", lockedUntil: null, updatedAt: new Date() })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId), eq(jobs.status, "running")))
        .returning({ id: jobs.id });
      // Cancelled or reclaimed meanwhile: the completion work belongs to nobody.
      if (updated.length === 0) return false;
      for (const fn of completions.splice(0)) await fn(tx);
      return true;
    };
    const done = (async () => {
      const handler = this.handlers.get(job.kind)!;
      try {
        await handler(job, {
          signal: abort.signal,
          workerId: this.workerId,
          onComplete: (fn) => completions.push(fn),
          completeIn: (tx) => {
            completedInHandler = true;
            return complete(tx);
          },
        });
        if (!completedInHandler) await this.database.db.transaction(complete);
      } catch (err) {
        await this.fail(job, err as Error, abort.signal.aborted);
      } finally {
        clearInterval(renew);
        this.running.delete(job.id);
        this.wake();
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
      // The error itself, which the logger scrubs: a failed query's message carries its parameters.
      err: error,
    });
    if (permanent && row)
      await this.opts.onFailed?.(row, error).catch((err) => this.log.error("onFailed failed", { err }));
  }
}
