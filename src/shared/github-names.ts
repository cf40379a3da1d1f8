/**
 * GitHub's naming rules, so a typed name can never reach another API path (`..`, `%2F`, a query):
 * an owner (user or organisation) is 1-39 letters, digits or single hyphens, neither first nor last;
 * a repository name is 1-100 letters, digits, `.`, `_` or `-`, and never `.` or `..`.
 */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

export type GithubRepoRef = { owner: string; repo: string };

export function isGithubOwner(name: string): boolean {
  return OWNER.test(name);
}

export function isGithubRepoName(name: string): boolean {
  return REPO.test(name) && name !== "." && name !== "..";
}

/** `owner/name` as GitHub's API paths take it, or null. */
export function parseGithubRepository(value: string): GithubRepoRef | null {
  const [owner, repo, ...rest] = value.split("/");
  if (rest.length > 0 || !owner || !repo) return null;
  return isGithubOwner(owner) && isGithubRepoName(repo) ? { owner, repo } : null;
}

/** https://github.com/{owner}/{repo}, with an optional `.git` or trailing slash, or null. */
export function parseGithubRepoUrl(url: string): GithubRepoRef | null {
  const m = url.match(/^https:\/\/github\.com\/([^/?#]+)\/([^/?#]+?)(?:\.git)?\/?$/);
  return m ? parseGithubRepository(`${m[1]}/${m[2]}`) : null;
}
