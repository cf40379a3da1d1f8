import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { operationGroups } from "../../src/server/operations/all";
import { apiDocument, apiRoutes } from "../../src/server/rest/api";

/** `/tasks/:id` (Hono) -> `/tasks/{id}` (OpenAPI). */
const openApiPath = (p: string) => p.replace(/:(\w+)/g, "{$1}");

describe("the OpenAPI description of /api", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(apiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every /api route, and nothing that is not one", () => {
    const mounted = apiRoutes()
      .routes.filter((r) => r.method !== "ALL")
      .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`);
    const described = Object.entries(apiDocument().paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m} ${p}`),
    );
    expect(new Set(described)).toEqual(new Set(mounted));
    expect(mounted.length).toBeGreaterThan(60);
  });

  it("gives each operation a unique id, its access and its errors", () => {
    const ops = Object.values(apiDocument().paths).flatMap((m) => Object.values(m)) as Array<{
      operationId: string;
      security: unknown[];
      responses: Record<string, unknown>;
    }>;
    const ids = ops.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const patch = apiDocument().paths["/tasks/{id}"]?.patch as {
      security: unknown[];
      parameters: Array<{ name: string; in: string }>;
      requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } };
      responses: Record<string, unknown>;
    };
    expect(patch.security.length).toBeGreaterThan(0);
    expect(patch.parameters).toEqual([expect.objectContaining({ name: "id", in: "path" })]);
    // The body is the update itself, not tRPC's { id, updates } wrapper.
    expect(Object.keys(patch.requestBody.content["application/json"].schema.properties)).toContain(
      "description",
    );
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(["200", "401", "404", "422"]));
    const list = apiDocument().paths["/tasks"]?.get as { parameters: Array<{ name: string; in: string }> };
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(["query:page", "query:page_size", "query:top_level_only"]),
    );
    const posts = apiDocument().paths["/blog/posts"]?.get as { security: unknown[] };
    expect(posts.security).toEqual([]);
  });
});

describe("the answers in the OpenAPI description", () => {
  type Response = { content?: Record<string, { schema: Record<string, unknown> }> };
  const paths = apiDocument().paths as Record<
    string,
    Record<string, { responses: Record<string, Response> }>
  >;
  const components = apiDocument().components.schemas as Record<string, unknown>;
  const routes = operationGroups.flatMap((g) =>
    Object.entries(g.operations).flatMap(([name, op]) =>
      (op.rest ?? []).map((route) => ({ id: `${g.id}.${name}`, route })),
    ),
  );

  it("gives every operation's success status its body schema (a 204 has no body)", () => {
    const missing: string[] = [];
    for (const { id, route } of routes) {
      const status = String(route.status ?? 200);
      const success = paths[route.path]?.[route.method]?.responses[status];
      const schema = success?.content?.["application/json"]?.schema;
      if (status === "204") expect(success?.content, id).toBeUndefined();
      else if (!schema || Object.keys(schema).length === 0)
        missing.push(`${id} ${route.method} ${route.path}`);
    }
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(60);
  });

  it("names only parts it describes: every $ref points at a component", () => {
    const refs = [...JSON.stringify(apiDocument()).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    const dangling = refs.filter((r) => !(r.replace("#/components/schemas/", "") in components));
    expect(dangling).toEqual([]);
    expect(refs.every((r) => r.startsWith("#/components/schemas/"))).toBe(true);
    expect(Object.keys(components)).toEqual(expect.arrayContaining(["Error", "Task", "TaskTreeNode"]));
  });

  it("describes a REST body of its own for every route whose `respond` reshapes the answer", () => {
    const reshaped = routes.filter(({ route }) => route.respond);
    expect(reshaped.length).toBeGreaterThanOrEqual(5);
    expect(reshaped.filter(({ route }) => !route.output).map(({ id }) => id)).toEqual([]);
    const remove = paths["/tasks/{id}"]?.delete?.responses["200"]?.content?.["application/json"]?.schema;
    expect(Object.keys((remove?.properties ?? {}) as object).sort()).toEqual(["deleted", "detail"]);
  });
});

describe("one parse per call", () => {
  it("leaves parsing to the adapters: no service parses its own input", () => {
    const root = path.resolve("src/server/services");
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "validation.ts")
      .filter((f) => /\bparseInput\(/.test(readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
