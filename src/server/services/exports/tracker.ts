import type { z } from "zod";
import type { ExportKind, exportPreviewInput } from "../../../shared/schemas/integrations";
import type { TaskStatus, TaskTreeNode } from "../../../shared/schemas/tasks";
import type { exports, RemoteBaseline, remoteItems } from "../../db/schema/index";
import { hmacSha256, sameMac } from "../../lib/mac";

/**
 * One tracker (JIRA with Confluence, GitHub, Trello) is one module behind this interface (decision 038),
 * written as a port over the services' dependencies `D` so this file names no Deps and Deps can name it
 * without an import circle; tracker-deps.ts binds it to Deps (`Tracker`, `ExportContext`, `Exporter`):
 * how an export to it starts and runs, how its items are read back ("Sync now"), and how its webhooks are
 * verified and read. The services that use trackers (exports.ts, runner.ts, sync.ts, webhooks.ts) ask
 * `deps.trackers[kind]` and never name one; server.ts registers them. docs/recipes/add-a-tracker.md walks
 * through adding one.
 */
export type TrackerPort<D> = {
  kind: ExportKind;
  /** Starting an export: the credentials and options the job runs with, from the request or the stored connection. */
  start(deps: D, userId: string, input: TrackerStartInput): Promise<StartedExport>;
  /** The place a preview is about ("site|project", "owner/repo", a board id), or null when the input names none. */
  previewTarget(deps: D, userId: string, input: z.output<typeof exportPreviewInput>): Promise<string | null>;
  /** Runs an export (runner.ts calls prepare, then run). */
  exporter: ExporterPort<D>;
  /** "Sync now": what the service says now about the items exports made in one place, and what people added there. */
  read(deps: D, userId: string, target: string, items: RemoteItemRow[]): Promise<Reading>;
  /** Anything more a sync of one place brings (GitHub: pull requests closing its issues); problems, in words. */
  afterRead?(
    deps: D,
    userId: string,
    rootId: string,
    target: string,
    items: RemoteItemRow[],
  ): Promise<string[]>;
  webhook: TrackerWebhookPort<D>;
};

/**
 * The input of a start operation after its schema (shared/schemas/integrations.ts): each tracker reads
 * its own; `task_id` (or `task_tree`) names the plan.
 */
export type TrackerStartInput = {
  task_id?: string | undefined;
  task_tree?: { task_id?: string; id?: string } | undefined;
  config: Record<string, unknown>;
};

export type StartedExport = {
  /** Sealed before it is stored, and opened only by the job. */
  secret: Record<string, string>;
  /** Kept with the export, shown to no one else: never a secret. */
  config: Record<string, unknown>;
};

export type TrackerWebhookPort<D> = {
  /** Atomize makes the secret ("made"), or the user gives the service's own (Trello's application secret), asked for in `ask`. */
  secret: { made: true } | { made: false; ask: string };
  /** Whether a delivery is signed with the secret; `url` is the endpoint's own, which some services sign too. */
  verify(secret: string, raw: Buffer, url: string, headers: WebhookHeaders): boolean;
  /** The delivery's id for replay checks (the same on every retry of it), or null when it has none. */
  deliveryId(headers: WebhookHeaders, payload: unknown): string | null;
  /** The item change a delivery carries, or null when it carries none this tracker reads. */
  change(headers: WebhookHeaders, payload: unknown): Change | null;
  /** A delivery that is not an item change (GitHub's `pull_request`), handled whole; undefined: read it with `change`. */
  handle?(
    deps: D,
    userId: string,
    headers: WebhookHeaders,
    payload: unknown,
  ): Promise<WebhookOutcome | undefined>;
};

export type WebhookHeaders = Record<string, string | undefined>;
export type WebhookOutcome = { status: "applied" | "ignored" | "duplicate" | "stale"; changed: number };

export type RemoteItemRow = typeof remoteItems.$inferSelect;

/**
 * A status there, as its tracker reads it:
 * - `text`, in people's words, as the tree shows it ("In Progress", "closed (not planned)");
 * - `means`, what it says of the work: done, started, not started; "open" only undoes a completion (a
 *   reopened GitHub issue); null says nothing (closed without the work done, a list Atomize did not make).
 */
export type RemoteStatus = {
  text: string;
  means: "completed" | "in_progress" | "pending" | "open" | null;
};

/** An item as read there now. A field left undefined was not read (the service keeps none, or the read skipped it). */
export type RemoteSnapshot = {
  title?: string;
  text?: string;
  story_points?: number | null;
  /** The parent's id there (null: top level). */
  parent?: string | null;
  /** Closed there without being done, in the service's words ("closed (not planned)", "archived"). */
  closed?: string | null;
};

/** An item made there that no export made, found under an exported item or marked for Atomize. */
export type AddedItem = {
  remoteId: string;
  key: string;
  url: string;
  title: string;
  text: string;
  /** The exported item it sits under there, if any. */
  parent: string | null;
};

/** The statuses a remote change may set (the ones a person may set with PATCH). */
export type SyncedStatus = "completed" | "in_progress" | "pending";

/** The task status a remote status stands for, or null for "leave it" (the same rule for every tracker). */
export function taskStatusFor(remote: RemoteStatus, current: TaskStatus): SyncedStatus | null {
  const wanted = remote.means === "open" ? (current === "completed" ? "pending" : null) : remote.means;
  return wanted === current ? null : wanted;
}

/** What one service says about the items of one place, by remote id; and the items people added there. */
export type Reading = {
  items: Map<string, { state: RemoteStatus; snap: RemoteSnapshot; at: Date | null }>;
  added: AddedItem[];
};

/**
 * What a delivery says changed: the item, where it lives, its new status (only when the delivery is a
 * status change), the item's fields as it says them now (for review), and when (by the service's clock).
 * `site`, `containerId` and `target` say where the item lives, so a delivery matches only the items of
 * that place (webhooks.ts `matches`).
 */
export type Change = {
  remoteId: string;
  /** GitHub "owner/repo" (lower case), a Trello board id. */
  target?: string;
  /** JIRA: "<site origin>|<project key>", the whole target. */
  site?: string;
  /** GitHub: the repository's id. */
  containerId?: string;
  state: RemoteStatus | null;
  snap: RemoteSnapshot;
  at: Date | null;
};

// ---- exports: what runner.ts runs ----------------------------------------------------------------------

export type ExportRow = typeof exports.$inferSelect;

export type ExportContextPort<D> = {
  deps: D;
  row: ExportRow;
  tree: TaskTreeNode;
  config: Record<string, unknown>;
  secret: Record<string, string>;
  signal: AbortSignal;
  /** What this export created so far (ids, keys): saved after every step so a retry resumes. */
  state: Record<string, unknown>;
  saveState(): Promise<void>;
  /** Reports a step; progress never goes backwards. */
  progress(step: string, percent: number, message: string): Promise<void>;
};

/** What an export made for one task, kept for links, sync and re-export (schema remote_items). */
export type RemoteItem = {
  task_id: string;
  remote_id: string;
  key: string;
  url: string;
  /** Its parent's remote id, where the service links parents (GitHub sub-issues). */
  parent?: string | null;
  /**
   * What the export wrote there, in the service's words as it reads them back (title/summary/name, the
   * body or description as plain text, story points, the parent's remote id): the baseline a later edit
   * there is compared with (tracker-changes.ts).
   */
  sent?: RemoteBaseline;
};

/** An exporter's result; `remote` (where, and what it made there) is kept apart, not shown as the result. */
export type ExportOutcome = Record<string, unknown> & {
  /** `container`: the place's id that outlives renames (a GitHub repository's numeric id). */
  remote?: { target: string; container?: string; items: RemoteItem[] };
};

/** What an exporter will write, worked out before the first write. */
export type ExportPlan = {
  /** How many of each thing it will create (the ones a resumed export made already included), for the log. */
  writes: Record<string, number>;
};

/**
 * An export target. The runner calls `prepare`, then `run` with what it returned, and nothing else.
 * - `prepare` checks the credentials and options against the target and computes the plan; it writes
 *   nothing, so a refusal there leaves the target untouched.
 * - `run` performs the plan: it saves `ctx.state` after each step (a retry resumes and creates nothing
 *   twice), reports progress through `ctx.progress`, and returns the export's result.
 * Failures are IntegrationError (retryable or not) or PermanentJobError.
 */
export type ExporterPort<D, Plan extends ExportPlan = ExportPlan> = {
  prepare(ctx: ExportContextPort<D>): Promise<Plan>;
  run(ctx: ExportContextPort<D>, plan: Plan): Promise<ExportOutcome>;
};

/** Every tracker by its kind, passed in Deps (server.ts builds it): no registration by import side effect. */
export type TrackersPort<D> = Record<ExportKind, TrackerPort<D>>;

// ---- helpers the trackers share ------------------------------------------------------------------------

/** Depth-first walk of a tree (the root excluded). */
export function subtasksOf(tree: TaskTreeNode): TaskTreeNode[] {
  const out: TaskTreeNode[] = [];
  const visit = (n: TaskTreeNode) => {
    for (const c of n.children) {
      out.push(c);
      visit(c);
    }
  };
  visit(tree);
  return out;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
export const str = (v: unknown) => (typeof v === "string" ? v : null);

/** A time from a service (ISO text, or epoch milliseconds in a payload), or null. */
export function time(v: unknown): Date | null {
  const ms = typeof v === "number" ? v : typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** Story points from the labels an export sets ("story-points-5" on JIRA, "sp: 5" on GitHub). */
export function pointsFromLabels(labels: readonly string[], pattern: RegExp): number | null {
  for (const l of labels) {
    const m = pattern.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}

/** A `sha256=<hex>` signature header (GitHub's `X-Hub-Signature-256`, JIRA's `X-Hub-Signature`): HMAC-SHA256 of the raw body. */
export function hubSignatureOk(secret: string, raw: Buffer, header: string | undefined): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!m) return false;
  return sameMac(Buffer.from(m[1]!, "hex"), hmacSha256(secret, raw));
}
