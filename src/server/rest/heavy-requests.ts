import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { HEAVY_PROCEDURES } from "../../shared/batch-cost";
import { honoPath } from "../http/paths";
import { readCookies, SESSION_COOKIE } from "../http/session-cookies";
import { Turns } from "../lib/turns";
import { taskOperations } from "../operations/tasks";

/**
 * Heavy requests (a whole plan read or scheduled; shared/batch-cost.ts) from one client take turns, at
 * most HEAVY_REQUESTS_PER_CLIENT at once and HEAVY_REQUESTS_PER_SECOND a second, before anything is read
 * for them: not even their credential is checked until their turn comes. Eight clients on one token
 * reading a 10,000-node plan over and over so hold two places in the process's and the database's queues,
 * at a pace that leaves the process to everyone else, and another user's dashboard keeps its own (issue
 * 39; `npm run bench`, "reads that never block"). A client is its credential (bearer token or session
 * cookie), else its address. A person's browser reads a plan when it changes, far below either bound.
 */

/** The REST paths of the heavy procedures, as patterns ("/api/tasks/:id/tree"). */
const HEAVY_REST = [...HEAVY_PROCEDURES].flatMap((name) => {
  const op = taskOperations[name.replace(/^tasks\./, "") as keyof typeof taskOperations];
  return (op?.rest ?? []).map(
    (route) => new RegExp(`^/api${honoPath(route.path).replace(/:\w+/g, "[^/]+")}$`),
  );
});

export function isHeavyRequest(method: string, path: string): boolean {
  if (path.startsWith("/trpc/"))
    return path
      .slice(6)
      .split(",")
      .some((p) => HEAVY_PROCEDURES.has(p));
  return method === "GET" && HEAVY_REST.some((pattern) => pattern.test(path));
}

function clientKey(c: Context, address: string): string {
  const credential = c.req.header("authorization") ?? readCookies(c.req.header("cookie"))[SESSION_COOKIE];
  return credential ? createHash("sha256").update(credential).digest("base64url") : `address:${address}`;
}

export function heavyRequestTurns(
  limits: { perClient: number; perSecond: number },
  addressOf: (c: Context) => string,
): MiddlewareHandler {
  const turns = new Turns(limits.perClient, limits.perSecond > 0 ? 1000 / limits.perSecond : 0);
  return (c, next) =>
    isHeavyRequest(c.req.method, c.req.path) ? turns.run(clientKey(c, addressOf(c)), () => next()) : next();
}
