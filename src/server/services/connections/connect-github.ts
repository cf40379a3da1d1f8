import type { z } from "zod";
import {
  GITHUB_WRITE_SCOPES,
  type GithubStatus,
  type githubConnectInput,
} from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { saveCredential } from "../../integrations/credentials";
import type { UserRow } from "../auth/sessions";
import { githubUser } from "./connections";

/** POST /github/connect: the token is checked against GET /user; a classic token must carry repo and read:user. */
export async function connectGithub(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof githubConnectInput>,
): Promise<GithubStatus> {
  // Failures are AppErrors worded for this page (client.ts): a refused token is a bad request, the rest
  // (rate limits, outages) are GitHub being unavailable.
  const res = await githubUser(deps, input.access_token);
  const header = res.headers["x-oauth-scopes"];
  const scopes =
    header === undefined
      ? null
      : header
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  // Classic tokens list their scopes: writing issues needs `repo`, or `public_repo` for public
  // repositories (each export checks its repository). Fine-grained tokens list none: what they may do is
  // per repository, and an export says which permission a refusal named (github/exporter.ts).
  if (scopes !== null && !GITHUB_WRITE_SCOPES.some((s) => scopes.includes(s))) {
    throw new AppError(
      "BAD_REQUEST",
      "The token cannot write issues: it needs the repo scope (or public_repo, for public repositories only).",
    );
  }
  const me = res.data;
  await saveCredential(
    deps,
    user.id,
    "github",
    { token: input.access_token },
    {
      login: me.login,
      public_repos: me.public_repos ?? 0,
      scopes,
    },
  );
  return {
    connected: true,
    user: { login: me.login, username: me.login, public_repos: me.public_repos ?? 0 },
    missing_scopes: [],
  };
}
