/** `/tasks/{id}` (OpenAPI) -> `/tasks/:id` (Hono). */
export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
/** The `{name}` fields of an OpenAPI path, in order. */
export const pathFields = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
