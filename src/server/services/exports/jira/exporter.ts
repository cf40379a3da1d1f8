import { IntegrationError } from "../../../integrations/errors";
import { connectJira } from "../../../integrations/jira/connection";
import { outboundFetch } from "../../../lib/outbound/fetch";
import { exportCounts, previousExport } from "../remote";
import type { Exporter } from "../tracker-deps";
import { confluenceDocuments } from "./confluence";
import { describeJira } from "./errors";
import { planIssues } from "./payloads";
import { runJiraExport } from "./run";
import type { JiraPlan, JiraState } from "./types";

/**
 * A JIRA project with epics, stories and sub-tasks (bulk-created, level by level), labels set at
 * creation, and Confluence pages when the site has a space with the project's key. `prepare` checks the
 * account against GET /myself and plans the issues and pages; `run` writes them.
 */
export const jiraExporter: Exporter<JiraPlan> = {
  async prepare(ctx) {
    const { config, secret, deps } = ctx;
    const site = String(config.jira_url);
    const key = String(config.project_key);
    // An earlier export of this plan to this project: it is updated, not made again.
    const previous = await previousExport(deps, ctx.tree.id, "jira", `${site}|${key}`);
    const existing = config.existing_project === true || previous.byTask.size > 0;
    const { jira: http, wiki } = await connectJira({
      fetch: outboundFetch(deps.config, "user"),
      site,
      email: secret.user_email!,
      token: secret.api_token!,
      gateway: deps.config.ATLASSIAN_API_URL,
      concurrency: deps.config.EXPORT_CONCURRENCY,
      signal: ctx.signal,
      retries: deps.config.EXPORT_HTTP_RETRIES,
      describe: describeJira,
    });
    const state = ctx.state as JiraState;
    if (existing) {
      const found = await http.request("GET", `/rest/api/3/project/${encodeURIComponent(key)}`, {
        expect: [404],
      });
      if (found.status === 404) {
        throw new IntegrationError(
          `There is no JIRA project ${key}, or this account cannot see it. Pick one of your projects.`,
          404,
        );
      }
    } else if (!state.project_key) {
      // Creating a project needs the Administer Jira global permission: say so before anything is written.
      const perms = await http.request<{ permissions?: Record<string, { havePermission?: boolean }> }>(
        "GET",
        "/rest/api/3/mypermissions",
        { query: { permissions: "ADMINISTER" } },
      );
      if (!perms.body.permissions?.ADMINISTER?.havePermission) {
        throw new IntegrationError(
          "Creating a JIRA project needs the Administer Jira permission, which this account does not have. Export into one of your existing projects instead.",
          403,
        );
      }
    }
    const planned = planIssues(ctx.tree);
    const pages = confluenceDocuments(ctx, String(config.project_name));
    return {
      http,
      wiki,
      site,
      key,
      existing,
      previous,
      planned,
      pages,
      writes: {
        projects: existing ? 0 : 1,
        ...exportCounts(
          previous,
          planned.map((p) => p.task.id),
        ),
        epics: planned.filter((p) => p.kind === "epic").length,
        stories: planned.filter((p) => p.kind === "story").length,
        subtasks: planned.filter((p) => p.kind === "subtask").length,
        confluence_pages: pages.length,
      },
    };
  },
  run: runJiraExport,
};
