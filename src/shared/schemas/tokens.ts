import { z } from "zod";

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

export type ApiToken = {
  id: string;
  name: string;
  scope: TokenScope;
  /** The token's first characters, to tell tokens apart. */
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
};
/** What POST /tokens answers, the only time the token itself is shown. */
export type NewApiToken = Pick<ApiToken, "id" | "name" | "scope" | "expires_at"> & { token: string };
