import { and, eq } from "drizzle-orm";
import type { ExportKind } from "../../shared/schemas/integrations";
import { integrationCredentials } from "../db/schema/index";
import type { Deps } from "../deps";

/** The trackers whose connections are stored (one per user each). */
export type Provider = ExportKind;
type CredentialDeps = Pick<Deps, "db" | "vault" | "log">;

/** Stores a provider's secrets encrypted; `publicData` is what the browser may see. */
export async function saveCredential(
  deps: CredentialDeps,
  userId: string,
  provider: Provider,
  secret: Record<string, string>,
  publicData: Record<string, unknown>,
) {
  const sealed = deps.vault.encrypt(JSON.stringify(secret));
  await deps.db
    .insert(integrationCredentials)
    .values({ userId, provider, secretCiphertext: sealed, publicData })
    .onConflictDoUpdate({
      target: [integrationCredentials.userId, integrationCredentials.provider],
      set: { secretCiphertext: sealed, publicData, updatedAt: new Date() },
    });
}

export async function readCredential<S extends Record<string, string>>(
  deps: CredentialDeps,
  userId: string,
  provider: Provider,
): Promise<{ secret: S; publicData: Record<string, unknown>; updatedAt: Date } | null> {
  const [row] = await deps.db
    .select()
    .from(integrationCredentials)
    .where(and(eq(integrationCredentials.userId, userId), eq(integrationCredentials.provider, provider)))
    .limit(1);
  if (!row) return null;
  try {
    return {
      secret: JSON.parse(deps.vault.decrypt(row.secretCiphertext)) as S,
      publicData: row.publicData,
      updatedAt: row.updatedAt,
    };
  } catch (err) {
    deps.log.warn("stored credential unreadable", { provider, userId, err: (err as Error).message });
    return null;
  }
}

/** The user's connected GitHub token, or null when none is connected (or it can no longer be read). */
export async function githubTokenFor(deps: CredentialDeps, userId: string): Promise<string | null> {
  const stored = await readCredential<{ token?: string }>(deps, userId, "github");
  return typeof stored?.secret.token === "string" ? stored.secret.token : null;
}

export async function deleteCredential(deps: CredentialDeps, userId: string, provider: Provider) {
  await deps.db
    .delete(integrationCredentials)
    .where(and(eq(integrationCredentials.userId, userId), eq(integrationCredentials.provider, provider)));
}

/** Shows only the last four characters of a key, never the whole of it. */
export function maskHint(value: string): string {
  return value.length <= 4 ? "••••" : `••••${value.slice(-4)}`;
}
