import { z } from "zod";
import { apiTokenList, createTokenInput, newApiToken } from "../../shared/schemas/tokens";
import { createApiToken } from "../services/auth/create-api-token";
import { listApiTokens } from "../services/auth/list-api-tokens";
import { revokeApiToken } from "../services/auth/revoke-api-token";
import { mutation, query } from "./define";

/** Personal access tokens: the tRPC `tokens` router and /api/tokens. Only a signed-in session manages them. */
export const tokenOperations = {
  create: mutation({
    access: "user",
    sessionOnly: true,
    summary:
      "Makes a personal access token (read or write, 30, 90 or 365 days or no expiry); it is shown once.",
    input: createTokenInput,
    output: newApiToken,
    run: ({ deps, user }, input) => createApiToken(deps, user.id, input),
    rest: [{ method: "post", path: "/tokens", from: "body", status: 201 }],
  }),
  list: query({
    access: "user",
    sessionOnly: true,
    summary: "Your personal access tokens with their last use (never the tokens themselves).",
    output: apiTokenList,
    run: ({ deps, user }) => listApiTokens(deps, user.id),
    rest: [{ method: "get", path: "/tokens" }],
  }),
  revoke: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Revokes a personal access token at once.",
    input: z.strictObject({ id: z.string().trim().min(1).max(100) }),
    output: z.void(),
    run: ({ deps, user }, input) => revokeApiToken(deps, user.id, input.id),
    rest: [{ method: "delete", path: "/tokens/{id}", status: 204 }],
  }),
};
