import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { readCredential } from "../../integrations/credentials";
import { trelloFor } from "./connections";

/** GET /trello/boards: the open boards of the stored Trello connection, to export into one of them. */
export async function trelloBoards(
  deps: Deps,
  userId: string,
): Promise<{ boards: { id: string; name: string; url: string }[] }> {
  const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
  if (!stored)
    throw new AppError("UNPROCESSABLE_CONTENT", "Connect Trello in Settings first to list your boards.");
  const trello = trelloFor(
    deps,
    stored.secret.api_key,
    stored.secret.token,
    "Trello rejected the stored key or token. Save them again in Settings.",
  );
  const res = await trello.request<Array<{ id?: unknown; name?: unknown; url?: unknown }>>(
    "GET",
    "/1/members/me/boards",
    { query: { filter: "open", fields: "name,url" } },
  );
  const boards = (Array.isArray(res.body) ? res.body : [])
    .filter((b) => typeof b.id === "string" && typeof b.name === "string" && typeof b.url === "string")
    .slice(0, 200)
    .map((b) => ({ id: b.id as string, name: b.name as string, url: b.url as string }));
  return { boards };
}
