import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { remoteItemChanges, webhookDeliveries, webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { consumeRateLimit, perAddress } from "../auth/rate-limit";
import { applyRemoteState, itemsFor } from "./sync";
import type { Change, WebhookOutcome } from "./tracker";
import { announceTrackerChanges, reviewItem } from "./tracker-changes";
import { type Delivery, type HookKind, WEBHOOK_DELIVERY_WINDOW_MS, webhookUrl } from "./webhooks";

/** Expired ids deleted with each new one: enough to keep up, never a long delete on a delivery's path. */
const EXPIRED_PER_DELIVERY = 100;

const notFound = () => new AppError("NOT_FOUND", "Webhook not found");

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
