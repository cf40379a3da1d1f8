import { createHash, randomBytes } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { ExportKind } from "../../../shared/schemas/integrations";
import { remoteItemChanges, webhookDeliveries, webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { consumeRateLimit, perAddress } from "../auth/rate-limit";
import { applyRemoteState, itemsFor } from "./sync";
import type { Change, WebhookHeaders, WebhookOutcome } from "./tracker";
import { announceTrackerChanges, reviewItem } from "./tracker-changes";

/**
 * Webhooks that bring status changes from the trackers as they happen (issue 13's two-way sync). What is
 * the same for every tracker is here; how each signs, names and words a delivery is its tracker's
 * (`Tracker.webhook`, tracker.ts).
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

export type HookKind = ExportKind;
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
  const rule = deps.trackers[kind].webhook.secret;
  if (!rule.made && !given) {
    const message = rule.ask;
    throw new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "secret", message }] });
  }
  if (rule.made && given) {
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

export type Delivery = { raw: Buffer; headers: WebhookHeaders };

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
  const tracker = deps.trackers[kind].webhook;
  if (!tracker.verify(secret, delivery.raw, webhookUrl(deps, kind, id), delivery.headers)) {
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
  const key = keptId(tracker.deliveryId(delivery.headers, payload));
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
  const tracker = deps.trackers[kind].webhook;
  const handled = await tracker.handle?.(deps, userId, delivery.headers, payload);
  if (handled) return handled;
  const change = tracker.change(delivery.headers, payload);
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
 * The delivery's id as kept (each tracker says what its deliveries are known by: GitHub's and JIRA's header,
 * JIRA's with the site since it is unique only within one, Trello's action id). Null when there is none
 * (the delivery is then applied without this check; ordering still holds). Long ids are kept as their hash.
 */
function keptId(key: string | null): string | null {
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
