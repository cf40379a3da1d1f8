import { Hono } from "hono";
import { AppError } from "../errors";
import type { RouteDoc } from "../operations/define";
import { type HookKind, receiveWebhook, WEBHOOK_BODY_MAX } from "../services/exports/webhooks";
import type { AppEnv } from "./http";

/**
 * Deliveries from GitHub and JIRA: not operations, because the signature covers the raw body, which must
 * reach the service byte for byte (services/exports/webhooks.ts).
 */
export const webhookRoutes = new Hono<AppEnv>().post("/hooks/:kind/:id", async (c) => {
  const kind = c.req.param("kind");
  if (kind !== "github" && kind !== "jira") throw new AppError("NOT_FOUND", "Webhook not found");
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > WEBHOOK_BODY_MAX) throw new AppError("PAYLOAD_TOO_LARGE", "The webhook's body is too large.");
  const raw = Buffer.from(await c.req.arrayBuffer());
  if (raw.length > WEBHOOK_BODY_MAX)
    throw new AppError("PAYLOAD_TOO_LARGE", "The webhook's body is too large.");
  const headers: Record<string, string | undefined> = {};
  for (const name of ["x-hub-signature-256", "x-hub-signature", "x-github-event"])
    headers[name] = c.req.header(name);
  const outcome = await receiveWebhook(c.var.deps, kind as HookKind, c.req.param("id"), { raw, headers });
  return c.json(outcome, outcome.status === "applied" ? 200 : 202);
});

export const webhookRouteDocs: RouteDoc[] = [
  {
    method: "post",
    path: "/hooks/{kind}/{id}",
    tag: "Integrations",
    summary:
      "A webhook delivery from GitHub (X-Hub-Signature-256) or JIRA (X-Hub-Signature), signed with the endpoint's secret: issue status changes move the tasks an export made.",
    responses: {
      "200": 'JSON: { status: "applied", changed }',
      "202": 'JSON: { status: "ignored", changed: 0 } (an event or item this endpoint does not act on)',
      "401": "The signature does not match",
      "404": "No such endpoint",
      "413": "The body is over 1 MB",
    },
  },
];
