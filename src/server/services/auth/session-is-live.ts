import { eq } from "drizzle-orm";
import { sessions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";

export async function sessionIsLive(deps: Pick<Deps, "db">, sessionId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ expiresAt: sessions.expiresAt, disabled: users.disabled })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return Boolean(row && !row.disabled && row.expiresAt.getTime() > Date.now());
}
