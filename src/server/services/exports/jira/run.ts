import { taskTitle } from "../../../../shared/task-title";
import type { RemoteBaseline } from "../../../db/schema/integrations";
import { IntegrationError } from "../../../integrations/errors";
import type { ExportContext } from "../tracker";
import { adfText } from "./adf-text";
import { writeConfluencePages } from "./confluence";
import { createScreen } from "./create-screen";
import { type EarlierIssue, markRemovedIssues, replaceChangedKinds, updateEarlierIssues } from "./earlier";
import { describeJira } from "./errors";
import { linkBlockers, unlinkDroppedBlockers } from "./links";
import { ATOMIZE_LABEL, exportMarker, issueFields } from "./payloads";
import { jqlString, reconcile, searchAll } from "./search";
import type { IssueType, JiraPlan, JiraState, Planned } from "./types";

const BULK_MAX = 50;

export async function runJiraExport(ctx: ExportContext, plan: JiraPlan) {
  const { config } = ctx;
  const { http, site, key, planned } = plan;
  const state = ctx.state as JiraState;
  state.issues ??= {};
  state.pages ??= {};
  // What an earlier export made here is this export's too: it is updated below, not created again.
  const inPlan = new Set(planned.map((p) => p.task.id));
  for (const [taskId, item] of plan.previous.byTask)
    if (inPlan.has(taskId) && !state.issues[taskId]) state.issues[taskId] = item.remoteId;
  const earlier = new Set(plan.previous.byTask.keys());

  // -- project_creation ------------------------------------------------------------------------------
  if (plan.existing) {
    await ctx.progress("project_creation", 2, `Exporting into the JIRA project ${key}`);
    state.project_key = key;
  } else {
    await ctx.progress("project_creation", 2, `Creating the JIRA project ${key}`);
  }
  if (!state.project_key && state.project_requested) {
    // The last request may have created it and lost the answer: a project led by this account is ours.
    const found = await http.request<{ lead?: { accountId?: string } }>(
      "GET",
      `/rest/api/3/project/${encodeURIComponent(key)}`,
      { expect: [404] },
    );
    if (found.status === 200 && found.body.lead?.accountId === String(config.account_id)) {
      state.project_key = key;
      await ctx.saveState();
    }
  }
  if (!state.project_key) {
    state.project_requested = true;
    await ctx.saveState();
    const created = await http.request<{ errors?: Record<string, string> }>("POST", "/rest/api/3/project", {
      json: {
        key,
        name: String(config.project_name),
        projectTypeKey: "software",
        projectTemplateKey: "com.pyxis.greenhopper.jira:gh-simplified-scrum-classic",
        leadAccountId: String(config.account_id),
        description: taskTitle(ctx.tree.description, 255),
      },
      expect: [400],
      create: true,
    });
    if (created.status === 400) {
      const errors = created.body.errors ?? {};
      if (errors.projectKey && /uses this project key|already exists/i.test(errors.projectKey)) {
        throw new IntegrationError(
          `JIRA says: ${errors.projectKey} Choose another project key, or export into that project.`,
          400,
        );
      }
      throw new IntegrationError(describeJira(400, created.body), 400);
    }
    state.project_key = key;
    await ctx.saveState();
  }
  const meta = await http.request<{ issueTypes: IssueType[] }>(
    "GET",
    `/rest/api/3/issue/createmeta/${encodeURIComponent(key)}/issuetypes`,
  );
  // Issue types by hierarchy level, not by (translatable) name.
  const types = meta.body.issueTypes;
  const epicType = types.find((t) => t.hierarchyLevel === 1);
  const level0 = types.filter((t) => t.hierarchyLevel === 0 && !t.subtask);
  const storyType = level0.find((t) => /story|histoire|historia/i.test(t.name)) ?? level0[0];
  const subtaskType = types.find((t) => t.hierarchyLevel === -1 || t.subtask);
  if (!epicType || !storyType || !subtaskType) {
    throw new IntegrationError(
      "The JIRA project has no epic, story or sub-task issue types; use a software project template.",
      400,
    );
  }
  // What each issue type's create screen takes in this project: story points only where it is listed,
  // and any required field Atomize cannot fill is reported before the first issue is sent.
  const screens = await Promise.all(
    [epicType, storyType, subtaskType].map((t) => createScreen(http, key, t)),
  );
  const storyPoints = { epic: screens[0]!.storyPoints, story: screens[1]!.storyPoints, subtask: null };
  const epicName = screens[0]!.epicName;
  const unfillable = screens.flatMap((sc, i) =>
    sc.unfillable.length
      ? [`${sc.unfillable.join(", ")} on ${[epicType, storyType, subtaskType][i]!.name}`]
      : [],
  );
  if (unfillable.length) {
    throw new IntegrationError(
      `JIRA requires fields Atomize cannot fill in project ${key}: ${unfillable.join("; ")}. Make them optional or give them a default value in the project's settings, then retry the export.`,
      400,
    );
  }
  await ctx.progress("project_creation", 10, `Project ${key} is ready`);

  // -- issue_creation --------------------------------------------------------------------------------
  const typeOf = { epic: epicType, story: storyType, subtask: subtaskType };
  // An earlier issue whose task changed kind (a story that became a parent, an epic left without
  // subtasks) cannot change type in place: a new issue of the right type replaces it, and the old one is
  // labelled atomize-removed, never deleted.
  // One search for what earlier exports made here: its issue types now, its links for the order below.
  const onSite = earlier.size
    ? await searchAll<EarlierIssue>(
        http,
        `project = ${jqlString(key)} AND labels = ${jqlString(ATOMIZE_LABEL)}`,
        "issuetype,issuelinks,labels,parent",
      )
    : [];
  const replaced = earlier.size ? await replaceChangedKinds(http, onSite, planned, state, earlier) : 0;
  const marker = exportMarker(ctx.row.id);
  if (state.pending?.length) {
    await ctx.progress("issue_creation", 10, "Looking for issues a lost answer may have created");
    await reconcile(http, key, marker, planned, state, ctx.deps.config.JIRA_SEARCH_SETTLE_MS, ctx.signal);
    await ctx.saveState();
  }
  let cut = 0;
  const levels: Planned[][] = [
    planned.filter((p) => p.kind === "epic"),
    planned.filter((p) => p.kind === "story"),
    planned.filter((p) => p.kind === "subtask"),
  ];
  let done = Object.keys(state.issues).length;
  for (const level of levels) {
    const todo = level.filter((p) => !state.issues![p.task.id]);
    for (let i = 0; i < todo.length; i += BULK_MAX) {
      const chunk = todo.slice(i, i + BULK_MAX);
      state.pending = chunk.map((p) => p.task.id);
      await ctx.saveState();
      const res = await http
        .request<{
          issues: Array<{ key: string }>;
          errors: Array<{
            failedElementNumber: number;
            elementErrors?: { errorMessages?: string[]; errors?: Record<string, string> };
          }>;
        }>("POST", "/rest/api/3/issue/bulk", {
          json: {
            issueUpdates: chunk.map((p) => {
              const fields = issueFields(
                p,
                key,
                typeOf[p.kind].id,
                storyPoints[p.kind],
                state,
                marker,
                epicName,
              );
              if (fields.cut) cut += 1;
              return { fields: fields.fields };
            }),
          },
          expect: [400],
          create: true,
        })
        .catch(async (err: unknown) => {
          // Refused outright (a 4xx, a 429): nothing was created, so nothing needs looking for.
          if (!(err instanceof IntegrationError && err.unconfirmed)) {
            state.pending = [];
            await ctx.saveState();
          }
          throw err;
        });
      const failed = new Set((res.body.errors ?? []).map((e) => e.failedElementNumber));
      let k = 0;
      chunk.forEach((p, index) => {
        if (failed.has(index)) return;
        const created = res.body.issues?.[k++];
        if (created) state.issues![p.task.id] = created.key;
      });
      state.pending = [];
      await ctx.saveState();
      if (failed.size) {
        const first = res.body.errors[0]?.elementErrors;
        const why = [...(first?.errorMessages ?? []), ...Object.values(first?.errors ?? {})].join("; ");
        throw new IntegrationError(
          `JIRA refused ${failed.size} issue(s): ${why || "validation failed"}`,
          400,
        );
      }
      done = Object.keys(state.issues).length;
      await ctx.progress(
        "issue_creation",
        10 + (70 * done) / planned.length,
        `Created ${done} of ${planned.length} issues`,
      );
    }
  }

  // -- what an earlier export made: brought up to date, and what was made for deleted tasks marked --
  const { updated, unmoved } = await updateEarlierIssues(ctx, plan, earlier, {
    typeIds: { epic: epicType.id, story: storyType.id, subtask: subtaskType.id },
    storyPoints,
    epicName,
    marker,
    labels: new Map(onSite.map((i) => [i.key, i.fields?.labels ?? []])),
    parents: new Map(onSite.map((i) => [i.key, i.fields?.parent?.key ?? null])),
  });
  const removed = await markRemovedIssues(ctx, plan);

  // -- label_update: labels go on at creation (an epic also carries the highest complexity band below
  // it); one search confirms JIRA has them, instead of a request per issue.
  await ctx.progress("label_update", 82, "Checking labels");
  await http.request("GET", "/rest/api/3/search/jql", {
    query: {
      jql: `project = ${jqlString(key)} AND labels = ${jqlString(ATOMIZE_LABEL)}`,
      fields: "labels",
      maxResults: 1,
    },
  });
  await ctx.progress("label_update", 88, `Labels applied to ${Object.keys(state.issues).length} issues`);

  // -- the order: "Blocks" links ------------------------------------------------------------------------
  const unlinked = earlier.size ? await unlinkDroppedBlockers(http, onSite, planned, state, earlier) : 0;
  const order = await linkBlockers(ctx, http, planned, state);

  // -- Confluence pages: tech stack, best practices, standards ---------------------------------------
  const spaceKey = typeof config.confluence_space_key === "string" ? config.confluence_space_key : key;
  const confluence = await writeConfluencePages(
    ctx,
    plan.wiki,
    spaceKey,
    String(config.project_name),
    plan.pages,
  );
  const warnings = [
    ...(confluence.note ? [confluence.note] : []),
    ...("dependencies_note" in order && order.dependencies_note ? [order.dependencies_note] : []),
    ...(cut
      ? [
          `${cut} description${cut === 1 ? " was" : "s were"} cut to fit JIRA's 32,767-character limit; the full text is in Atomize.`,
        ]
      : []),
    ...(unmoved.length
      ? [
          `JIRA moves a sub-task to another parent only by hand: use Move on ${unmoved.slice(0, 5).join(", ")}${unmoved.length > 5 ? ` and ${unmoved.length - 5} more` : ""}.`,
        ]
      : []),
  ];
  // What each issue was sent, as JIRA reads it back: the baseline a later edit there is compared with.
  const byTask = new Map(planned.map((p) => [p.task.id, p]));
  const sentOf = (taskId: string): RemoteBaseline | undefined => {
    const p = byTask.get(taskId);
    if (!p) return undefined;
    const { fields } = issueFields(p, key, typeOf[p.kind].id, storyPoints[p.kind], state, marker);
    const points = storyPoints[p.kind] ? fields[storyPoints[p.kind]!] : undefined;
    return {
      title: String(fields.summary),
      text: adfText(fields.description),
      story_points: typeof points === "number" ? points : null,
      parent: (fields.parent as { key?: string } | undefined)?.key ?? null,
    };
  };
  return {
    ...order,
    issues_created: Object.keys(state.issues).length - updated,
    issues_updated: updated,
    issues_marked_removed: removed + replaced,
    issues_replaced: replaced,
    dependencies_removed: unlinked,
    project_key: key,
    project_url: `${site}/browse/${key}`,
    confluence_pages: confluence.pages,
    confluence_space_key: confluence.pages ? spaceKey : null,
    ...(confluence.note ? { confluence_note: confluence.note } : {}),
    warnings,
    remote: {
      target: `${site}|${key}`,
      items: Object.entries(state.issues).map(([taskId, issueKey]) => ({
        task_id: taskId,
        remote_id: issueKey,
        key: issueKey,
        url: `${site}/browse/${issueKey}`,
        sent: sentOf(taskId),
      })),
    },
  };
}
