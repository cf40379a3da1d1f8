import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { jiraSiteOrigin } from "../../integrations/allowed-origin";
import { readCredential } from "../../integrations/credentials";
import { JIRA_PROJECTS_MAX, jiraFor } from "./connections";

/** GET /jira/projects: the projects the stored JIRA connection can see, to export into one of them. */
export async function jiraProjects(
  deps: Deps,
  userId: string,
): Promise<{ projects: { key: string; name: string }[]; truncated: boolean }> {
  const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
  if (!stored)
    throw new AppError("UNPROCESSABLE_CONTENT", "Connect JIRA in Settings first to list your projects.");
  const site = jiraSiteOrigin(
    String(stored.publicData.jira_url),
    deps.config.JIRA_ALLOWED_ORIGINS,
    deps.config,
  );
  const { jira } = await jiraFor(deps, site, stored.secret.user_email, stored.secret.api_token);
  const projects: { key: string; name: string }[] = [];
  let last = false;
  for (let startAt = 0; !last && projects.length < JIRA_PROJECTS_MAX; ) {
    const page = await jira.request<{ values?: Array<{ key?: unknown; name?: unknown }>; isLast?: boolean }>(
      "GET",
      "/rest/api/3/project/search",
      { query: { startAt, maxResults: 100, orderBy: "key" } },
    );
    const values = page.body.values ?? [];
    for (const v of values)
      if (typeof v.key === "string" && typeof v.name === "string")
        projects.push({ key: v.key, name: v.name });
    startAt += values.length;
    last = page.body.isLast !== false || values.length === 0;
  }
  return { projects: projects.slice(0, JIRA_PROJECTS_MAX), truncated: !last };
}
