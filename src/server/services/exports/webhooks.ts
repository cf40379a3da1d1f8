import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { remoteItemChanges, webhookDeliveries, webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { consumeRateLimit, perAddress } from "../auth/rate-limit";
import { applyPullRequestEvent, readPullRequestEvent } from "./github/pull-request-events";
import {
  applyRemoteState,
  closedUndone,
  itemsFor,
  jiraRead,
  pointsFromLabels,
  type RemoteState,
} from "./sync";
import { announceTrackerChanges, type RemoteSnapshot, reviewItem } from "./tracker-changes";

/**
 * Webhooks that bring status changes from GitHub and JIRA as they happen (issue 13's two-way sync).
 *
 * Each user has one endpoint per service, `/api/hooks/{kind}/{id}`, with a secret they paste into the
 * service's webhook settings (shown once; creating it again makes a new one). A delivery is accepted only
 * when its signature is the HMAC-SHA256 of the raw body with that secret:
 * - GitHub: `X-Hub-Signature-256: sha256=<hex>` ("Validating webhook deliveries", docs.github.com/webhooks);
 *   `X-GitHub-Event: issues` with action closed or reopened moves the task; `ping` is acknowledged.
 * - JIRA Cloud: `X-Hub-Signature: sha256=<hex>` (admin webhooks with a secret, "Webhooks" in Atlassian's
 *   JIRA Cloud platform documentation); `jira:issue_updated` carries the issue's status.
 * - Trello: `X-Trello-Webhook`, the base64 HMAC-SHA1 of the body followed by the callback URL, with the
 *   Trello application's secret (the one for the user's API key, which they give Atomize: Trello makes it,
 *   not us; "Webhooks" in Trello's REST API guides). Trello checks the URL with a HEAD first. Exports to
 *   Trello register the board's webhook themselves. `updateCard` with a new list moves the task.
 * A bad or missing signature is 401 and changes nothing; an item no export of this user made is ignored
 * (202) and logged.
 *
 * Replays and order (issue 27). A delivery can arrive twice, and late:
 * - GitHub: a redelivery (asked for by hand or by script, for deliveries of the past 3 days; GitHub does not
 *   retry by itself) keeps the original `X-GitHub-Delivery`, the header GitHub advises checking against
 *   replay attacks ("Best practices for using webhooks", docs.github.com);
 * - JIRA Cloud retries on 408, 409, 425, 429, a 5xx or a timeout, for up to about 30 minutes ("Webhooks",
 *   retry policy, developer.atlassian.com/cloud/jira/platform/webhooks). Each delivery carries
 *   `X-Atlassian-Webhook-Identifier`, the id its failed-webhooks API reports it by; it is the same on every
 *   retry and unique only within a site (as jira.js's `WebhookHeaders` documents it);
 * - Trello sends no delivery header, but each action has its own id (`action.id`, inside the signed body).
 * So:
 * - each signed delivery's id is kept for `WEBHOOK_DELIVERY_WINDOW_MS`; a second one is answered 202
 *   `duplicate` and applies nothing (a 2xx, or the service would keep retrying it). The id is taken after
 *   the signature is checked (a forged request cannot use up an id) and by one insert, so of two copies
 *   arriving at once one applies;
 * - a status change applies only when it is not older, by the service's clock (GitHub's
 *   `issue.updated_at`, JIRA's `timestamp`, Trello's `action.date`), than the last one applied to that
 *   item (remote_item_changes); an older one is answered 202 `stale`. An equal time applies:
 *   GitHub's times are to the second, two changes within one must both count, and the same state again
 *   changes nothing.
 */

export type HookKind = "github" | "jira" | "trello";
/**
 * How long a delivery id is kept: longer than any service sends the same delivery again (GitHub redelivers
 * deliveries of the past 3 days, on request; JIRA retries for about 30 minutes).
 */
export const WEBHOOK_DELIVERY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Expired ids deleted with each new one: enough to keep up, never a long delete on a delivery's path. */
const EXPIRED_PER_DELIVERY = 100;

const notFound = () => new AppError("NOT_FOUND", "Webhook not found");

export function webhookUrl(deps: Deps, kind: HookKind, id: string) {
  return `${deps.config.publicOrigin}/api/hooks/${kind}/${id}`;
}

/**
 * Creates (or replaces) the user's endpoint for a service; the secret is shown this once. Trello's is the
 * application secret the user gives (Trello signs with it); the others are made here.
 */
export async function createWebhook(
  deps: Deps,
  userId: string,
  kind: HookKind,
  given?: string,
): Promise<{ kind: HookKind; url: string; secret: string }> {
  if (kind === "trello" && !given) {
    const message = "Give your Trello application secret (trello.com/power-ups/admin).";
    throw new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "secret", message }] });
  }
  if (kind !== "trello" && given) {
    const message = "Atomize makes this webhook's secret itself.";
    throw new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "secret", message }] });
  }
  const secret = given ?? randomBytes(24).toString("base64url");
  const sealed = deps.vault.encrypt(secret);
  const [row] = await deps.db
    .insert(webhookEndpoints)
    .values({ userId, kind, secretCiphertext: sealed })
    .onConflictDoUpdate({
      target: [webhookEndpoints.userId, webhookEndpoints.kind],
      set: { secretCiphertext: sealed, lastDeliveryAt: null },
    })
    .returning({ id: webhookEndpoints.id });
  return { kind, url: webhookUrl(deps, kind, row!.id), secret };
}

/** The user's endpoints (never their secrets). */
export async function listWebhooks(deps: Deps, userId: string) {
  const rows = await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return {
    webhooks: rows.map((r) => ({
      kind: r.kind,
      url: webhookUrl(deps, r.kind, r.id),
      last_delivery_at: r.lastDeliveryAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Trello's: base64 HMAC-SHA1 of the body and the callback URL as registered. Trello documented signing
 * the text as a "binary" string (each character's lowest 8 bits: U+2013 is the byte 19), then removed that
 * caveat because it had "accidentally fixed" it (its api-docs repository, commits 1a51337 and e47b0d5):
 * both forms are accepted, so a board, card or member name with "é" or "—" is not refused either way.
 * Both need the secret; ASCII text signs the same in each.
 */
export function trelloSignatureOk(
  secret: string,
  raw: Buffer,
  callbackUrl: string,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = Buffer.from(header.trim(), "base64");
  const binary = Buffer.from(raw.toString("utf8") + callbackUrl, "latin1");
  const utf8 = Buffer.concat([raw, Buffer.from(callbackUrl)]);
  return [binary, utf8].some((signed) => {
    const expected = createHmac("sha1", secret).update(signed).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function signatureOk(secret: string, raw: Buffer, header: string | undefined): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!m) return false;
  const expected = createHmac("sha256", secret).update(raw).digest();
  const given = Buffer.from(m[1]!, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type Delivery = { raw: Buffer; headers: Record<string, string | undefined> };

export type WebhookOutcome = { status: "applied" | "ignored" | "duplicate" | "stale"; changed: number };

/** Handles one delivery; throws 404 (no such endpoint), 401 (signature), 429 (too many bad ones) or 400 (not JSON). */
export async function receiveWebhook(
  deps: Deps,
  kind: HookKind,
  id: string,
  delivery: Delivery,
  ip: string | null = null,
): Promise<WebhookOutcome> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const [endpoint] = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.kind, kind)))
    .limit(1);
  if (!endpoint) throw notFound();
  const secret = deps.vault.decrypt(endpoint.secretCiphertext);
  const signed =
    kind === "trello"
      ? trelloSignatureOk(
          secret,
          delivery.raw,
          webhookUrl(deps, kind, id),
          delivery.headers["x-trello-webhook"],
        )
      : signatureOk(
          secret,
          delivery.raw,
          kind === "github" ? delivery.headers["x-hub-signature-256"] : delivery.headers["x-hub-signature"],
        );
  if (!signed) {
    // Refusals are counted per address: past WEBHOOK_BAD_SIGNATURES_PER_MINUTE a source gets 429, and only the
    // first refusal of each minute is logged, so a flood of forged deliveries cannot fill the log (issue 39).
    const count = await consumeRateLimit(
      deps,
      {
        key: perAddress("webhook-signature", ip),
        max: deps.config.WEBHOOK_BAD_SIGNATURES_PER_MINUTE,
        windowMs: 60_000,
      },
      "Too many webhook deliveries with a bad signature from this address. Please wait a minute.",
    );
    if (count === 1)
      deps.log.warn("webhook signature refused", {
        kind,
        webhookId: id,
        note: "further refusals from this address this minute are counted, not logged",
      });
    throw new AppError("UNAUTHORIZED", "The webhook's signature does not match its secret.");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.raw.toString("utf8"));
  } catch {
    throw new AppError("BAD_REQUEST", "The webhook's body is not JSON.");
  }
  await deps.db
    .update(webhookEndpoints)
    .set({ lastDeliveryAt: new Date() })
    .where(eq(webhookEndpoints.id, id));
  const key = deliveryKey(kind, delivery.headers, payload);
  if (key && !(await claimDelivery(deps, id, key))) {
    deps.log.info("webhook delivery already taken", { kind, webhookId: id, deliveryId: key });
    return { status: "duplicate", changed: 0 };
  }
  try {
    return await applyDelivery(deps, kind, id, endpoint.userId, delivery, payload);
  } catch (err) {
    // Nothing or only part was applied: the service's retry of this delivery must not be taken as a copy.
    if (key)
      await deps.db
        .delete(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.deliveryId, key)))
        .catch(() => {});
    throw err;
  }
}

async function applyDelivery(
  deps: Deps,
  kind: HookKind,
  id: string,
  userId: string,
  delivery: Delivery,
  payload: unknown,
): Promise<WebhookOutcome> {
  if (kind === "github" && delivery.headers["x-github-event"] === "pull_request") {
    // A pull request that closes exported issues: the Requirements view lists it (github/pull-request-events.ts).
    const event = readPullRequestEvent(payload, deps.config.GITHUB_API_URL);
    if (!event) return { status: "ignored", changed: 0 };
    const { plans, linked, stale } = await applyPullRequestEvent(deps, userId, event);
    if (stale) return { status: "stale", changed: 0 };
    if (plans.length === 0) return { status: "ignored", changed: 0 };
    for (const rootId of plans) {
      await deps.events.publish({
        type: "task.updated",
        userId,
        taskId: rootId,
        rootTaskId: rootId,
        message: "Pull requests linked",
        data: { pull_requests_changed: true },
      });
    }
    return { status: "applied", changed: linked };
  }
  const change =
    kind === "github"
      ? githubChange(delivery.headers["x-github-event"], payload)
      : kind === "jira"
        ? jiraChange(payload)
        : trelloChange(payload);
  if (!change) return { status: "ignored", changed: 0 };
  const items = (await itemsFor(deps, userId, kind, [change.remoteId])).filter((it) => matches(it, change));
  if (items.length === 0) {
    deps.log.info("webhook for an item no export made", { kind, webhookId: id, remoteId: change.remoteId });
    return { status: "ignored", changed: 0 };
  }
  let changed = 0;
  let applied = 0;
  for (const item of items) {
    if (change.at && !(await claimChangeTime(deps, item.id, change.at))) continue;
    applied += 1;
    if (change.state && (await applyRemoteState(deps, item, change.state, { changed: true, at: change.at })))
      changed += 1;
    const review = await reviewItem(deps, item, change.snap, change.at ?? new Date());
    await announceTrackerChanges(deps, userId, item.rootTaskId, review, item.kind);
  }
  if (applied === 0) {
    deps.log.info("webhook older than the change applied", {
      kind,
      webhookId: id,
      remoteId: change.remoteId,
    });
    return { status: "stale", changed: 0 };
  }
  return { status: "applied", changed };
}

/**
 * Whether a delivery is about this item: a JIRA issue on the same site and project (a key alone, such
 * as ABC-1, exists on every site that has an ABC project); a GitHub issue in the same repository by its
 * id, which survives renames (items exported before ids were kept match by name); a Trello card on the
 * same board.
 */
function matches(item: { target: string; containerId: string | null }, change: Change): boolean {
  if (change.site !== undefined) return item.target === change.site;
  if (change.containerId !== undefined && item.containerId) return item.containerId === change.containerId;
  return change.target === undefined || item.target === change.target;
}

/**
 * The delivery's id as kept: GitHub's and JIRA's header (JIRA's with the site from the issue's `self`,
 * since it is unique only within a site), Trello's action id. Null when there is none (the delivery is
 * then applied without this check; ordering still holds). Long ids are kept as their hash.
 */
function deliveryKey(kind: HookKind, headers: Delivery["headers"], p: unknown): string | null {
  let key: string | null = null;
  if (kind === "github") key = headers["x-github-delivery"]?.trim() || null;
  else if (kind === "jira") {
    const given = headers["x-atlassian-webhook-identifier"]?.trim();
    const self = isRecord(p) && isRecord(p.issue) ? str(p.issue.self) : null;
    let site = "";
    try {
      if (self) site = new URL(self).origin;
    } catch {
      // no site: the identifier alone
    }
    key = given ? (site ? `${site}|${given}` : given) : null;
  } else key = isRecord(p) && isRecord(p.action) ? str(p.action.id) : null;
  if (!key) return null;
  return key.length <= 200 ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/**
 * Takes a delivery id for this endpoint, in one statement so two copies arriving together cannot both
 * take it; an id older than the window is free again. Returns false for one already taken. Each new id
 * also deletes a few expired ones.
 */
async function claimDelivery(deps: Deps, webhookId: string, deliveryId: string): Promise<boolean> {
  const now = new Date();
  const expired = new Date(now.getTime() - WEBHOOK_DELIVERY_WINDOW_MS);
  const taken = await deps.db
    .insert(webhookDeliveries)
    .values({ webhookId, deliveryId, receivedAt: now })
    .onConflictDoUpdate({
      target: [webhookDeliveries.webhookId, webhookDeliveries.deliveryId],
      set: { receivedAt: now },
      setWhere: lt(webhookDeliveries.receivedAt, expired),
    })
    .returning({ deliveryId: webhookDeliveries.deliveryId });
  if (taken.length === 0) return false;
  await deps.db.execute(sql`
    delete from ${webhookDeliveries}
    where (webhook_id, delivery_id) in (
      select webhook_id, delivery_id from ${webhookDeliveries}
      where received_at < ${expired.toISOString()}::timestamptz
      limit ${EXPIRED_PER_DELIVERY})`);
  return true;
}

/**
 * Records a change's time for its item unless a later one was applied, in one statement (two deliveries
 * about one item cannot both pass a check made before either writes); returns whether it may apply.
 */
async function claimChangeTime(deps: Deps, remoteItemId: string, at: Date): Promise<boolean> {
  const rows = await deps.db
    .insert(remoteItemChanges)
    .values({ remoteItemId, changedAt: at })
    .onConflictDoUpdate({
      target: remoteItemChanges.remoteItemId,
      set: { changedAt: at },
      setWhere: sql`${remoteItemChanges.changedAt} <= ${at.toISOString()}::timestamptz`,
    })
    .returning({ id: remoteItemChanges.remoteItemId });
  return rows.length > 0;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const str = (v: unknown) => (typeof v === "string" ? v : null);
/** A time from a payload (ISO text or epoch milliseconds), or null. */
const time = (v: unknown): Date | null => {
  const ms = typeof v === "number" ? v : typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
};

/**
 * What a delivery says changed: the item, where it lives, its new status (only when the delivery is a
 * status change), the item's fields as it says them now (for review), and when (by the service's clock).
 */
type Change = {
  remoteId: string;
  /** GitHub "owner/repo" (lower case), a Trello board id. */
  target?: string;
  /** JIRA: "<site origin>|<project key>", the whole target. */
  site?: string;
  /** GitHub: the repository's id. */
  containerId?: string;
  state: RemoteState | null;
  snap: RemoteSnapshot;
  at: Date | null;
};

/**
 * An `issues` event: opened/closed/reopened/edited/labeled/unlabeled... The status applies only on closed
 * and reopened; the issue's title, body and story-point label go to review whatever the action.
 */
function githubChange(event: string | undefined, p: unknown): Change | null {
  if (event !== "issues" || !isRecord(p) || !isRecord(p.issue) || !isRecord(p.repository)) return null;
  const number = p.issue.number;
  const repo = str(p.repository.full_name);
  const repoId = p.repository.id;
  const state = str(p.issue.state);
  if (!Number.isInteger(number) || !repo || !state) return null;
  const remote: RemoteState = { kind: "github", state, reason: str(p.issue.state_reason) };
  const labels = Array.isArray(p.issue.labels)
    ? p.issue.labels.map((l) => (isRecord(l) ? (str(l.name) ?? "") : typeof l === "string" ? l : ""))
    : null;
  const title = str(p.issue.title);
  const body = p.issue.body === null ? "" : str(p.issue.body);
  return {
    remoteId: String(number),
    target: repo.toLowerCase(),
    ...(typeof repoId === "number" && Number.isInteger(repoId) ? { containerId: String(repoId) } : {}),
    state: ["closed", "reopened"].includes(String(p.action)) ? remote : null,
    snap: {
      ...(title !== null ? { title } : {}),
      ...(body !== null ? { text: body } : {}),
      ...(labels ? { story_points: pointsFromLabels(labels, /^sp: (\d+)$/) } : {}),
      closed: closedUndone(remote),
    },
    at: time(p.issue.updated_at),
  };
}

/**
 * A `jira:issue_updated` event. It fires on any edit, our own re-export's too, so the status applies only
 * when the delivery's changelog has a status item; the issue's fields go to review. The site is the
 * issue's `self` URL's origin: without it the delivery cannot be told from another site's and is ignored.
 */
function jiraChange(p: unknown): Change | null {
  if (!isRecord(p) || p.webhookEvent !== "jira:issue_updated" || !isRecord(p.issue)) return null;
  const key = str(p.issue.key);
  const self = str(p.issue.self);
  if (!key || !self || !/^[A-Z][A-Z0-9_]*-\d+$/.test(key)) return null;
  let origin: string;
  try {
    origin = new URL(self).origin;
  } catch {
    return null;
  }
  const read = jiraRead(p.issue as Parameters<typeof jiraRead>[0]);
  const changelog = isRecord(p.changelog) && Array.isArray(p.changelog.items) ? p.changelog.items : null;
  // A changed field by its id ("status"), or by its name where a delivery has no id ("Status").
  const changed = (id: string) =>
    (changelog ?? []).some(
      (i) =>
        isRecord(i) &&
        (i.fieldId === id || (i.fieldId === undefined && String(i.field).toLowerCase() === id)),
    );
  const fields = isRecord(p.issue.fields) ? p.issue.fields : {};
  // The description is judged only when the changelog says it changed: a status move or a re-export of
  // ours that left it alone says nothing new about it, however the delivery writes it (v2 wiki markup).
  const { text: _text, ...rest } = read.snap;
  const snap = changelog && !changed("description") ? rest : read.snap;
  return {
    remoteId: key,
    site: `${origin}|${key.slice(0, key.lastIndexOf("-"))}`,
    state: changed("status") && isRecord(fields.status) ? read.state : null,
    snap,
    at: time(p.timestamp) ?? read.at,
  };
}

/**
 * Trello's `updateCard`: a new list moves the task; a new name or description (`data.old` names what
 * changed) goes to review; archiving a card is closing it there.
 */
function trelloChange(p: unknown): Change | null {
  if (!isRecord(p) || !isRecord(p.action) || p.action.type !== "updateCard" || !isRecord(p.action.data))
    return null;
  const data = p.action.data;
  const card = isRecord(data.card) ? data.card : null;
  const cardId = card ? str(card.id) : null;
  const list = isRecord(data.listAfter) ? str(data.listAfter.name) : null;
  const board = isRecord(data.board) ? str(data.board.id) : null;
  if (!card || !cardId) return null;
  const old = isRecord(data.old) ? data.old : {};
  const snap: RemoteSnapshot = {};
  if ("name" in old && str(card.name) !== null) snap.title = str(card.name)!;
  if ("desc" in old && str(card.desc) !== null) snap.text = str(card.desc)!;
  if ("closed" in old && card.closed === true) snap.closed = "archived";
  if (!list && Object.keys(snap).length === 0) return null;
  return {
    remoteId: cardId,
    ...(board ? { target: board } : {}),
    state: list ? { kind: "trello", list } : null,
    snap,
    at: time(p.action.date),
  };
}

/** The user's webhook URL for a service, when they made one (exports to Trello register it). */
export async function webhookUrlFor(deps: Deps, userId: string, kind: HookKind): Promise<string | null> {
  const [row] = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.kind, kind)))
    .limit(1);
  return row ? webhookUrl(deps, kind, row.id) : null;
}

/** Whether an endpoint exists (Trello's HEAD check before it registers a webhook). */
export async function webhookExists(deps: Deps, kind: HookKind, id: string): Promise<boolean> {
  if (!UUID_PATTERN.test(id)) return false;
  const [row] = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.kind, kind)))
    .limit(1);
  return Boolean(row);
}
