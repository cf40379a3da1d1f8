import { errorDetailOf, httpStatusOf } from "../../lib/api-error";

export const OAUTH_FAILED_HEADING =
  "Authentication failed. Please try again or use another authentication method.";

/** OAuth callback: the message for a failed code exchange. */
export function oauthExchangeErrorMessage(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === 400) {
    return errorDetailOf(error) ?? "Authorization code expired or invalid. Please try logging in again.";
  }
  if (status !== undefined && status >= 500) return "Server error during OAuth flow. Please try again later.";
  return "OAuth authentication failed. Please try again.";
}
