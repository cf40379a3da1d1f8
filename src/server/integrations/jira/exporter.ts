import { setTimeout as sleep } from "node:timers/promises";
import { complexityBand } from "../../../shared/complexity";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { outboundFetch } from "../../lib/outbound/fetch";
import {
  exportCounts,
  markRemoved,
  type PreviousExport,
  previousExport,
} from "../../services/exports/remote";
import {
  type ExportContext,
  type Exporter,
  type ExportPlan,
  subtasksOf,
} from "../../services/exports/runner";
import { IntegrationError } from "../errors";
import type { HttpClient } from "../http-client";
import { connectJira } from "./connection";

const BULK_MAX = 50;
const ATOMIZE_LABEL = "atomize";
/** JIRA refuses a description over 32,767 characters; the ADF document sent stays under this. */
export const DESCRIPTION_MAX = 32_000;
export const DESCRIPTION_CUT_NOTE =
  "(Cut to fit JIRA's 32,767-character limit: the full text is in Atomize.)";
/** Fields every issue gets from the exporter itself (or JIRA's defaults): never reported as missing. */
const FILLED_FIELDS = new Set([
  "project",
  "issuetype",
  "summary",
  "parent",
  "reporter",
  "description",
  "labels",
]);
const STORY_POINTS_CUSTOM = "com.pyxis.greenhopper.jira:jsw-story-points";

type IssueType = { id: string; name: string; hierarchyLevel: number; subtask?: boolean };
type Planned = { task: TaskTreeNode; kind: "epic" | "story" | "subtask"; parentTaskId: string | null };
type JiraState = {
  project_key?: string;
  /** Earlier issues already brought up to date by this export (task ids). */
  refreshed?: string[];
  /** The project was asked for: after a lost answer, look for it before asking again. */
  project_requested?: boolean;
  issues?: Record<string, string>;
  pending?: string[];
  pages?: Record<string, string>;
  /** "waiting task id>blocking task id" of the "Blocks" links made. */
  links?: string[];
};

function describeJira(status: number, body: unknown): string {
  const b = body as { errorMessages?: string[]; errors?: Record<string, string> } | string | null;
  const detail =
    typeof b === "string"
      ? b.slice(0, 200)
      : [...(b?.errorMessages ?? []), ...Object.values(b?.errors ?? {})].filter(Boolean).join("; ");
  if (status === 401) return "JIRA rejected the email or API token (401). Check them in Settings.";
  if (status === 403)
    return `JIRA refused the request (403)${detail ? `: ${detail}` : ". Your account may lack permission to create projects."}`;
  return `JIRA answered ${status}${detail ? `: ${detail}` : ""}`;
}

/** Atlassian Document Format: one paragraph per non-empty block (empty text nodes are invalid). */
export function adf(blocks: string[]) {
  const content = blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .map((text) => ({ type: "paragraph", content: [{ type: "text", text }] }));
  return {
    type: "doc",
    version: 1,
    content: content.length ? content : [{ type: "paragraph", content: [] }],
  };
}

function xhtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Epics for non-atomic first-level subtasks, stories for atomic ones and below epics, sub-tasks deeper. */
export function planIssues(tree: TaskTreeNode): Planned[] {
  const out: Planned[] = [];
  for (const first of tree.children) {
    if (first.is_atomic || first.children.length === 0) {
      out.push({ task: first, kind: "story", parentTaskId: null });
      continue;
    }
    out.push({ task: first, kind: "epic", parentTaskId: null });
    for (const second of first.children) {
      out.push({ task: second, kind: "story", parentTaskId: first.id });
      for (const deeper of subtasksOf(second))
        out.push({ task: deeper, kind: "subtask", parentTaskId: second.id });
    }
  }
  return out;
}

type JiraPlan = ExportPlan & {
  http: HttpClient;
  wiki: HttpClient;
  site: string;
  key: string;
  existing: boolean;
  previous: PreviousExport;
  planned: Planned[];
  pages: Array<[string, string]>;
};

type MetaField = {
  fieldId: string;
  name: string;
  required: boolean;
  hasDefaultValue?: boolean;
  schema?: { custom?: string; type?: string };
};

/** The JQL string literal of a value (a project key may be a reserved word, such as AND or IN). */
export function jqlString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

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

async function runJiraExport(ctx: ExportContext, plan: JiraPlan) {
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
        "issuetype,issuelinks",
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
              const fields = issueFields(p, key, typeOf[p.kind].id, storyPoints[p.kind], state, marker);
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
  const updated = await updateEarlierIssues(ctx, plan, earlier, {
    typeIds: { epic: epicType.id, story: storyType.id, subtask: subtaskType.id },
    storyPoints,
    marker,
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
  ];
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
      })),
    },
  };
}

/**
 * Each dependency as a "Blocks" link. JIRA shows the `inwardIssue` as the one that blocks and the
 * `outwardIssue` as the one blocked (the reverse of what its reference suggests; tests/fakes/jira.ts
 * cites where this was observed). A site whose admin removed the "Blocks" type (found by name, or by its
 * "blocks" outward wording when renamed) keeps its issues; the result says why no link was made.
 */
async function linkBlockers(ctx: ExportContext, http: HttpClient, planned: Planned[], state: JiraState) {
  const issues = state.issues!;
  const pairs = planned.flatMap((p) =>
    p.task.depends_on.filter((id) => issues[id]).map((blocker) => ({ taskId: p.task.id, blocker })),
  );
  if (pairs.length === 0) return { dependencies: 0, dependencies_linked: 0 };
  state.links ??= [];
  const types = await http.request<{ issueLinkTypes?: Array<{ name: string; outward?: string }> }>(
    "GET",
    "/rest/api/3/issueLinkType",
  );
  const list = types.body.issueLinkTypes ?? [];
  const blocks =
    list.find((t) => t.name === "Blocks") ?? list.find((t) => t.outward?.toLowerCase() === "blocks");
  if (!blocks) {
    return {
      dependencies: pairs.length,
      dependencies_linked: 0,
      dependencies_note: 'This JIRA site has no "Blocks" issue link type, so the order was not linked.',
    };
  }
  for (const pair of pairs) {
    const mark = `${pair.taskId}>${pair.blocker}`;
    if (state.links.includes(mark)) continue;
    await http.request("POST", "/rest/api/3/issueLink", {
      json: {
        type: { name: blocks.name },
        inwardIssue: { key: issues[pair.blocker] },
        outwardIssue: { key: issues[pair.taskId] },
      },
    });
    state.links.push(mark);
    if (state.links.length % 10 === 0) {
      await ctx.saveState();
      await ctx.progress("label_update", 90, `Linked ${state.links.length} of ${pairs.length} dependencies`);
    }
  }
  await ctx.saveState();
  return { dependencies: pairs.length, dependencies_linked: state.links.length };
}

/** The label that marks this export's issues, so a resumed export finds exactly what it created. */
export function exportMarker(exportId: string): string {
  return `atomize-export-${exportId.replace(/-/g, "").slice(0, 12)}`;
}

/** An issue's fields; `cut` when its description had to be shortened to JIRA's limit. */
export function issueFields(
  p: Planned,
  projectKey: string,
  typeId: string,
  storyPointsField: string | null,
  state: JiraState,
  marker: string,
): { fields: Record<string, unknown>; cut: boolean } {
  const t = p.task;
  const labels = [ATOMIZE_LABEL, marker, `complexity-${complexityBand(t.complexity_score)}`];
  if (t.story_points) labels.push(`story-points-${t.story_points}`);
  if (p.kind === "epic") {
    const highest = Math.max(t.complexity_score ?? 0, ...subtasksOf(t).map((x) => x.complexity_score ?? 0));
    labels.push(`epic-complexity-${complexityBand(highest)}`);
  }
  const { doc, cut } = description(t);
  const fields: Record<string, unknown> = {
    project: { key: projectKey },
    summary: taskTitle(t.description, 250),
    issuetype: { id: typeId },
    labels,
    description: doc,
  };
  if (p.parentTaskId) fields.parent = { key: state.issues![p.parentTaskId] };
  if (storyPointsField && t.story_points) fields[storyPointsField] = t.story_points;
  return { fields, cut };
}

/** The description as ADF, its text cut (with a note) when the document would pass JIRA's limit. */
function description(t: TaskTreeNode): { doc: ReturnType<typeof adf>; cut: boolean } {
  const rest = [
    t.implementation_details ? `Implementation: ${t.implementation_details}` : "",
    `Complexity ${t.complexity_score ?? "?"}/10 · Story points ${t.story_points ?? "?"} · Planned by Atomize`,
  ];
  const full = adf([t.description, ...rest]);
  if (JSON.stringify(full).length <= DESCRIPTION_MAX) return { doc: full, cut: false };
  // Long text: keep the start of each part within the limit, then say where the rest is.
  let budget = t.description.length + rest.join("").length;
  for (;;) {
    budget = Math.floor(budget * 0.9);
    const share = (text: string) =>
      text.slice(
        0,
        Math.max(
          200,
          Math.floor((budget * text.length) / Math.max(1, t.description.length + rest.join("").length)),
        ),
      );
    const doc = adf([
      share(t.description),
      ...rest.map((r, i) => (i === rest.length - 1 ? r : share(r))),
      DESCRIPTION_CUT_NOTE,
    ]);
    if (JSON.stringify(doc).length <= DESCRIPTION_MAX) return { doc, cut: true };
  }
}

/** The create screen of an issue type in a project: its story-points field, and required fields nobody fills. */
async function createScreen(http: HttpClient, key: string, type: IssueType) {
  const fields: MetaField[] = [];
  for (let startAt = 0; ; ) {
    const page = await http.request<{ fields?: MetaField[]; total?: number; maxResults?: number }>(
      "GET",
      `/rest/api/3/issue/createmeta/${encodeURIComponent(key)}/issuetypes/${encodeURIComponent(type.id)}`,
      { query: { startAt, maxResults: 200 } },
    );
    const got = page.body.fields ?? [];
    fields.push(...got);
    startAt += got.length;
    if (got.length === 0 || startAt >= (page.body.total ?? 0)) break;
  }
  const storyPoints =
    fields.find((f) => f.schema?.custom === STORY_POINTS_CUSTOM)?.fieldId ??
    fields.find((f) => /^story points?$/i.test(f.name) && f.schema?.type === "number")?.fieldId ??
    null;
  const unfillable = fields
    .filter((f) => f.required && !f.hasDefaultValue && !FILLED_FIELDS.has(f.fieldId))
    .map((f) => f.name);
  return { storyPoints, unfillable };
}

/**
 * After a bulk call whose answer was lost (or that failed half-way): find what JIRA did create, by this
 * export's marker label, summary and parent, before sending anything again. JIRA's search lags behind its
 * writes, so it looks again for up to `settleMs` while some are still unaccounted for; what it does not
 * find by then is created again.
 */
async function reconcile(
  http: HttpClient,
  key: string,
  marker: string,
  planned: Planned[],
  state: JiraState,
  settleMs: number,
  signal: AbortSignal,
) {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const found = await searchAll<{ key: string; fields: { summary: string; parent?: { key: string } } }>(
      http,
      `project = ${jqlString(key)} AND labels = ${jqlString(marker)}`,
      "summary,parent",
    );
    const known = new Set(Object.values(state.issues ?? {}));
    for (const id of state.pending ?? []) {
      const p = planned.find((x) => x.task.id === id);
      if (!p) continue;
      const parentKey = p.parentTaskId ? state.issues![p.parentTaskId] : undefined;
      const match = found.find(
        (i) =>
          !known.has(i.key) &&
          i.fields.summary === taskTitle(p.task.description, 250) &&
          i.fields.parent?.key === parentKey,
      );
      if (match) {
        state.issues![id] = match.key;
        known.add(match.key);
      }
    }
    state.pending = (state.pending ?? []).filter((id) => !state.issues![id]);
    if (state.pending.length === 0 || Date.now() >= deadline) break;
    await sleep(Math.min(1000, Math.max(50, settleMs / 10)), undefined, { signal });
  }
  state.pending = [];
}

/** The Confluence pages: tech stack, best practices, standards (title, storage-format body). */
function confluenceDocuments(ctx: ExportContext, projectName: string): Array<[string, string]> {
  const context = ctx.tree.context;
  const stack = context?.tech_stack;
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${xhtml(i)}</li>`).join("")}</ul>`;
  return [
    [
      `${projectName}: Tech Stack`,
      `<p>${xhtml(stack?.description ?? "Technology choices for this project.")}</p>${list(
        [
          stack?.frontend && `Frontend: ${stack.frontend}`,
          stack?.backend && `Backend: ${stack.backend}`,
          stack?.database && `Database: ${stack.database}`,
          stack?.deployment && `Deployment: ${stack.deployment}`,
        ].filter((x): x is string => Boolean(x)),
      )}`,
    ],
    [
      `${projectName}: Best Practices`,
      list(
        context?.best_practices?.length
          ? context.best_practices
          : ["Review AI-generated plans before committing to them."],
      ),
    ],
    [
      `${projectName}: Standards`,
      `<p>Every issue carries the label <code>atomize</code>, a complexity label (<code>complexity-low</code>, <code>complexity-medium</code>, <code>complexity-high</code>: scores below 5, 5-7, 8 and above) and its story points. Epics carry the highest complexity found below them.</p>${list(
        (context?.epics ?? []).map((e) => `${e.title} (priority ${e.priority})`),
      )}`,
    ],
  ];
}

/**
 * The pages go into the Confluence space with the project's key (or the one the user chose), created when
 * it does not exist (Confluence's v1 API: v2 reads spaces but creates them only on some sites). A site
 * without Confluence, or an account that may not create spaces, gets a visible note instead of pages.
 */
async function writeConfluencePages(
  ctx: ExportContext,
  wiki: HttpClient,
  spaceKey: string,
  projectName: string,
  documents: Array<[string, string]>,
): Promise<{ pages: number; note: string | null }> {
  const state = ctx.state as JiraState;
  const findSpace = async () => {
    const res = await wiki.request<{ results?: Array<{ id: string }> }>("GET", "/wiki/api/v2/spaces", {
      query: { keys: spaceKey },
      expect: [404],
    });
    return res.status === 404 ? "no-confluence" : (res.body.results?.[0] ?? null);
  };
  let space: { id: string } | "no-confluence" | null = await findSpace();
  if (space === "no-confluence") {
    const note =
      "This Atlassian site has no Confluence, so the tech stack, best practices and standards pages were not written.";
    await ctx.progress("label_update", 98, note);
    return { pages: 0, note };
  }
  if (!space) {
    const created = await wiki.request<{ message?: string }>("POST", "/wiki/rest/api/space", {
      json: {
        key: spaceKey,
        name: projectName.slice(0, 200),
        description: { plain: { value: `Planned with Atomize: ${projectName}`, representation: "plain" } },
      },
      expect: [400, 403],
      create: true,
    });
    if (created.status === 403) {
      const note = `This account may not create Confluence spaces, so the pages were not written. Ask a Confluence admin for a space with the key ${spaceKey}, or choose an existing space, and export again.`;
      await ctx.progress("label_update", 98, note);
      return { pages: 0, note };
    }
    if (created.status === 400 && !/already exists/i.test(String(created.body?.message ?? ""))) {
      throw new IntegrationError(describeJira(400, created.body), 400);
    }
    const listed = await findSpace();
    if (!listed || listed === "no-confluence") {
      throw new IntegrationError("Confluence created the space but does not list it yet.", 503, null, true);
    }
    space = listed;
  }
  let written = 0;
  for (const [title, value] of documents) {
    if (state.pages![title]) {
      written += 1;
      continue;
    }
    const res = await wiki.request<{ id?: string }>("POST", "/wiki/api/v2/pages", {
      json: { spaceId: space.id, status: "current", title, body: { representation: "storage", value } },
      expect: [400],
      create: true,
    });
    if (res.status === 400 && !JSON.stringify(res.body).includes("already exists")) {
      throw new IntegrationError(describeJira(400, res.body), 400);
    }
    // A page an earlier export wrote (or one a lost answer made): brought up to date, a new version.
    if (res.status === 400) await rewritePage(wiki, space.id, title, value);
    state.pages![title] = res.body.id ?? "existing";
    written += 1;
    await ctx.saveState();
    await ctx.progress(
      "label_update",
      88 + (10 * written) / documents.length,
      `Wrote Confluence page ${written} of ${documents.length}`,
    );
  }
  return { pages: written, note: null };
}

/**
 * Brings what an earlier export made up to date with the plan: summary, description, labels, story
 * points and (for stories and sub-tasks) parent. One request per issue, resumable (state.refreshed).
 */
async function updateEarlierIssues(
  ctx: ExportContext,
  plan: JiraPlan,
  earlier: Set<string>,
  opts: {
    typeIds: Record<Planned["kind"], string>;
    storyPoints: Record<Planned["kind"], string | null>;
    marker: string;
  },
): Promise<number> {
  const state = ctx.state as JiraState;
  state.refreshed ??= [];
  const todo = plan.planned.filter((p) => earlier.has(p.task.id) && !state.refreshed!.includes(p.task.id));
  let n = 0;
  for (const p of todo) {
    const { fields } = issueFields(
      p,
      plan.key,
      opts.typeIds[p.kind],
      opts.storyPoints[p.kind],
      state,
      opts.marker,
    );
    // The issue type and project stay as they are; labels are set as planned now.
    const { project: _p, issuetype: _t, ...editable } = fields;
    await plan.http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(state.issues![p.task.id]!)}`, {
      json: { fields: editable },
    });
    state.refreshed.push(p.task.id);
    n += 1;
    if (n % 10 === 0) {
      await ctx.saveState();
      await ctx.progress("issue_creation", 80, `Updated ${n} of ${todo.length} earlier issues`);
    }
  }
  await ctx.saveState();
  return state.refreshed.length;
}

/** Issues made for tasks deleted since: labelled "atomize-removed", never deleted. */
async function markRemovedIssues(ctx: ExportContext, plan: JiraPlan): Promise<number> {
  for (const item of plan.previous.removed) {
    await plan.http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(item.remoteId)}`, {
      json: { update: { labels: [{ add: "atomize-removed" }] } },
      expect: [404],
    });
  }
  await markRemoved(
    ctx.deps,
    plan.previous.removed.map((r) => r.id),
  );
  return plan.previous.removed.length;
}

/**
 * On an export to the same project again: "Blocks" links between this plan's issues that the plan no
 * longer has (a person removed the dependency) are removed. Links to anything else are someone's own.
 */
async function unlinkDroppedBlockers(
  http: HttpClient,
  found: EarlierIssue[],
  planned: Planned[],
  state: JiraState,
  earlier: Set<string>,
): Promise<number> {
  const issues = state.issues!;
  const wanted = new Set(
    planned.flatMap((p) =>
      p.task.depends_on.filter((id) => issues[id]).map((b) => `${issues[p.task.id]}>${issues[b]}`),
    ),
  );
  const planKeys = new Set(Object.values(issues));
  const earlierKeys = new Set([...earlier].flatMap((id) => (issues[id] ? [issues[id]] : [])));
  const dropped: string[] = [];
  for (const issue of found) {
    if (!earlierKeys.has(issue.key)) continue;
    for (const link of issue.fields?.issuelinks ?? []) {
      const blocks = link.type?.name === "Blocks" || link.type?.outward?.toLowerCase() === "blocks";
      const blocker = link.inwardIssue?.key;
      if (blocks && blocker && planKeys.has(blocker) && !wanted.has(`${issue.key}>${blocker}`))
        dropped.push(link.id);
    }
  }
  for (const id of dropped) {
    await http.request("DELETE", `/rest/api/3/issueLink/${encodeURIComponent(id)}`, { expect: [404] });
  }
  return dropped.length;
}

const LEVEL: Record<Planned["kind"], number> = { epic: 1, story: 0, subtask: -1 };

/** An issue an earlier export made, as the search for them answers: its type and its links. */
type EarlierIssue = {
  key: string;
  fields?: {
    issuetype?: { hierarchyLevel?: number };
    issuelinks?: Array<{
      id: string;
      type?: { name?: string; outward?: string };
      inwardIssue?: { key?: string };
    }>;
  };
};

async function replaceChangedKinds(
  http: HttpClient,
  found: EarlierIssue[],
  planned: Planned[],
  state: JiraState,
  earlier: Set<string>,
): Promise<number> {
  const issues = state.issues!;
  const levelOf = new Map<string, number>();
  for (const i of found) {
    const level = i.fields?.issuetype?.hierarchyLevel;
    if (typeof level === "number") levelOf.set(i.key, level);
  }
  let n = 0;
  for (const p of planned) {
    const was = issues[p.task.id];
    if (!earlier.has(p.task.id) || !was) continue;
    const level = levelOf.get(was);
    if (level === undefined || level === LEVEL[p.kind]) continue;
    await http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(was)}`, {
      json: { update: { labels: [{ add: "atomize-removed" }] } },
      expect: [404],
    });
    delete issues[p.task.id];
    earlier.delete(p.task.id);
    n += 1;
  }
  return n;
}

/** Updates the page with this title in the space when its body differs (Confluence keeps the old version). */
async function rewritePage(wiki: HttpClient, spaceId: string, title: string, value: string) {
  const found = await wiki.request<{
    results?: Array<{ id: string; version?: { number?: number }; body?: { storage?: { value?: string } } }>;
  }>("GET", `/wiki/api/v2/spaces/${encodeURIComponent(spaceId)}/pages`, {
    query: { title, "body-format": "storage" },
  });
  const page = found.body.results?.[0];
  if (!page || page.body?.storage?.value === value) return;
  await wiki.request("PUT", `/wiki/api/v2/pages/${encodeURIComponent(page.id)}`, {
    json: {
      id: page.id,
      status: "current",
      title,
      body: { representation: "storage", value },
      version: { number: (page.version?.number ?? 1) + 1, message: "Updated by Atomize" },
    },
  });
}

/** Every issue a JQL search finds (JIRA's enhanced search, page by page via nextPageToken). */
async function searchAll<T>(http: HttpClient, jql: string, fields: string): Promise<T[]> {
  const out: T[] = [];
  let nextPageToken: string | undefined;
  do {
    const res = await http.request<{ issues: T[]; nextPageToken?: string }>("GET", "/rest/api/3/search/jql", {
      query: { jql, fields, maxResults: 100, nextPageToken },
    });
    out.push(...res.body.issues);
    nextPageToken = res.body.nextPageToken;
  } while (nextPageToken);
  return out;
}
