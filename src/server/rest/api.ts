import { Hono } from "hono";
import { notFound } from "../errors";
import type { AppEnv } from "../http/hono-env";
import { SESSION_COOKIE } from "../http/session-cookies";
import { operationGroups } from "../operations/all";
import type { RouteDoc } from "../operations/define";
import { type OpenApiDocument, openApiDocument } from "../operations/openapi-document";
import { referencePage } from "../operations/reference-page";
import { authRouteDocs, authRoutes } from "./auth";
import { blogRouteDocs, blogRoutes } from "./blog";
import { restRoutesOf } from "./operations";
import { webhookRouteDocs, webhookRoutes } from "./webhooks";

const referenceDocs: RouteDoc[] = [
  {
    method: "get",
    path: "/openapi.json",
    tag: "Reference",
    summary: "This description of the API (OpenAPI 3.1).",
    responses: { "200": "JSON: the OpenAPI document" },
  },
  {
    method: "get",
    path: "/docs",
    tag: "Reference",
    summary: "The API reference as a readable page.",
    responses: { "200": "HTML: the reference" },
  },
];

let described: { document: OpenApiDocument; reference: string } | undefined;

/**
 * The OpenAPI description of everything mounted below, built from the same declarations at its first
 * request rather than at every start (decision 025), then kept.
 */
export function apiDocument(): OpenApiDocument {
  return describeApi().document;
}

function describeApi() {
  if (!described) {
    const document = openApiDocument({
      groups: operationGroups,
      routes: [...authRouteDocs, ...blogRouteDocs, ...webhookRouteDocs, ...referenceDocs],
      version: "1",
      sessionCookie: SESSION_COOKIE,
    });
    described = { document, reference: referencePage(document) };
  }
  return described;
}

/** Everything under /api: the declared operations, the few hand-written routes, and their description. */
export function apiRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/openapi.json", (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.json(describeApi().document);
    })
    .get("/docs", (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.html(describeApi().reference);
    })
    .route("/", authRoutes)
    .route("/", webhookRoutes)
    .route("/", restRoutesOf(operationGroups.flatMap((g) => Object.values(g.operations))))
    .route("/", blogRoutes)
    .all("*", () => {
      throw notFound();
    });
}
