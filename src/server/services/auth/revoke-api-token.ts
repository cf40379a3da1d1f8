import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { apiTokens } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { tokenSessionId } from "./api-tokens";
import { announceSessionsEnded } from "./sessions";

export async function revokeApiToken(deps: Deps, userId: string, id: string): Promise<void> {
  const notFound = () => new AppError("NOT_FOUND", "Token not found");
  if (!UUID_PATTERN.test(id)) throw notFound();
  const gone = await deps.db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (gone.length === 0) throw notFound();
  deps.log.info("api token revoked", { userId, tokenId: id });
  // Its open sockets close now, in every process, as a logout's do.
  await announceSessionsEnded(deps, [tokenSessionId(id)]);
}
