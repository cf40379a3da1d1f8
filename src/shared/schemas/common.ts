import { z } from "zod";

/** Pieces of the answers' schemas that several domains share. */

/** An instant as the JSON carries it: the server sends `Date#toISOString()`, never a Date. */
export const isoTimestamp = z.iso.datetime().meta({ id: "Timestamp" });

/** An answer that is only a sentence for a person ("Logged out", "Post deleted successfully"). */
export const detailMessage = z.object({ detail: z.string() }).meta({ id: "DetailMessage" });
export type DetailMessage = z.infer<typeof detailMessage>;

const pageFields = { total: z.number().int(), page: z.number().int(), page_size: z.number().int() };

/** A page of a list answer: the items under `key`, how many there are in all, and the page asked for. */
export function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }), ...pageFields });
}
