/**
 * A service result may name the REST status it calls for under this key (the blog's subscribe answers
 * 200, 201 or 202 by what happened). A symbol is never serialised, so no client sees it, over JSON or
 * superjson; the REST facade reads it (rest/operations.ts).
 */
export const HTTP_STATUS = Symbol("http status");

export type WithHttpStatus<T, S extends number = 200 | 201 | 202> = T & { [HTTP_STATUS]: S };
