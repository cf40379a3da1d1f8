import type { Context } from "hono";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import type { Logger } from "../lib/logger";
import type { SessionMeta } from "../services/auth/sessions";
import type { RequestAuth } from "./session-cookies";

/** Typed Hono context variables, set by app.ts middleware. */
export type AppEnv = {
  Variables: {
    deps: Deps;
    auth: RequestAuth;
    requestId: string;
    /** The request's own logger: every line carries its request id. */
    log: Logger;
    meta: SessionMeta;
  };
};

/** The JSON object of the body (an empty body reads as `{}`); malformed JSON is a 400, anything else a 422. */
export async function readJsonObject(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AppError("BAD_REQUEST", "Malformed JSON body");
    }
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Request body must be a JSON object", {
      fieldErrors: [{ field: "body", message: "Request body must be a JSON object" }],
    });
  }
  return raw as Record<string, unknown>;
}

export function appendCookies(c: Context<AppEnv>) {
  return (cookies: string[]) => {
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
  };
}
