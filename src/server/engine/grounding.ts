import { z } from "zod";
import { parseGithubRepoUrl } from "../../shared/github-names";
import type { Deps } from "../deps";
import { IntegrationError } from "../integrations/errors";
import { githubClient, INTERACTIVE_RATE_LIMIT_WAIT_MS } from "../integrations/github/client";

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

/**
 * context_fetch: reads a repository's README and file tree through the GitHub REST API (the one GitHub
 * client, which follows a renamed repository's redirect within GitHub's API origin only, so the token
 * never travels elsewhere) and returns a bounded summary for the later stages. Anything that goes wrong
 * is a warning, never a failure.
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
  // Best effort: no retries, and a rate limit is waited out only when it lifts within seconds.
  const github = githubClient(deps, token, {
    ...(signal ? { signal } : {}),
    maxRateLimitWaitMs: INTERACTIVE_RATE_LIMIT_WAIT_MS,
  });
  const { owner, repo } = parsed;
  const name = `${owner}/${repo}`;
  // A README or tree GitHub refuses is left out; no answer at all fails the whole read, as the repository's would.
  const optional = <T>(request: Promise<{ data: T }>) =>
    request.then(
      (res) => res.data as unknown,
      (err: unknown) => {
        if (err instanceof IntegrationError && err.serviceStatus !== null) return null;
        throw err;
      },
    );
  try {
    let repoStatus = 200;
    const repoBody = await github.rest.repos.get({ owner, repo }).then(
      (res) => {
        repoStatus = res.status;
        return res.data as unknown;
      },
      (err: unknown) => {
        if (!(err instanceof IntegrationError) || err.serviceStatus === null) throw err;
        repoStatus = err.serviceStatus;
        return null;
      },
    );
    if (repoStatus === 404) {
      return {
        summary: null,
        warning: `The repository ${name} was not found or is private${token ? " to your connected GitHub account" : " (connect GitHub in Settings to read private repositories)"}; the plan was made without it.`,
      };
    }
    if (repoStatus === 403 || repoStatus === 429) {
      return {
        summary: null,
        warning: `GitHub's rate limit stopped us reading ${name}; the plan was made without it.`,
      };
    }
    const info = repoSchema.safeParse(repoBody);
    if (!info.success)
      return {
        summary: null,
        warning: `GitHub answered ${repoStatus} for ${name}; the plan was made without it.`,
      };
    const [readme, tree] = await Promise.all([
      optional(github.rest.repos.getReadme({ owner, repo })),
      optional(github.rest.git.getTree({ owner, repo, tree_sha: info.data.default_branch, recursive: "1" })),
    ]);
    const parts = [
      `Repository ${info.data.full_name}${info.data.description ? `: ${info.data.description}` : ""}`,
    ];
    const r = readmeSchema.safeParse(readme);
    if (r.success && r.data.encoding === "base64") {
      const text = Buffer.from(r.data.content.replace(/\n/g, ""), "base64").toString("utf8").trim();
      parts.push(`README (excerpt):\n${text.slice(0, README_MAX)}${text.length > README_MAX ? "\n…" : ""}`);
    }
    const t = treeSchema.safeParse(tree);
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
