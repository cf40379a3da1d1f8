import { z } from "zod";
import { pathFields } from "../http/paths";
import type { OperationGroup } from "./all";
import type { AnyOperation, RestRoute, RouteDoc } from "./define";

/**
 * The OpenAPI 3.1 description of /api, built from the same operation declarations as the routes
 * themselves (and the hand-written routes' own RouteDoc entries), so it cannot drift from them.
 * Schemas are the operations' zod input and output schemas as JSON Schema 2020-12, OpenAPI 3.1's own
 * dialect; an answer's named parts (`.meta({ id })` in src/shared/schemas) are components.
 */

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [key: string]: unknown;
};

const ERROR_SCHEMA = {
  type: "object",
  required: ["detail"],
  properties: {
    detail: { type: "string", description: "What went wrong, in words a person can act on." },
    errors: {
      type: "array",
      description: "With a 422: every field at fault.",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const ERROR_DESCRIPTIONS: Record<string, string> = {
  "400": "Malformed request (for example, a body that is not JSON).",
  "401": "Not signed in, or the session has ended.",
  "403": "Signed in, but not allowed (admins only, or a cross-site request).",
  "404": "No such resource, or not yours.",
  "422": "The input is invalid: `detail` is the first problem, `errors` lists them all.",
  "429": "Too many requests: try again later (see Retry-After).",
};

/** JSON Schema of what a client sends (the input side of transforms and defaults). */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** Points a schema's `#/$defs/...` references at the document's components. */
function withComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentRefs);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key !== "$ref" || typeof v !== "string") return [key, withComponentRefs(v)];
      if (!v.startsWith("#/$defs/")) throw new Error(`Unexpected $ref ${v}: give a recursive schema an id`);
      return [key, `#/components/schemas/${v.slice("#/$defs/".length)}`];
    }),
  );
}

/**
 * JSON Schema of what the server answers (the output side), its named parts moved to `components`. A
 * part without a name (zod's `__schema0`, for a recursion) would clash between answers: it is refused.
 */
function outputSchemaOf(schema: z.ZodType, components: Record<string, unknown>): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...root
  } = z.toJSONSchema(schema, { io: "output", unrepresentable: "throw" }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  for (const [name, def] of Object.entries($defs ?? {})) {
    if (name.startsWith("__")) throw new Error(`An unnamed recursive schema: give it .meta({ id })`);
    const part = withComponentRefs(def);
    if (name in components && JSON.stringify(components[name]) !== JSON.stringify(part))
      throw new Error(`Two different schemas are named ${name}`);
    components[name] = part;
  }
  return withComponentRefs(root) as JsonSchema;
}

function without(schema: JsonSchema, names: string[]): JsonSchema {
  if (names.length === 0 || !schema.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([k]) => !names.includes(k)),
  );
  const required = schema.required?.filter((k) => !names.includes(k));
  return { ...schema, properties, ...(required ? { required } : {}) };
}

function errorResponses(codes: string[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        description: ERROR_DESCRIPTIONS[code] ?? "Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );
}

const security = (access: string | undefined) =>
  access === "user" || access === "admin" ? [{ sessionCookie: [] }, { bearerToken: [] }] : [];

function operationObject(
  operationId: string,
  tag: string,
  op: AnyOperation,
  route: RestRoute<never>,
  answer: JsonSchema | null,
) {
  const input = op.input ? jsonSchemaOf(op.input) : null;
  const fields = pathFields(route.path);
  const parameters: unknown[] = fields.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: route.pathOnly?.[name] ? jsonSchemaOf(route.pathOnly[name]) : (input?.properties?.[name] ?? {}),
  }));
  const from = route.from ?? "none";
  const rest = input ? without(input, [...fields, ...Object.keys(route.fixed ?? {})]) : null;
  if ((from === "query" || from === "query+body") && rest?.properties) {
    for (const [name, schema] of Object.entries(rest.properties)) {
      parameters.push({ name, in: "query", required: rest.required?.includes(name) ?? false, schema });
    }
  }
  const body =
    typeof from === "object"
      ? (input?.properties?.[from.bodyKey] ?? {})
      : from === "body" || from === "query+body"
        ? rest
        : null;
  const status = String(route.status ?? 200);
  const errors = ["400", "429"];
  if (op.access !== "public") errors.push("401");
  if (op.access === "admin") errors.push("403");
  if (fields.some((f) => !route.pathOnly?.[f])) errors.push("404");
  if (op.input) errors.push("422");
  return {
    operationId,
    tags: [tag],
    summary: route.summary ?? op.summary,
    ...(op.access === "admin" ? { description: "Admins only." } : {}),
    security: security(op.access),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: false, content: { "application/json": { schema: body } } } } : {}),
    responses: {
      [status]:
        status === "204"
          ? { description: "Success, with no content" }
          : { description: "Success", content: { "application/json": { schema: answer ?? {} } } },
      ...errorResponses(errors.sort()),
    },
  };
}

function routeDocObject(doc: RouteDoc, index: number) {
  const parameters = (doc.query ?? []).map((name) => ({
    name,
    in: "query",
    required: false,
    schema: { type: "string" },
  }));
  const responses = Object.fromEntries(
    Object.entries(doc.responses).map(([status, description]) => [status, { description }]),
  );
  return {
    operationId: `route${index}.${doc.method}${doc.path.replace(/[^a-z0-9]+/gi, "_")}`,
    tags: [doc.tag],
    summary: doc.summary,
    security: security(doc.access),
    ...(parameters.length ? { parameters } : {}),
    ...(doc.files
      ? {
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: doc.files,
                  properties: Object.fromEntries(
                    doc.files.map((f) => [
                      f,
                      { type: "string", contentMediaType: "application/octet-stream" },
                    ]),
                  ),
                },
              },
            },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(opts: {
  groups: OperationGroup[];
  routes: RouteDoc[];
  version: string;
  sessionCookie: string;
}) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = { Error: ERROR_SCHEMA };
  const at = (path: string) => {
    paths[path] ??= {};
    return paths[path];
  };
  for (const group of opts.groups) {
    for (const [name, op] of Object.entries(group.operations)) {
      for (const [i, route] of (op.rest ?? []).entries()) {
        // A second path of one operation (an alias, such as /comments beside /notes) gets its own id.
        const variant = route.fixed ? `.${Object.values(route.fixed).join(".")}` : i > 0 ? `.${i}` : "";
        const body = route.respond ? route.output : op.output;
        const answer = body && route.status !== 204 ? outputSchemaOf(body, schemas) : null;
        at(route.path)[route.method] = operationObject(
          `${group.id}.${name}${variant}`,
          group.tag,
          op,
          route,
          answer,
        );
      }
    }
  }
  opts.routes.forEach((doc, i) => {
    at(doc.path)[doc.method] = routeDocObject(doc, i);
  });
  const tags = new Map<string, string>();
  for (const g of opts.groups) if (!tags.get(g.tag)) tags.set(g.tag, g.description);
  for (const r of opts.routes) if (!tags.has(r.tag)) tags.set(r.tag, "");
  return {
    openapi: "3.1.0",
    info: {
      title: "Atomize API",
      version: opts.version,
      description:
        "The REST facade of Atomize: the same operations as the web app, declared once. Errors are `{ detail }` with the HTTP status; a 422 adds `errors`, one per field.",
    },
    servers: [{ url: "/api" }],
    tags: [...tags].map(([name, description]) => ({ name, ...(description ? { description } : {}) })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: opts.sessionCookie },
        bearerToken: { type: "http", scheme: "bearer", description: "An access token from /auth/login." },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
