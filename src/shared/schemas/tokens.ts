import { z } from "zod";
import { isoTimestamp } from "./common";

/** Personal access tokens (Settings → API tokens): what a token may do, and how long it lives. */
export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const TOKEN_LIFETIMES = [30, 90, 365] as const;
/** Every token starts with this, so a leaked one is easy to recognise (and to search for). */
export const TOKEN_PREFIX = "atz_";

/** POST /tokens */
export const createTokenInput = z.strictObject({
  name: z
    .string({ error: "Give the token a name" })
    .trim()
    .min(1, "Give the token a name")
    .max(100, "The name is at most 100 characters"),
  scope: z.enum(TOKEN_SCOPES, { error: "scope must be read or write" }),
  expires_in_days: z
    .union([z.literal(30), z.literal(90), z.literal(365), z.null()], {
      error: "expires_in_days must be 30, 90, 365 or null (never)",
    })
    .default(90),
});

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  /** The token's first characters, to tell tokens apart. */
  prefix: z.string(),
  created_at: isoTimestamp,
  expires_at: isoTimestamp.nullable(),
  last_used_at: isoTimestamp.nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;
export const apiTokenList = z.object({ tokens: z.array(apiToken) });
/** What POST /tokens answers, the only time the token itself is shown. */
export const newApiToken = apiToken.pick({ id: true, name: true, scope: true, expires_at: true }).extend({
  token: z.string(),
});
export type NewApiToken = z.infer<typeof newApiToken>;
