import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { HookKind } from "./webhooks";

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
