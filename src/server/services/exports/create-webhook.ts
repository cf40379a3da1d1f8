import { randomBytes } from "node:crypto";
import { webhookEndpoints } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { type HookKind, webhookUrl } from "./webhooks";

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
