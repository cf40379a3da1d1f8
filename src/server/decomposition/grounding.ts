import { z } from "zod";
import { parseGithubRepoUrl } from "../../shared/github-names";
import type { Deps } from "../deps";

const SUMMARY_MAX = 6000;
const README_MAX = 3500;
const TREE_MAX_PATHS = 150;

const repoSchema = z.object({
  full_name: z.string(),
  default_branch: z.string(),
  description: z.string().nullable().optional(),
});
const readmeSchema = z.object({ content: z.string(), encoding: z.string() });
const treeSchema = z.object({
  tree: z.array(z.object({ path: z.string(), type: z.string() })),
  truncated: z.boolean().optional(),
});

export type RepositoryContext = { summary: string | null; warning: string | null };

const MAX_REDIRECTS = 3;

/**
 * context_fetch: reads a repository's README and file tree through the GitHub REST API and returns a
 * bounded summary for the later stages. Anything that goes wrong is a warning, never a failure.
 */
export async function fetchRepositoryContext(
  deps: Pick<Deps, "config" | "log">,
  repoUrl: string,
  token: string | null,
  signal?: AbortSignal,
): Promise<RepositoryContext> {
  const parsed = parseGithubRepoUrl(repoUrl);
  if (!parsed)
    return { summary: null, warning: `The repository URL ${repoUrl} is not a GitHub repository URL.` };
  const base = deps.config.GITHUB_API_URL.replace(/\/$/, "");
  const headers: Record<string, string> = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    "user-agent": "Atomize",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const apiOrigin = new URL(base).origin;
  // Redirects are followed by hand, and only within GitHub's API origin: a renamed repository answers
  // 301 to its new API path, but the token must never travel to a host a redirect names.
  const get = async (path: string) => {
    let url = `${base}${path}`;
    let res: Response;
    for (let hop = 0; ; hop++) {
      res = await fetch(url, {
        headers,
        redirect: "manual",
        signal: AbortSignal.any([AbortSignal.timeout(10_000), ...(signal ? [signal] : [])]),
      });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location || hop >= MAX_REDIRECTS) break;
      const next = new URL(location, url);
      if (next.origin !== apiOrigin) break;
      await res.body?.cancel();
      url = next.toString();
    }
    return {
      status: res.status,
      body: res.ok ? ((await res.json()) as unknown) : null,
      remaining: res.headers.get("x-ratelimit-remaining"),
    };
  };
  const name = `${parsed.owner}/${parsed.repo}`;
  try {
    const repo = await get(`/repos/${parsed.owner}/${parsed.repo}`);
    if (repo.status === 404) {
      return {
        summary: null,
        warning: `The repository ${name} was not found or is private${token ? " to your connected GitHub account" : " (connect GitHub in Settings to read private repositories)"}; the plan was made without it.`,
      };
    }
    if (repo.status === 403 || repo.status === 429) {
      return {
        summary: null,
        warning: `GitHub's rate limit stopped us reading ${name}; the plan was made without it.`,
      };
    }
    const info = repoSchema.safeParse(repo.body);
    if (!info.success)
      return {
        summary: null,
        warning: `GitHub answered ${repo.status} for ${name}; the plan was made without it.`,
      };
    const [readme, tree] = await Promise.all([
      get(`/repos/${parsed.owner}/${parsed.repo}/readme`),
      get(
        `/repos/${parsed.owner}/${parsed.repo}/git/trees/${encodeURIComponent(info.data.default_branch)}?recursive=1`,
      ),
    ]);
    const parts = [
      `Repository ${info.data.full_name}${info.data.description ? `: ${info.data.description}` : ""}`,
    ];
    const r = readmeSchema.safeParse(readme.body);
    if (r.success && r.data.encoding === "base64") {
      const text = Buffer.from(r.data.content.replace(/\n/g, ""), "base64").toString("utf8").trim();
      parts.push(`README (excerpt):\n${text.slice(0, README_MAX)}${text.length > README_MAX ? "\n…" : ""}`);
    }
    const t = treeSchema.safeParse(tree.body);
    if (t.success) {
      const files = t.data.tree.filter((e) => e.type === "blob").map((e) => e.path);
      parts.push(
        `Files (${files.length}${t.data.truncated ? "+" : ""}):\n${files.slice(0, TREE_MAX_PATHS).join("\n")}${files.length > TREE_MAX_PATHS ? "\n…" : ""}`,
      );
    }
    return { summary: parts.join("\n\n").slice(0, SUMMARY_MAX), warning: null };
  } catch (err) {
    if (signal?.aborted) throw err;
    deps.log.warn("github grounding failed", { repo: name, err: (err as Error).message });
    return {
      summary: null,
      warning: `GitHub could not be reached to read ${name}; the plan was made without it.`,
    };
  }
}
