import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  firstErrors,
  focusFirstError,
  hasErrors,
  schemaFieldErrors,
  serverFieldErrors,
} from "./field-errors";

const fields = { project_key: "projectKey", project_name: "projectName" } as const;

describe("firstErrors", () => {
  it("keeps the first message per field and leaves unknown paths out", () => {
    expect(
      firstErrors(
        [
          { field: "project_key", message: "Project key is required" },
          { field: "project_key", message: "second" },
          { field: "task_id", message: "not a form field" },
          { field: "project_name", message: "Project name is required" },
        ],
        fields,
      ),
    ).toEqual({ projectKey: "Project key is required", projectName: "Project name is required" });
  });

  it("drops the prefix of the schema's place in the procedure's input, and takes a function", () => {
    const errors = [
      { field: "config.project_key", message: "from the schema" },
      { field: "project_name", message: "from a hand-made AppError" },
    ];
    expect(firstErrors(errors, fields, "config")).toEqual({
      projectKey: "from the schema",
      projectName: "from a hand-made AppError",
    });
    expect(firstErrors(errors, (path) => (path.startsWith("config.") ? "form" : undefined))).toEqual({
      form: "from the schema",
    });
  });
});

describe("schemaFieldErrors", () => {
  const schema = z.strictObject({
    project_name: z.string().trim().min(1, "Project name is required"),
    project_key: z
      .string()
      .min(1, "Project key is required")
      .regex(/^[A-Z]+$/, "Uppercase only"),
  });

  it("gives none for valid input", () => {
    expect(schemaFieldErrors(schema, { project_name: "P", project_key: "ABC" }, fields)).toEqual({});
  });

  it("gives the schema's first message per field", () => {
    expect(schemaFieldErrors(schema, { project_name: " ", project_key: "" }, fields)).toEqual({
      projectName: "Project name is required",
      projectKey: "Project key is required",
    });
  });
});

describe("serverFieldErrors", () => {
  it("reads a 422's errors from the tRPC error's data", () => {
    const error = TRPCClientError.from({
      error: {
        code: -32600,
        message: "Project key is required",
        data: {
          httpStatus: 422,
          detail: "Project key is required",
          errors: [{ field: "config.project_key", message: "Project key is required" }],
        },
      },
    });
    expect(serverFieldErrors(error, fields, "config")).toEqual({ projectKey: "Project key is required" });
    expect(serverFieldErrors(new Error("offline"), fields)).toEqual({});
  });
});

describe("hasErrors and focusFirstError", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("tells whether any field has a message", () => {
    expect(hasErrors({})).toBe(false);
    expect(hasErrors({ projectKey: undefined })).toBe(false);
    expect(hasErrors({ projectKey: "x" })).toBe(true);
  });

  it("focuses the first field with an error in the form's order", () => {
    const focused: string[] = [];
    vi.stubGlobal("document", {
      getElementById: (id: string) => ({ focus: () => focused.push(id) }),
    });
    const ids = { projectName: "name-input", projectKey: "key-input" };
    expect(focusFirstError({ projectKey: "a", projectName: "b" }, ids)).toBe(true);
    expect(focusFirstError({ projectKey: "a" }, ids)).toBe(true);
    expect(focusFirstError({}, ids)).toBe(false);
    expect(focused).toEqual(["name-input", "key-input"]);
  });
});
