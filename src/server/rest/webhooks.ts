import { Hono } from "hono";
import { EXPORT_KINDS, WEBHOOK_BODY_MAX } from "../../shared/schemas/integrations";
import { AppError } from "../errors";
import type { AppEnv } from "../http/hono-env";
import { restContext } from "../operations/context";
import type { RouteDoc } from "../operations/define";
import { invoke } from "../operations/invoke";
import { linkOperations } from "../operations/links";

/**
 * Deliveries from GitHub, JIRA and Trello: routes of their own, because the signature covers the raw body,
 * which must reach the service byte for byte (services/exports/webhooks.ts); they run their operations
 * (operations/links.ts) through `invoke` like every other call.
 */
const KINDS: readonly string[] = EXPORT_KINDS;

export const webhookRoutes = new Hono<AppEnv>()
  // Trello checks a callback URL with a HEAD (Hono answers HEAD from this GET) before registering it.
  .get("/hooks/:kind/:id", async (c) => {
    const kind = c.req.param("kind");
    if (!(await invoke(linkOperations.webhookExists, restContext(c), { kind, id: c.req.param("id") })))
      throw new AppError("NOT_FOUND", "Webhook not found");
    return c.body(null, 200);
  })
  .post("/hooks/:kind/:id", async (c) => {
    const kind = c.req.param("kind");
    if (!KINDS.includes(kind)) throw new AppError("NOT_FOUND", "Webhook not found");
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > WEBHOOK_BODY_MAX)
      throw new AppError("PAYLOAD_TOO_LARGE", "The webhook's body is too large.");
    const raw = Buffer.from(await c.req.arrayBuffer());
    if (raw.length > WEBHOOK_BODY_MAX)
      throw new AppError("PAYLOAD_TOO_LARGE", "The webhook's body is too large.");
    // Every header, by its lower-case name: each tracker reads its own signature, event and delivery id
    // (Tracker.webhook); none of them is logged.
    const headers: Record<string, string | undefined> = c.req.header();
    const outcome = await invoke(linkOperations.receiveWebhook, restContext(c), {
      kind,
      id: c.req.param("id"),
      raw,
      headers,
    });
    return c.json(outcome, outcome.status === "applied" ? 200 : 202);
  });

export const webhookRouteDocs: RouteDoc[] = [
  {
    method: "get",
    path: "/hooks/{kind}/{id}",
    tag: "Integrations",
    summary: "Answers 200 for an existing endpoint: Trello's check (a HEAD) before it registers a webhook.",
    responses: { "200": "Empty", "404": "No such endpoint" },
  },
  {
    method: "post",
    path: "/hooks/{kind}/{id}",
    tag: "Integrations",
    summary:
      "A webhook delivery from GitHub (X-Hub-Signature-256), JIRA (X-Hub-Signature) or Trello (X-Trello-Webhook), signed with the endpoint's secret: status changes move the tasks an export made. Each delivery applies once (by X-GitHub-Delivery, X-Atlassian-Webhook-Identifier or Trello's action id, kept 7 days), and a change older than the last one applied to its item is not applied.",
    responses: {
      "200": 'JSON: { status: "applied", changed }',
      "202":
        'JSON: { status: "ignored" | "duplicate" | "stale", changed: 0 }: an event or item this endpoint does not act on, a delivery already taken, or a change older than the last one applied',
      "401": "The signature does not match",
      "404": "No such endpoint",
      "413": "The body is over 1 MB",
    },
  },
];
