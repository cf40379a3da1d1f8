import { Hono } from "hono";
import { googleExchangeInput } from "../../shared/schemas/auth";
import { AppError } from "../errors";
import type { AppEnv } from "../http/hono-env";
import { restContext } from "../operations/context";
import type { RouteDoc } from "../operations/define";
import { invoke } from "../operations/invoke";
import { linkOperations } from "../operations/links";

/**
 * The auth routes that are not operations: Google's redirect back to us answers with a redirect, not
 * JSON. Everything else under /api/auth is declared in operations/auth.ts.
 */
export const authRoutes = new Hono<AppEnv>()
  // Server-side callback: Google returns here, we redeem the code and hand the SPA a one-time code.
  .get("/auth/google/callback", async (c) => {
    const q = c.req.query();
    const to = (params: Record<string, string>) =>
      c.redirect(`/oauth-callback?${new URLSearchParams(params)}`, 302);
    if (q.error) return to({ error: q.error.slice(0, 100) });
    const parsed = googleExchangeInput.safeParse({
      code: q.code ?? "",
      state: q.state ?? "",
      // RFC 9207: the issuer's name for itself, which openid-client compares with the discovered issuer.
      ...(q.iss === undefined ? {} : { iss: q.iss }),
    });
    if (!parsed.success) return to({ error: "invalid_request" });
    try {
      const { code } = await invoke(linkOperations.googleCallback, restContext(c), parsed.data);
      return to({ code });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return to({ error: err.status >= 500 ? "server_error" : "access_denied" });
    }
  });

export const authRouteDocs: RouteDoc[] = [
  {
    method: "get",
    path: "/auth/google/callback",
    tag: "Auth",
    summary:
      "Google's redirect after sign-in: redeems the code and redirects to /oauth-callback with a one-time code or an error.",
    query: ["code", "state", "iss", "error"],
    responses: { "302": "To /oauth-callback?code=... or /oauth-callback?error=..." },
  },
];
