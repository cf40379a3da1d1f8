import { taskTitle } from "../../../../shared/task-title";
import type { RemoteBaseline } from "../../../db/schema/integrations";
import { IntegrationError } from "../../../integrations/errors";
import type { ExportContext } from "../tracker-deps";
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

/**
 * The project, its issue types and create screens, the issues level by level (epics, stories, sub-tasks,
 * in bulks of 50), earlier exports' issues brought up to date, labels checked, "Blocks" links, then the
 * Confluence pages. Each step is a function below; `runJiraExport` runs them in turn.
 */
export async function runJiraExport(ctx: ExportContext, plan: JiraPlan) {
  const state = ctx.state as JiraState;
  state.issues ??= {};
  state.pages ??= {};
  // What an earlier export made here is this export's too: it is updated below, not created again.
  const inPlan = new Set(plan.planned.map((p) => p.task.id));
  for (const [taskId, item] of plan.previous.byTask)
    if (inPlan.has(taskId) && !state.issues[taskId]) state.issues[taskId] = item.remoteId;
  const earlier = new Set(plan.previous.byTask.keys());

  await makeProject(ctx, plan, state);
  const screens = await readScreens(plan);
  await ctx.progress("project_creation", 10, `Project ${plan.key} is ready`);
  // One search for what earlier exports made here: its issue types now, its links for the order below.
  const onSite = earlier.size
    ? await searchAll<EarlierIssue>(
        plan.http,
        `project = ${jqlString(plan.key)} AND labels = ${jqlString(ATOMIZE_LABEL)}`,
        "issuetype,issuelinks,labels,parent",
      )
    : [];
  // An earlier issue whose task changed kind (a story that became a parent, an epic left without
  // subtasks) cannot change type in place: a new issue of the right type replaces it, and the old one is
  // labelled atomize-removed, never deleted.
  const replaced = earlier.size
    ? await replaceChangedKinds(plan.http, onSite, plan.planned, state, earlier)
    : 0;
  const marker = exportMarker(ctx.row.id);
  const cut = await createIssues(ctx, plan, state, screens, marker);
  const { updated, unmoved } = await updateEarlierIssues(ctx, plan, earlier, {
    typeIds: {
      epic: screens.types.epic.id,
      story: screens.types.story.id,
      subtask: screens.types.subtask.id,
    },
    storyPoints: screens.storyPoints,
    epicName: screens.epicName,
    marker,
    labels: new Map(onSite.map((i) => [i.key, i.fields?.labels ?? []])),
    parents: new Map(onSite.map((i) => [i.key, i.fields?.parent?.key ?? null])),
  });
  const removed = await markRemovedIssues(ctx, plan);
  await confirmLabels(ctx, plan, state);
  const unlinked = earlier.size
    ? await unlinkDroppedBlockers(plan.http, onSite, plan.planned, state, earlier)
    : 0;
  const order = await linkBlockers(ctx, plan.http, plan.planned, state);
  const spaceKey =
    typeof ctx.config.confluence_space_key === "string" ? ctx.config.confluence_space_key : plan.key;
  const confluence = await writeConfluencePages(
    ctx,
    plan.wiki,
    spaceKey,
    String(ctx.config.project_name),
    plan.pages,
  );
  const warnings = exportWarnings(confluence.note, order, cut, unmoved);
  const { site, key } = plan;
  const byTask = new Map(plan.planned.map((p) => [p.task.id, p]));
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
        sent: sentOf(byTask.get(taskId), key, state, screens, marker),
      })),
    },
  };
}

/** The project: the existing one asked for, the one a lost answer made (led by this account), or a new one. */
async function makeProject(ctx: ExportContext, { http, key, existing }: JiraPlan, state: JiraState) {
  const { config } = ctx;
  if (existing) {
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
  if (state.project_key) return;
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

type Screens = {
  types: Record<Planned["kind"], IssueType>;
  storyPoints: Record<Planned["kind"], string | null>;
  epicName: string | null;
};

/**
 * The project's issue types by hierarchy level, not by (translatable) name, and what each one's create
 * screen takes: story points only where it is listed, and any required field Atomize cannot fill is
 * reported before the first issue is sent.
 */
async function readScreens({ http, key }: JiraPlan): Promise<Screens> {
  const meta = await http.request<{ issueTypes: IssueType[] }>(
    "GET",
    `/rest/api/3/issue/createmeta/${encodeURIComponent(key)}/issuetypes`,
  );
  const types = meta.body.issueTypes;
  const epic = types.find((t) => t.hierarchyLevel === 1);
  const level0 = types.filter((t) => t.hierarchyLevel === 0 && !t.subtask);
  const story = level0.find((t) => /story|histoire|historia/i.test(t.name)) ?? level0[0];
  const subtask = types.find((t) => t.hierarchyLevel === -1 || t.subtask);
  if (!epic || !story || !subtask) {
    throw new IntegrationError(
      "The JIRA project has no epic, story or sub-task issue types; use a software project template.",
      400,
    );
  }
  const screens = await Promise.all([epic, story, subtask].map((t) => createScreen(http, key, t)));
  const unfillable = screens.flatMap((sc, i) =>
    sc.unfillable.length ? [`${sc.unfillable.join(", ")} on ${[epic, story, subtask][i]!.name}`] : [],
  );
  if (unfillable.length) {
    throw new IntegrationError(
      `JIRA requires fields Atomize cannot fill in project ${key}: ${unfillable.join("; ")}. Make them optional or give them a default value in the project's settings, then retry the export.`,
      400,
    );
  }
  return {
    types: { epic, story, subtask },
    storyPoints: { epic: screens[0]!.storyPoints, story: screens[1]!.storyPoints, subtask: null },
    epicName: screens[0]!.epicName,
  };
}

/**
 * The issues not made yet, level by level (a parent before its children) in bulks of 50; what a lost
 * answer may have made is looked for first. Returns how many descriptions were cut to fit.
 */
async function createIssues(
  ctx: ExportContext,
  { http, key, planned }: JiraPlan,
  state: JiraState,
  screens: Screens,
  marker: string,
) {
  const issues = state.issues!;
  if (state.pending?.length) {
    await ctx.progress("issue_creation", 10, "Looking for issues a lost answer may have created");
    await reconcile(http, key, marker, planned, state, ctx.deps.config.JIRA_SEARCH_SETTLE_MS, ctx.signal);
    await ctx.saveState();
  }
  let cut = 0;
  for (const kind of ["epic", "story", "subtask"] as const) {
    const todo = planned.filter((p) => p.kind === kind && !issues[p.task.id]);
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
                screens.types[p.kind].id,
                screens.storyPoints[p.kind],
                state,
                marker,
                screens.epicName,
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
        if (created) issues[p.task.id] = created.key;
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
      const done = Object.keys(issues).length;
      await ctx.progress(
        "issue_creation",
        10 + (70 * done) / planned.length,
        `Created ${done} of ${planned.length} issues`,
      );
    }
  }
  return cut;
}

/**
 * Labels go on at creation (an epic also carries the highest complexity band below it); one search
 * confirms JIRA has them, instead of a request per issue.
 */
async function confirmLabels(ctx: ExportContext, { http, key }: JiraPlan, state: JiraState) {
  await ctx.progress("label_update", 82, "Checking labels");
  await http.request("GET", "/rest/api/3/search/jql", {
    query: {
      jql: `project = ${jqlString(key)} AND labels = ${jqlString(ATOMIZE_LABEL)}`,
      fields: "labels",
      maxResults: 1,
    },
  });
  await ctx.progress(
    "label_update",
    88,
    `Labels applied to ${Object.keys(state.issues ?? {}).length} issues`,
  );
}

/** What an issue was sent, as JIRA reads it back: the baseline a later edit there is compared with. */
function sentOf(
  p: Planned | undefined,
  key: string,
  state: JiraState,
  screens: Screens,
  marker: string,
): RemoteBaseline | undefined {
  if (!p) return undefined;
  const points = screens.storyPoints[p.kind];
  const { fields } = issueFields(p, key, screens.types[p.kind].id, points, state, marker);
  const value = points ? fields[points] : undefined;
  return {
    title: String(fields.summary),
    text: adfText(fields.description),
    story_points: typeof value === "number" ? value : null,
    parent: (fields.parent as { key?: string } | undefined)?.key ?? null,
  };
}

/** What the person should know about an export that went through: what was cut, skipped or left to do by hand. */
function exportWarnings(
  confluenceNote: string | undefined | null,
  order: Awaited<ReturnType<typeof linkBlockers>>,
  cut: number,
  unmoved: string[],
) {
  return [
    ...(confluenceNote ? [confluenceNote] : []),
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
}
