import type { z } from "zod";
import type { FieldError } from "../../shared/errors";
import { fieldErrorsOf } from "./api-error";

/** A form's messages, the first one per field. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * Where a message belongs: a schema path ("config.project_key", "tags.2") to the form's field, as a
 * table or a function; paths it does not know are left out.
 */
export type FieldMap<F extends string> = Readonly<Record<string, F>> | ((path: string) => F | undefined);

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean);
}

/**
 * The first message per field of `{field, message}` pairs (the shape of a 422's `errors`). `under` is
 * where the operation's schema sits in the procedure's input (`task` in `{id, task}`): its prefix is
 * dropped, so the server's paths and the schema's own read the same.
 */
export function firstErrors<F extends string>(
  errors: readonly FieldError[],
  fields: FieldMap<F>,
  under?: string,
): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const { field, message } of errors) {
    const path = under && field.startsWith(`${under}.`) ? field.slice(under.length + 1) : field;
    const key = typeof fields === "function" ? fields(path) : fields[path];
    if (key && out[key] === undefined) out[key] = message;
  }
  return out;
}

/** A failed call's 422 field errors on the form's fields. */
export function serverFieldErrors<F extends string>(
  error: unknown,
  fields: FieldMap<F>,
  under?: string,
): FieldErrors<F> {
  return firstErrors(fieldErrorsOf(error), fields, under);
}

/**
 * The form's input checked with the schema the server uses for the operation: the first message per
 * field, or none. zod is imported for its types only; a page that calls this brings its schema (and so
 * zod) with it, which is why public pages check with the zod-free rules in src/shared instead.
 */
export function schemaFieldErrors<F extends string>(
  schema: z.ZodType,
  input: unknown,
  fields: FieldMap<F>,
): FieldErrors<F> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return {};
  return firstErrors(
    parsed.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
    fields,
  );
}

/**
 * Takes the user to the first field with an error, in the order of `ids` (the form's order, field to
 * element id). Whether there was one.
 */
export function focusFirstError<F extends string>(
  errors: FieldErrors<F>,
  ids: Readonly<Partial<Record<F, string>>>,
): boolean {
  const first = (Object.keys(ids) as F[]).find((field) => errors[field]);
  const id = first && ids[first];
  if (id) document.getElementById(id)?.focus();
  return first !== undefined;
}
