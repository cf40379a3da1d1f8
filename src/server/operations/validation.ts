import type { z } from "zod";
import type { FieldError } from "../../shared/errors";
import { AppError } from "../errors";

export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return fieldErrorsOf(error.issues);
}

export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((i) => ({
    field: i.path.length ? i.path.join(".") : "body",
    message:
      i.code === "unrecognized_keys"
        ? `Unknown field${i.keys.length > 1 ? "s" : ""}: ${i.keys.join(", ")}`
        : // zod 4 leaves `input` out of its issues: a missing field is told by zod's own words for it.
          i.code === "invalid_type" && /^Invalid input: expected .+, received undefined$/.test(i.message)
          ? `${i.path.join(".") || "body"} is required`
          : i.message,
  }));
}

/** Validates outside input; failure is a 422 whose detail is the first message and `errors` lists them all. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw invalidInput(fieldErrorsOf(parsed.error.issues));
}

/** The 422 of a failed validation: the first message as `detail`, all of them in `errors`. */
export function invalidInput(fieldErrors: FieldError[]): AppError {
  return new AppError("UNPROCESSABLE_CONTENT", fieldErrors[0]?.message ?? "Validation failed", {
    fieldErrors,
  });
}

/**
 * One problem as a line for an agent: "field: message", or the message alone when it names its field
 * already ("subtasks.0.description is required", not "subtasks.0.description: subtasks.0.description is
 * required"; issue 40).
 */
export function fieldLine(f: FieldError): string {
  return f.message.startsWith(f.field) ? f.message : `${f.field}: ${f.message}`;
}
