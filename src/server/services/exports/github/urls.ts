/**
 * Addresses of pages on the GitHub in use. GitHub.com serves its pages from github.com whatever the API's
 * address (api.github.com, or a local stand-in); GitHub Enterprise Server serves its API under
 * `https://HOST/api/v3` (GitHub's REST docs, "Using the REST API with GitHub Enterprise Server") and its
 * pages from `https://HOST`.
 */
export function githubWebBase(apiUrl: string): string {
  const api = new URL(apiUrl);
  return /\/api\/v3\/?$/.test(api.pathname) ? `https://${api.host}` : "https://github.com";
}

/**
 * A URL from GitHub (a delivery, an answer) kept only when it is an https page of the GitHub in use, with
 * no credentials in it: `javascript:`, other hosts and anything unparsable are null (issue 39).
 */
export function githubPageUrl(url: string | null, apiUrl: string): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const web = new URL(githubWebBase(apiUrl));
  return parsed.protocol === "https:" && parsed.host === web.host && !parsed.username && !parsed.password
    ? parsed.href
    : null;
}
