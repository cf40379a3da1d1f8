import { eq } from "drizzle-orm";
import { webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { webhookUrl } from "./webhooks";

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
