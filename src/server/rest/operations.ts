import type { Context } from "hono";
import { Hono } from "hono";
import type { z } from "zod";
import { notFound } from "../errors";
import { type AppEnv, readJsonObject } from "../http/hono-env";
import { honoPath, pathFields } from "../http/paths";
import { chooseEncoding } from "../lib/compression";
import { HTTP_STATUS } from "../lib/http-status";
import { encodedAnswer, etagOf, ifNoneMatchHits, jsonTextOf } from "../lib/shared-answer";
import { restContext } from "../operations/context";
import type { AnyOperation, RestRoute, SuccessStatus } from "../operations/define";
import { invoke } from "../operations/invoke";
import { fieldErrorsOf, invalidInput, parseInput } from "../operations/validation";

/** The request's input fields besides the path: from the body, the query string, both or neither. */
async function inputFields(c: Context<AppEnv>, route: RestRoute<never>): Promise<Record<string, unknown>> {
  const from = route.from ?? "none";
  if (from === "query") return c.req.query();
  if (from === "query+body") return { ...(await readJsonObject(c)), ...c.req.query() };
  if (from === "body") return readJsonObject(c);
  if (typeof from === "object") return { [from.bodyKey]: await readJsonObject(c) };
  return {};
}

/**
 * Builds the operation's input from the request and parses it once with the operation's schema. A path
 * field that fails its schema is a 404 (no such resource), like an unknown id. A body field that names a
 * path field is refused as unknown, so the URL alone says what is changed. Under a body key, field errors
 * name the body's own fields (`title`, not `updates.title`), as the REST contract always has.
 */
async function restInput(c: Context<AppEnv>, schema: z.ZodType, route: RestRoute<never>): Promise<unknown> {
  const fromPath: Record<string, string> = {};
  for (const name of pathFields(route.path)) {
    const value = c.req.param(name) ?? "";
    const check = route.pathOnly?.[name];
    if (check) parseInput(check, value);
    else fromPath[name] = value;
  }
  const fields = await inputFields(c, route);
  const clashes = Object.keys(fromPath).filter((name) => Object.hasOwn(fields, name));
  if (clashes.length > 0) {
    const message = `Unknown field${clashes.length > 1 ? "s" : ""}: ${clashes.join(", ")}`;
    throw invalidInput([{ field: "body", message }]);
  }
  const parsed = schema.safeParse({ ...route.fixed, ...fields, ...fromPath });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  if (issues.some((i) => typeof i.path[0] === "string" && Object.hasOwn(fromPath, i.path[0])))
    throw notFound();
  const bodyKey = typeof route.from === "object" ? route.from.bodyKey : null;
  throw invalidInput(
    fieldErrorsOf(
      bodyKey ? issues.map((i) => (i.path[0] === bodyKey ? { ...i, path: i.path.slice(1) } : i)) : issues,
    ),
  );
}

/** The REST facade of these operations: one route per declared path, in declaration order. */
export function restRoutesOf(operations: readonly AnyOperation[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const op of operations) {
    for (const route of op.rest ?? []) {
      app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
        // The input is read from the request only once access and the token rule allowed the call.
        const out = await invoke(op, restContext(c), c, () => restInput(c, op.input!, route));
        const status =
          (out as { [HTTP_STATUS]?: SuccessStatus } | null)?.[HTTP_STATUS] ?? route.status ?? 200;
        if (status === 204) return c.body(null, 204);
        // An answer built once for many (a whole plan's tree): its tag, a 304 when the client has it,
        // else the bytes made when it was first asked for in this encoding (the compression middleware
        // leaves an encoded body alone). Private: it is one user's; no-cache: ask each time.
        const etag = route.respond ? undefined : etagOf(out);
        if (etag && status === 200) {
          c.header("ETag", etag);
          c.header("Cache-Control", "private, no-cache");
          c.header("Vary", "Accept-Encoding");
          if (ifNoneMatchHits(c.req.header("if-none-match"), etag)) return c.body(null, 304);
          const encoding = chooseEncoding(c.req.header("accept-encoding"));
          if (!encoding) return c.body(jsonTextOf(out), 200, { "content-type": "application/json" });
          const body = await encodedAnswer(out as object, encoding);
          return c.body(body, 200, {
            "content-type": "application/json",
            "content-encoding": encoding,
          });
        }
        return c.json((route.respond ? route.respond(out as never) : out) as object, status);
      });
    }
  }
  return app;
}
