import { and, eq } from "drizzle-orm";
import type { ExportKind } from "../../../shared/schemas/integrations";
import { webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { WebhookHeaders } from "./tracker";

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

export function webhookUrl(deps: Deps, kind: HookKind, id: string) {
  return `${deps.config.publicOrigin}/api/hooks/${kind}/${id}`;
}

export type Delivery = { raw: Buffer; headers: WebhookHeaders };

/** The user's webhook URL for a service, when they made one (exports to Trello register it). */
export async function webhookUrlFor(deps: Deps, userId: string, kind: HookKind): Promise<string | null> {
  const [row] = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.kind, kind)))
    .limit(1);
  return row ? webhookUrl(deps, kind, row.id) : null;
}
