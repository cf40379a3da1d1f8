import type { GithubStatus } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { readCredential } from "../../integrations/credentials";
import type { UserRow } from "../auth/sessions";
import { githubUser } from "./connections";

/** GET /github/status: a live check; a token GitHub no longer accepts counts as not connected. */
export async function getGithubStatus(deps: Deps, user: UserRow): Promise<GithubStatus> {
  const stored = await readCredential<{ token: string }>(deps, user.id, "github");
  if (!stored) return { connected: false, user: null, missing_scopes: [] };
  const me = await githubUser(deps, stored.secret.token).then(
    (res) => res.data,
    () => null,
  );
  if (!me) return { connected: false, user: null, missing_scopes: [] };
  return {
    connected: true,
    user: { login: me.login, username: me.login, public_repos: me.public_repos ?? 0 },
    missing_scopes: [],
  };
}
