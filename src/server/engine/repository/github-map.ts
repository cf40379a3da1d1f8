import { eq, lt } from "drizzle-orm";
import { z } from "zod";
import { parseGithubRepoUrl } from "../../../shared/github-names";
import { buildRepositoryMap, SYMBOL_FILE_MAX_BYTES } from "../../../shared/repository-map/build";
import { type RepositoryMap, repositoryMap } from "../../../shared/schemas/repository-map";
import { repositoryMapCache } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { githubClient, INTERACTIVE_RATE_LIMIT_WAIT_MS } from "../../integrations/github/client";

/**
 * A linked GitHub repository's map (issue 42), read through GitHub's REST API with the one GitHub client
 * (its throttling, the outbound guard, a token that never leaves GitHub's origin): the default branch's
 * tree in one recursive call, then the blobs the map reads (manifests, README, CODEOWNERS, source files
 * for their symbols), at most GITHUB_MAP_READS of them, so a plan costs a bounded part of the hourly
 * rate limit. Kept per repository and tree: the next plan of the same code reads nothing but the tree.
 * Anything that goes wrong gives null, and the context stage falls back to the README and paths.
 */

/** Blobs read for one map, at most (GitHub allows 5,000 requests an hour to a token). */
export const GITHUB_MAP_READS = 200;
/** How long a cached map is kept. */
export const MAP_CACHE_MS = 7 * 24 * 60 * 60_000;

const repoSchema = z.object({ full_name: z.string(), default_branch: z.string() });
const treeSchema = z.object({
  sha: z.string(),
  tree: z.array(
    z.object({ path: z.string(), type: z.string(), sha: z.string(), size: z.number().optional() }),
  ),
  truncated: z.boolean().optional(),
});
const blobSchema = z.object({ content: z.string(), encoding: z.string() });

export async function githubRepositoryMap(
  deps: Pick<Deps, "config" | "log" | "db">,
  repoUrl: string,
  token: string | null,
  signal?: AbortSignal,
): Promise<RepositoryMap | null> {
  const parsed = parseGithubRepoUrl(repoUrl);
  if (!parsed) return null;
  const github = githubClient(deps, token, {
    ...(signal ? { signal } : {}),
    maxRateLimitWaitMs: INTERACTIVE_RATE_LIMIT_WAIT_MS,
  });
  const { owner, repo } = parsed;
  try {
    const info = repoSchema.safeParse((await github.rest.repos.get({ owner, repo })).data);
    if (!info.success) return null;
    const tree = treeSchema.safeParse(
      (await github.rest.git.getTree({ owner, repo, tree_sha: info.data.default_branch, recursive: "1" }))
        .data,
    );
    if (!tree.success) return null;
    const key = `${info.data.full_name}@${tree.data.sha}`;
    const [cached] = await deps.db
      .select({ map: repositoryMapCache.map })
      .from(repositoryMapCache)
      .where(eq(repositoryMapCache.key, key));
    if (cached) return cached.map;
    const blobs = new Map(tree.data.tree.filter((e) => e.type === "blob").map((e) => [e.path, e]));
    let reads = 0;
    let stopped = false;
    const built = await buildRepositoryMap({
      source: "github",
      name: info.data.full_name,
      commit: tree.data.sha,
      tree: [...blobs.values()].map((e) => ({ path: e.path, size: e.size ?? 0 })),
      read: async (path) => {
        const entry = blobs.get(path);
        if (!entry || (entry.size ?? 0) > SYMBOL_FILE_MAX_BYTES) return null;
        if (reads >= GITHUB_MAP_READS) {
          stopped = true;
          return null;
        }
        reads++;
        const blob = blobSchema.safeParse(
          (await github.rest.git.getBlob({ owner, repo, file_sha: entry.sha })).data,
        );
        if (!blob.success || blob.data.encoding !== "base64") return null;
        const bytes = Buffer.from(blob.data.content.replace(/\n/g, ""), "base64");
        return bytes.includes(0) ? null : bytes.toString("utf8");
      },
    });
    // What GitHub's answer cut, or the reads left out, make the map a part of the repository.
    const map = repositoryMap.parse({
      ...built,
      truncated: built.truncated || stopped || tree.data.truncated === true,
    });
    await deps.db.insert(repositoryMapCache).values({ key, map }).onConflictDoNothing();
    return map;
  } catch (err) {
    if (signal?.aborted) throw err;
    deps.log.warn("could not map the GitHub repository", {
      repo: `${owner}/${repo}`,
      err: (err as Error).message,
    });
    return null;
  }
}

/** Drops cached maps older than MAP_CACHE_MS. */
export async function purgeMapCache(deps: Pick<Deps, "db">): Promise<void> {
  await deps.db
    .delete(repositoryMapCache)
    .where(lt(repositoryMapCache.createdAt, new Date(Date.now() - MAP_CACHE_MS)));
}
