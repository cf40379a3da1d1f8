import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../src/server/errors";
import type { AppEnv } from "../../src/server/http/hono-env";
import { HTTP_STATUS } from "../../src/server/lib/http-status";
import { mutation, query } from "../../src/server/operations/define";
import { restRoutesOf } from "../../src/server/rest/operations";

/**
 * How the REST facade turns a request into an operation's input: path fields, body, body key, query,
 * fixed fields, and the REST contract's errors ({ detail }, 422 with `errors` naming the body's fields).
 */
const seen: unknown[] = [];
const id = z.string().min(1).max(8);
const ops = [
  mutation({
    access: "public",
    summary: "update",
    input: z.strictObject({ id, updates: z.strictObject({ title: z.string().min(2, "Title too short") }) }),
    output: z.object({ ok: z.boolean() }),
    run: (_ctx, input) => {
      seen.push(input);
      return { ok: true };
    },
    rest: [{ method: "patch", path: "/things/{id}", from: { bodyKey: "updates" } }],
  }),
  mutation({
    access: "public",
    summary: "reject",
    input: z.strictObject({ id, reason: z.string().min(1, "Give a reason") }),
    output: z.object({ id: z.string(), reason: z.string() }),
    run: (_ctx, input) => input,
    rest: [{ method: "post", path: "/things/{id}/reject", from: "body", status: 201 }],
  }),
  query({
    access: "public",
    summary: "list",
    input: z.strictObject({ page: z.coerce.number().int().min(1).default(1) }).prefault({}),
    output: z.object({ page: z.number() }),
    run: (_ctx, input) => input,
    rest: [{ method: "get", path: "/things", from: "query" }],
  }),
  mutation({
    access: "public",
    summary: "exchange",
    input: z.strictObject({ code: z.string().min(1) }),
    output: z.object({ code: z.string() }),
    run: (_ctx, input) => input,
    rest: [{ method: "post", path: "/exchange", from: "query+body" }],
  }),
  mutation({
    access: "public",
    summary: "remove",
    input: z.strictObject({ kind: z.enum(["a", "b"]) }),
    output: z.object({ removed: z.enum(["a", "b"]) }),
    run: (_ctx, input) => ({ removed: input.kind, [HTTP_STATUS]: 202 as const }),
    rest: [
      { method: "delete", path: "/a", fixed: { kind: "a" } },
      { method: "delete", path: "/b", fixed: { kind: "b" }, respond: (out) => ({ gone: out.removed }) },
    ],
  }),
  query({
    access: "user",
    summary: "mine",
    output: z.string(),
    run: ({ user }) => user.id,
    rest: [{ method: "get", path: "/mine" }],
  }),
];

const app = new Hono<AppEnv>()
  .use("*", async (c, next) => {
    c.set("auth", { session: null, via: null } as never);
    c.set("meta", {});
    // Answers are checked against each operation's output schema, as in every test server.
    c.set("deps", { config: { CHECK_OPERATION_OUTPUTS: true } } as never);
    return next();
  })
  .route("/", restRoutesOf(ops as never))
  .onError((err, c) =>
    err instanceof AppError ? c.json(err.toBody(), err.status as 400) : c.json({ detail: "boom" }, 500),
  );

const call = async (method: string, path: string, body?: unknown) => {
  const res = await app.request(path, {
    method,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    headers: { "content-type": "application/json" },
  });
  return { status: res.status, json: await res.json() };
};

describe("REST routes built from operations", () => {
  it("puts the body under its key and names the body's own fields in errors", async () => {
    expect(await call("PATCH", "/things/t1", { title: "New" })).toEqual({ status: 200, json: { ok: true } });
    expect(seen.at(-1)).toEqual({ id: "t1", updates: { title: "New" } });
    expect(await call("PATCH", "/things/t1", { title: "x", extra: 1 })).toEqual({
      status: 422,
      json: {
        detail: "Title too short",
        errors: [
          { field: "title", message: "Title too short" },
          { field: "body", message: "Unknown field: extra" },
        ],
      },
    });
  });

  it("merges the body with the path, refuses a body field that names a path field, and keeps the status", async () => {
    expect(await call("POST", "/things/t1/reject", { reason: "dup" })).toEqual({
      status: 201,
      json: { id: "t1", reason: "dup" },
    });
    const clash = await call("POST", "/things/t1/reject", { id: "t2", reason: "dup" });
    expect(clash.status).toBe(422);
    expect(clash.json.detail).toBe("Unknown field: id");
    expect((await call("POST", "/things/t1/reject", { reason: "" })).json).toEqual({
      detail: "Give a reason",
      errors: [{ field: "reason", message: "Give a reason" }],
    });
    expect((await call("POST", "/things/t1/reject", {})).json.detail).toBe("reason is required");
    // A field sent with the wrong type is not called missing.
    expect((await call("POST", "/things/t1/reject", { reason: 7 })).json.detail).toBe(
      "Invalid input: expected string, received number",
    );
  });

  it("answers 404 for a path field its schema refuses, 400 for malformed JSON, 422 for a non-object body", async () => {
    expect((await call("POST", "/things/much-too-long-id/reject", { reason: "x" })).status).toBe(404);
    expect(await call("POST", "/things/t1/reject", "{nope")).toEqual({
      status: 400,
      json: { detail: "Malformed JSON body" },
    });
    expect((await call("POST", "/things/t1/reject", "[1]")).status).toBe(422);
  });

  it("reads queries with coercion and defaults, and prefers the query over the body", async () => {
    expect((await call("GET", "/things")).json).toEqual({ page: 1 });
    expect((await call("GET", "/things?page=3")).json).toEqual({ page: 3 });
    expect((await call("GET", "/things?page=0")).status).toBe(422);
    expect((await call("POST", "/exchange?code=q")).json).toEqual({ code: "q" });
    expect((await call("POST", "/exchange", { code: "b" })).json).toEqual({ code: "b" });
  });

  it("serves one operation at several paths with fixed fields, a result's own status and a REST shape", async () => {
    expect(await call("DELETE", "/a")).toEqual({ status: 202, json: { removed: "a" } });
    expect(await call("DELETE", "/b")).toEqual({ status: 202, json: { gone: "b" } });
  });

  it("refuses a signed-out caller before reading anything", async () => {
    expect(await call("GET", "/mine")).toEqual({ status: 401, json: { detail: "Not authenticated" } });
  });
});
