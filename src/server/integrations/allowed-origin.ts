import { AppError } from "../errors";
import { literalRefusal, type OutboundConfig } from "../lib/outbound/fetch";

/** Matches a URL against patterns like `https://*.atlassian.net` or `http://127.0.0.1:*`. */
export function originAllowed(url: URL, patterns: string[]): boolean {
  return patterns.some((pattern) => {
    const m = pattern.match(/^(https?):\/\/(\*\.)?([^:/*]+)(?::(\*|\d+))?$/);
    if (!m) return false;
    const [, scheme, wildcard, host, port] = m;
    if (url.protocol !== `${scheme}:`) return false;
    const hostOk = wildcard
      ? url.hostname.endsWith(`.${host}`) && url.hostname.length > host!.length + 1
      : url.hostname === host;
    if (!hostOk) return false;
    const defaultPort = scheme === "https" ? "443" : "80";
    const actualPort = url.port || defaultPort;
    return port === "*" || (port ?? defaultPort) === actualPort;
  });
}

/**
 * A JIRA site URL the server may call, reduced to its origin; anything else is refused before any request.
 * With the configuration given, a site written as an address the outbound guard refuses (a loopback or
 * private address, in any spelling) is refused here too, in words the person can act on.
 */
export function jiraSiteOrigin(raw: string, patterns: string[], outbound?: OutboundConfig): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError("UNPROCESSABLE_CONTENT", "Invalid JIRA URL format", {
      fieldErrors: [{ field: "jira_url", message: "Invalid JIRA URL format" }],
    });
  }
  if (url.username || url.password || !originAllowed(url, patterns)) {
    const message =
      url.protocol !== "https:"
        ? "The JIRA URL must start with https://"
        : "The JIRA URL must be your Atlassian site, like https://your-team.atlassian.net";
    throw new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "jira_url", message }] });
  }
  const refused = outbound ? literalRefusal(outbound, "user", url.href) : null;
  if (refused)
    throw new AppError("UNPROCESSABLE_CONTENT", refused, {
      fieldErrors: [{ field: "jira_url", message: refused }],
    });
  return url.origin;
}
