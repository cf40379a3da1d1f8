import { AppError } from "../errors";

/**
 * What a personal access token may not do, in both adapters: anything `sessionOnly`, and any change
 * when the token is read-only.
 */
export function tokenRefusal(
  op: { type: "query" | "mutation"; sessionOnly?: boolean },
  apiToken: { scope: "read" | "write" } | undefined,
): AppError | null {
  if (!apiToken) return null;
  if (op.sessionOnly) return new AppError("FORBIDDEN", "This needs a signed-in session, not an API token.");
  if (op.type === "mutation" && apiToken.scope === "read")
    return new AppError("FORBIDDEN", "This API token is read-only: make a write token to change anything.");
  return null;
}
