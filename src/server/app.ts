import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BATCH_COST_MAX, batchCost, batchTooCostly, HEAVY_PROCEDURES } from "../shared/batch-cost";
import { type ErrorCode, errorCodes } from "../shared/errors";
import { REPOSITORY_MAP_LIMITS } from "../shared/schemas/repository-map";
import type { Deps } from "./deps";
import { AppError, notFound, reportUnexpected } from "./errors";
import type { AppEnv } from "./http/hono-env";
import { authenticate, isSameOriginRequest, REFRESH_COOKIE, readCookies } from "./http/session-cookies";
import { compression } from "./lib/compression";
import { forbiddenInput, NUL_MESSAGE } from "./lib/forbidden-text";
import { handleMcp, MCP_PATH, PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from "./mcp/route";
import { callerContext } from "./operations/context";
import { apiRoutes } from "./rest/api";
import {
  BLOG_IMAGE_UPLOAD_PATH,
  blogSiteRoutes,
  UPLOAD_BODY_BYTES,
  uploadResponseHeaders,
} from "./rest/blog";
import { heavyRequestTurns } from "./rest/heavy-requests";
import { createSitePages } from "./ssr/pages";
import { appRouter } from "./trpc/router";

export const MAX_BODY_BYTES = 1024 * 1024;
/** POST /api/tasks: a description and a repository map at its largest (shared/schemas/repository-map.ts). */
export const PROJECT_BODY_BYTES = REPOSITORY_MAP_LIMITS.bytes + MAX_BODY_BYTES;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type AppOptions = {
  clientDir?: string;
  /** The server renderer's module (ssr/pages.ts); by default dist/ssr/entry-server.js beside the client. */
  ssrEntry?: string;
};

/** Where an OAuth client looks for an authorization server: Atomize has none (tokens come from Settings). */
function noAuthorizationServer(c: Context) {
  return c.json(
    {
      title: "Not Found",
      status: 404,
      detail:
        "Atomize has no OAuth authorization server: use a personal access token from Settings > API tokens.",
    },
    404,
  );
}

export function clientIp(deps: Deps, c: Parameters<typeof getConnInfo>[0]): string | null {
  if (deps.config.TRUST_PROXY) {
    // The right-most entry is the one our proxy added; entries to its left are whatever the client sent.
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 100);
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** `/a%00b` decodes to a NUL; a malformed escape stays as it is (the router answers it). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * What is refused in a request before any route reads it, and where: a NUL character in its path, query
 * or JSON/text body, or a JSON body nested too deeply (forbidden-text.ts).
 */
async function forbiddenIn(
  c: import("hono").Context<AppEnv>,
): Promise<{ field: string; message: string } | null> {
  if (decodedPath(c.req.path).includes("\u0000")) return { field: "path", message: NUL_MESSAGE };
  const inQuery = forbiddenInput(c.req.queries());
  if (inQuery) return { field: "query", message: inQuery };
  if (!MUTATING.has(c.req.method) || c.req.path === BLOG_IMAGE_UPLOAD_PATH) return null;
  const text = await c.req.raw.clone().text();
  if (text.includes("\u0000")) return { field: "body", message: NUL_MESSAGE };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null; // not JSON: the route's own parsing answers it
  }
  const inBody = forbiddenInput(body);
  return inBody ? { field: "body", message: inBody } : null;
}

/** The REST answer for an AppError: its status, headers and `{ detail, errors }` body. */
function errorResponse(c: import("hono").Context<AppEnv>, err: AppError) {
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json(err.toBody(), err.status as ContentfulStatusCode);
}

/** The error code for an HTTP status a library chose (Hono's own exceptions). */
function codeForStatus(status: number): ErrorCode {
  return (Object.entries(errorCodes).find(([, s]) => s === status)?.[0] as ErrorCode) ?? "BAD_REQUEST";
}

function requestOrigin(deps: Deps, c: import("hono").Context<AppEnv>) {
  const protocol = new URL(c.req.url).protocol.slice(0, -1);
  return {
    origin: c.req.header("origin"),
    secFetchSite: c.req.header("sec-fetch-site"),
    host: deps.config.TRUST_PROXY
      ? (c.req.header("x-forwarded-host") ?? c.req.header("host"))
      : c.req.header("host"),
    proto: deps.config.TRUST_PROXY ? (c.req.header("x-forwarded-proto") ?? protocol) : protocol,
  };
}

/** A browser says where a request comes from; a request that says nothing (curl, SDKs) is not cross-site. */
function isCrossSite(deps: Deps, c: import("hono").Context<AppEnv>): boolean {
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if (!site && !origin) return false;
  if (site === "none" && !origin) return false;
  return !isSameOriginRequest(deps, requestOrigin(deps, c));
}

const CROSS_SITE_MESSAGE = "Cross-site request blocked";

export function createApp(deps: Deps, opts: AppOptions = {}) {
  const app = new Hono<AppEnv>();

  // Order matters: request id and headers first, then health, then the API surfaces, then the SPA.
  app.use("*", async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 100) || randomUUID();
    c.set("requestId", requestId);
    c.set("log", deps.log.child({ requestId }));
    c.set("deps", deps);
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    // Server time for benchmarks and browser devtools (no internals beyond the duration).
    c.header("Server-Timing", `app;dur=${ms.toFixed(2)}`);
    // The path only: query strings can carry tokens (unsubscribe and confirmation links).
    deps.log.debug("request", {
      requestId,
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status: c.res.status,
      ms: Math.round(ms),
    });
  });
  // Every answer from here on (API JSON, pages, feeds, static files) is compressed by Accept-Encoding;
  // inside the timing above, which so measures the handler alone (the body is compressed as it is sent).
  app.use("*", compression());
  // Blog uploads: their own strict headers, set after (so over) the app-wide ones below.
  app.use("/uploads/*", uploadResponseHeaders);
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        connectSrc: ["'self'", "ws:", "wss:"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
      crossOriginEmbedderPolicy: false,
    }),
  );

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // The MCP server's protected-resource metadata (RFC 9728), at the well-known path and under the
  // resource's own path; and a plain 404 where an OAuth client looks for an authorization server, so the
  // page's HTML is never read as one.
  for (const path of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`])
    app.get(path, (c) => c.json(protectedResourceMetadata(deps.config.PUBLIC_URL)));
  app.get("/.well-known/:name{oauth-authorization-server|openid-configuration}/*", noAuthorizationServer);
  app.get("/.well-known/:name{oauth-authorization-server|openid-configuration}", noAuthorizationServer);
  app.get("/readyz", async (c) =>
    (await deps.database.ping())
      ? c.json({ status: "ready", database: deps.database.driver })
      : c.json({ status: "unavailable", detail: "Database unreachable" }, 503),
  );

  // Body size, authentication and CSRF apply to every API surface (REST, tRPC and MCP).
  // The blog image upload alone may send up to UPLOAD_BODY_BYTES (about 6 MB).
  app.use(
    BLOG_IMAGE_UPLOAD_PATH,
    bodyLimit({
      maxSize: UPLOAD_BODY_BYTES,
      onError: (c) =>
        errorResponse(
          c,
          new AppError("PAYLOAD_TOO_LARGE", "Image size must be less than 5MB", {
            headers: { Connection: "close" },
          }),
        ),
    }),
  );
  const apiBodyLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    // The unread body stays on the socket, so this connection must not be reused.
    onError: (c) =>
      errorResponse(
        c,
        new AppError("PAYLOAD_TOO_LARGE", "Request body is too large (limit 1 MB)", {
          headers: { Connection: "close" },
        }),
      ),
  });
  // A new project may carry its repository's map (issue 42), up to the map's documented size.
  const projectBodyLimit = bodyLimit({
    maxSize: PROJECT_BODY_BYTES,
    onError: (c) =>
      errorResponse(
        c,
        new AppError(
          "PAYLOAD_TOO_LARGE",
          `Request body is too large (limit ${Math.round(PROJECT_BODY_BYTES / 1_000_000)} MB with a repository map): map a part of the repository (--repo takes a folder)`,
          { headers: { Connection: "close" } },
        ),
      ),
  });
  const heavyTurns = heavyRequestTurns(
    { perClient: deps.config.HEAVY_REQUESTS_PER_CLIENT, perSecond: deps.config.HEAVY_REQUESTS_PER_SECOND },
    (c) => clientIp(deps, c) ?? "unknown",
  );
  for (const prefix of ["/api/*", "/trpc/*", MCP_PATH]) {
    app.use(prefix, (c, next) =>
      c.req.path === BLOG_IMAGE_UPLOAD_PATH
        ? next()
        : c.req.path === "/api/tasks" && c.req.method === "POST"
          ? projectBodyLimit(c, next)
          : apiBodyLimit(c, next),
    );
    // Answers about an account must never be kept by a browser or proxy cache.
    app.use(prefix, async (c, next) => {
      await next();
      if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
    });
    app.use(prefix, async (c, next) => {
      // A browser's cross-site write is refused whoever sends it: this is also the login CSRF defence
      // (a forged form cannot sign a victim into the attacker's account). API clients send no Origin.
      if (MUTATING.has(c.req.method) && isCrossSite(deps, c)) {
        throw new AppError("FORBIDDEN", CROSS_SITE_MESSAGE);
      }
      const forbidden = await forbiddenIn(c);
      if (forbidden) {
        throw new AppError("UNPROCESSABLE_CONTENT", forbidden.message, { fieldErrors: [forbidden] });
      }
      await next();
    });
    app.use(prefix, heavyTurns);
    app.use(prefix, async (c, next) => {
      const auth = await authenticate(deps, c.req.header("authorization"), c.req.header("cookie"));
      c.set("auth", auth);
      c.set("meta", { ip: clientIp(deps, c), userAgent: c.req.header("user-agent") ?? null });
      const cookies = readCookies(c.req.header("cookie"));
      const usesCookies = auth.via === "cookie" || (!auth.via && Boolean(cookies[REFRESH_COOKIE]));
      if (MUTATING.has(c.req.method) && usesCookies) {
        if (!isSameOriginRequest(deps, requestOrigin(deps, c))) {
          throw new AppError("FORBIDDEN", CROSS_SITE_MESSAGE);
        }
      }
      await next();
    });
  }

  app.all("/trpc/*", async (c) => {
    const maxBatch = deps.config.TRPC_MAX_BATCH_SIZE;
    const procedures = c.req.path.slice("/trpc/".length).split(",");
    if (procedures.length > maxBatch) {
      throw new AppError("BAD_REQUEST", `Too many procedures in one batch (at most ${maxBatch}).`);
    }
    const cost = batchCost(procedures.map((p) => HEAVY_PROCEDURES.has(p)));
    if (cost > BATCH_COST_MAX) throw new AppError("BAD_REQUEST", batchTooCostly(cost));
    return fetchRequestHandler({
      endpoint: "/trpc",
      req: c.req.raw,
      router: appRouter,
      allowMethodOverride: false,
      maxBatchSize: maxBatch,
      createContext: ({ resHeaders }) => ({
        ...callerContext({
          deps,
          session: c.get("auth").session,
          meta: c.get("meta"),
          log: c.get("log"),
          refreshCookie: readCookies(c.req.header("cookie"))[REFRESH_COOKIE] ?? null,
          setCookies: (cookies: string[]) => {
            for (const cookie of cookies) resHeaders.append("Set-Cookie", cookie);
          },
        }),
        authVia: c.get("auth").via,
        requestId: c.get("requestId"),
      }),
      // Procedures report their own failures (trpc/init.ts); this catches the rest (context, parsing)
      // and logs nothing twice.
      onError: ({ error, path }) => {
        if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError))
          reportUnexpected(c.get("log"), error.cause ?? error, { path });
      },
    });
  });

  app.route("/api", apiRoutes());
  app.all(MCP_PATH, handleMcp);
  // Nothing is published under /.well-known (no OAuth metadata: /mcp takes personal access tokens), so
  // a client probing it gets a 404, not the SPA's page.
  app.all("/.well-known/*", () => {
    throw notFound();
  });

  // The built client: hashed assets cached for a year; every other path is a page, rendered on the
  // server when the server renderer is built (ssr/pages.ts), else the SPA's index.html. Files are served
  // as their build-time .br or .gz (scripts/precompress.mjs) when the client takes it.
  const clientDir = opts.clientDir ?? path.resolve("dist/client");
  const indexFile = path.join(clientDir, "index.html");
  // Blog: uploads, sitemap.xml, robots.txt and the RSS feed, before the pages.
  app.route("/", blogSiteRoutes());
  if (existsSync(indexFile)) {
    const root = path.relative(process.cwd(), clientDir) || ".";
    app.use(
      "/assets/*",
      serveStatic({
        root,
        precompressed: true,
        onFound: (_p, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
      }),
    );
    // "/" is a page (the landing page, rendered), not the template file.
    const files = serveStatic({ root, precompressed: true });
    app.use("*", (c, next) => (c.req.path === "/" ? next() : files(c, next)));
  }
  app.get("*", createSitePages(deps, { clientDir, ...(opts.ssrEntry ? { ssrEntry: opts.ssrEntry } : {}) }));

  // The one place a REST or site request's error becomes an answer.
  app.onError((err, c) => {
    const log = c.get("log") ?? deps.log;
    if (err instanceof AppError) return errorResponse(c, err);
    if (err instanceof HTTPException) {
      return errorResponse(
        c,
        new AppError(codeForStatus(err.status), err.message || "Invalid request. Please check your input."),
      );
    }
    if ((err as { code?: unknown }).code === "ECONNRESET") {
      // The client went away (or was cut off by the request deadline) while we read its body.
      log.debug("request aborted by the client", { path: c.req.path });
      return errorResponse(c, new AppError("BAD_REQUEST", "The request was aborted."));
    }
    return errorResponse(c, reportUnexpected(log, err, { path: c.req.path }));
  });
  app.notFound((c) => errorResponse(c, notFound()));

  return app;
}
