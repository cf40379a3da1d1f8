import { and, eq } from "drizzle-orm";
import { integrationCredentials } from "../db/schema/index";
import type { Deps } from "../deps";

/** The user's connected GitHub token, or null when none is connected (or it can no longer be read). */
export async function githubTokenFor(
  deps: Pick<Deps, "db" | "vault" | "log">,
  userId: string,
): Promise<string | null> {
  const [row] = await deps.db
    .select({ secret: integrationCredentials.secretCiphertext })
    .from(integrationCredentials)
    .where(and(eq(integrationCredentials.userId, userId), eq(integrationCredentials.provider, "github")))
    .limit(1);
  if (!row) return null;
  try {
    const secret = JSON.parse(deps.vault.decrypt(row.secret)) as { token?: unknown };
    return typeof secret.token === "string" ? secret.token : null;
  } catch (err) {
    deps.log.warn("stored GitHub credential unreadable", { userId, err: (err as Error).message });
    return null;
  }
}
