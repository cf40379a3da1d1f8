import { type AnyColumn, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { modelProviders } from "../../db/schema/index";
import type { Vault } from "../../integrations/vault";
import type { Logger } from "../../lib/logger";

/** What the store needs (a port: Deps has these, and so does the planner chooser). */
type StoreDeps = { db: Db; vault: Vault; log: Logger };

/** Whose provider: one user's own, or the instance's (null, set by an admin). */
export type ProviderOwner = { userId: string } | { instance: true };

/** A saved provider with its key opened. Only the planner and the connection test see `apiKey`. */
export type StoredProvider = {
  owner: "user" | "instance";
  baseUrl: string;
  model: string;
  concurrency: number;
  apiKey: string | null;
  /** A key is saved but this server's credentials key cannot open it. */
  keyUnreadable: boolean;
  updatedAt: Date;
};

const ownerCondition = (owner: ProviderOwner) =>
  "userId" in owner ? eq(modelProviders.userId, owner.userId) : isNull(modelProviders.userId);

/** What `open` needs of a row. */
type ProviderRow = Pick<
  typeof modelProviders.$inferSelect,
  "userId" | "baseUrl" | "model" | "concurrency" | "secretCiphertext" | "updatedAt"
>;

/** A user's own provider and the instance's, as the planner resolves them. */
export type ProvidersFor = { own: StoredProvider | null; instance: StoredProvider | null };

function open(deps: StoreDeps, row: ProviderRow): StoredProvider {
  let apiKey: string | null = null;
  let keyUnreadable = false;
  if (row.secretCiphertext) {
    try {
      apiKey = deps.vault.decrypt(row.secretCiphertext);
    } catch (err) {
      keyUnreadable = true;
      deps.log.warn("stored model provider key unreadable", {
        owner: row.userId ? "user" : "instance",
        userId: row.userId,
        err: (err as Error).message,
      });
    }
  }
  return {
    owner: row.userId ? "user" : "instance",
    baseUrl: row.baseUrl,
    model: row.model,
    concurrency: row.concurrency,
    apiKey,
    keyUnreadable,
    updatedAt: row.updatedAt,
  };
}

export async function readProvider(deps: StoreDeps, owner: ProviderOwner): Promise<StoredProvider | null> {
  const [row] = await deps.db.select().from(modelProviders).where(ownerCondition(owner)).limit(1);
  return row ? open(deps, row) : null;
}

/** The user's own provider and the instance's, in one query (the planner resolves both per job). */
export async function readProvidersFor(deps: StoreDeps, userId: string): Promise<ProvidersFor> {
  const rows = await deps.db
    .select()
    .from(modelProviders)
    .where(or(eq(modelProviders.userId, userId), isNull(modelProviders.userId)));
  return openProvidersFor(deps, userId, rows);
}

/** The rows `providersJson` selected, as JSON. */
export type ProvidersJson = {
  userId: string | null;
  baseUrl: string;
  model: string;
  concurrency: number;
  secretCiphertext: string | null;
  updatedAt: string;
}[];

/**
 * The same rows as `readProvidersFor`, as one JSON value a larger query selects along with its own
 * (a split reads its node, its root and its planner's settings in one statement); `userId` is the
 * column or value naming the user. Read back with `providersFromJson`.
 */
export function providersJson(userId: AnyColumn | SQL): SQL<ProvidersJson | string> {
  return sql<ProvidersJson | string>`(select coalesce(json_agg(json_build_object(
      'userId', p.user_id, 'baseUrl', p.base_url, 'model', p.model, 'concurrency', p.concurrency,
      'secretCiphertext', p.secret_ciphertext, 'updatedAt', p.updated_at)), '[]'::json)
    from ${modelProviders} p where p.user_id = ${userId} or p.user_id is null)`;
}

/** `providersJson`'s value (PGlite parses JSON, postgres.js may hand it over as text) opened. */
export function providersFromJson(
  deps: StoreDeps,
  userId: string,
  value: ProvidersJson | string,
): ProvidersFor {
  const rows = (typeof value === "string" ? JSON.parse(value) : value) as ProvidersJson;
  return openProvidersFor(
    deps,
    userId,
    rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt) })),
  );
}

function openProvidersFor(deps: StoreDeps, userId: string, rows: ProviderRow[]): ProvidersFor {
  const own = rows.find((r) => r.userId === userId);
  const instance = rows.find((r) => r.userId === null);
  return { own: own ? open(deps, own) : null, instance: instance ? open(deps, instance) : null };
}

/**
 * Saves a provider. `apiKey`: a string seals a new key, null clears it, undefined keeps the saved one.
 * One row per owner (unique indexes on user_id, and on the single instance row).
 */
export async function writeProvider(
  deps: StoreDeps,
  owner: ProviderOwner,
  values: { baseUrl: string; model: string; concurrency: number; apiKey: string | null | undefined },
  actorId: string,
): Promise<void> {
  const secret =
    values.apiKey === undefined
      ? {}
      : { secretCiphertext: values.apiKey ? deps.vault.encrypt(values.apiKey) : null };
  const set = {
    baseUrl: values.baseUrl,
    model: values.model,
    concurrency: values.concurrency,
    updatedBy: actorId,
    updatedAt: new Date(),
    ...secret,
  };
  // The instance row's unique index is on an expression, which ON CONFLICT cannot name: update, else
  // insert; a save that raced ours to the insert makes the unique index refuse it, and the update wins then.
  const save = async () => {
    const updated = await deps.db
      .update(modelProviders)
      .set(set)
      .where(ownerCondition(owner))
      .returning({ id: modelProviders.id });
    if (updated.length > 0) return;
    await deps.db.insert(modelProviders).values({
      userId: "userId" in owner ? owner.userId : null,
      secretCiphertext: null,
      ...set,
    });
  };
  try {
    await save();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await save();
  }
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function deleteProvider(deps: StoreDeps, owner: ProviderOwner): Promise<boolean> {
  const deleted = await deps.db
    .delete(modelProviders)
    .where(ownerCondition(owner))
    .returning({ id: modelProviders.id });
  return deleted.length > 0;
}
