import type { HttpClient } from "../../../integrations/http-client";
import type { ExportContext } from "../tracker-deps";
import { hasLine } from "./payloads";
import type { TrelloState } from "./types";

/** This export's board among the member's open boards, by the marker line in its description. */
export async function findBoard(http: HttpClient, marker: string) {
  const res = await http.request<Array<{ id: string; name: string; desc?: string; url: string }>>(
    "GET",
    "/1/members/me/boards",
    { query: { fields: "name,desc,url", filter: "open" } },
  );
  const board = res.body.find((b) => hasLine(b.desc, marker));
  return board && { id: board.id, url: board.url, name: board.name };
}

/** Records, for each pending key not yet known, the object `find` recognises as made for it. */
export function adopt(
  keys: string[],
  known: Record<string, string>,
  find: (key: string, taken: Set<string>) => { id: string } | undefined,
) {
  const taken = new Set(Object.values(known));
  for (const key of keys) {
    if (known[key]) continue;
    const match = find(key, taken);
    if (match) {
      known[key] = match.id;
      taken.add(match.id);
    }
  }
}

/** Creates the missing ones of `keys` one at a time, marked pending (and saved) before the first is sent. */
export async function createInTurn<K extends string>(
  ctx: ExportContext,
  kind: "lists" | "labels",
  keys: readonly K[],
  known: Record<string, string>,
  create: (key: K) => Promise<string>,
) {
  const pending = (ctx.state as TrelloState).pending!;
  const todo = keys.filter((k) => !known[k]);
  if (todo.length === 0) return;
  pending[kind] = todo;
  await ctx.saveState();
  for (const key of todo) {
    known[key] = await create(key);
    await ctx.saveState();
  }
  pending[kind] = [];
  await ctx.saveState();
}

/**
 * `fn` for each item, at most `limit` at a time. After a failure no further item starts, and the ones
 * under way are waited for before the first error is thrown: a resumed run must not begin while writes of
 * this one are still in flight, or it could look for them before they land and create them again.
 */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
