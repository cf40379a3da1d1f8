import { complexityBand } from "../../../shared/complexity";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import {
  type ExportContext,
  type Exporter,
  type ExportPlan,
  subtasksOf,
} from "../../services/exports/runner";
import { IntegrationError } from "../errors";
import { createHttpClient, type HttpClient } from "../http-client";

const BULK_MAX = 50;
const ATOMIZE_LABEL = "atomize";

type IssueType = { id: string; name: string; hierarchyLevel: number; subtask?: boolean };
type Planned = { task: TaskTreeNode; kind: "epic" | "story" | "subtask"; parentTaskId: string | null };
type JiraState = {
  project_key?: string;
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
    .map((text) => ({ type: "paragraph", content: [{ type: "text", text: text.slice(0, 30_000) }] }));
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
  site: string;
  key: string;
  planned: Planned[];
  pages: Array<[string, string]>;
};

/**
 * A JIRA project with epics, stories and sub-tasks (bulk-created, level by level), labels set at
 * creation, and Confluence pages when the site has a space with the project's key. `prepare` checks the
 * account against GET /myself and plans the issues and pages; `run` writes them.
 */
export const jiraExporter: Exporter<JiraPlan> = {
  async prepare(ctx) {
    const { config, secret, deps } = ctx;
    const site = String(config.jira_url);
    const http = createHttpClient({
      baseUrl: site,
      headers: {
        authorization: `Basic ${Buffer.from(`${secret.user_email}:${secret.api_token}`).toString("base64")}`,
      },
      concurrency: deps.config.EXPORT_CONCURRENCY,
      signal: ctx.signal,
      retries: deps.config.EXPORT_HTTP_RETRIES,
      describe: describeJira,
    });
    await http.request("GET", "/rest/api/3/myself");
    const planned = planIssues(ctx.tree);
    const pages = confluenceDocuments(ctx, String(config.project_name));
    return {
      http,
      site,
      key: String(config.project_key),
      planned,
      pages,
      writes: {
        projects: 1,
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

  // -- project_creation ------------------------------------------------------------------------------
  await ctx.progress("project_creation", 2, `Creating the JIRA project ${key}`);
  if (!state.project_key) {
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
    });
    if (created.status === 400) {
      const errors = created.body.errors ?? {};
      if (errors.projectKey?.includes("already exists")) {
        throw new IntegrationError(
          `A JIRA project with the key ${key} already exists. Choose another project key.`,
          400,
        );
      }
      throw new IntegrationError(describeJira(400, created.body), 400);
    }
    state.project_key = key;
    await ctx.saveState();
  }
  const [meta, fields] = await Promise.all([
    http.request<{ issueTypes: IssueType[] }>("GET", `/rest/api/3/issue/createmeta/${key}/issuetypes`),
    http.request<Array<{ id: string; name: string; schema?: { custom?: string } }>>(
      "GET",
      "/rest/api/3/field",
    ),
  ]);
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
  const storyPoints = fields.body.find(
    (f) => f.schema?.custom === "com.pyxis.greenhopper.jira:jsw-story-points",
  )?.id;
  await ctx.progress("project_creation", 10, `Project ${key} is ready`);

  // -- issue_creation --------------------------------------------------------------------------------
  const typeOf = { epic: epicType, story: storyType, subtask: subtaskType };
  if (state.pending?.length) await reconcile(http, key, planned, state);
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
      const res = await http.request<{
        issues: Array<{ key: string }>;
        errors: Array<{
          failedElementNumber: number;
          elementErrors?: { errorMessages?: string[]; errors?: Record<string, string> };
        }>;
      }>("POST", "/rest/api/3/issue/bulk", {
        json: {
          issueUpdates: chunk.map((p) => ({
            fields: issueFields(p, key, typeOf[p.kind].id, storyPoints, state),
          })),
        },
        expect: [400],
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

  // -- label_update: labels go on at creation (an epic also carries the highest complexity band below
  // it); one search confirms JIRA has them, instead of a request per issue.
  await ctx.progress("label_update", 82, "Checking labels");
  await http.request("GET", "/rest/api/3/search/jql", {
    query: { jql: `project = ${key} AND labels = ${ATOMIZE_LABEL}`, fields: "labels", maxResults: 1 },
  });
  await ctx.progress("label_update", 88, `Labels applied to ${Object.keys(state.issues).length} issues`);

  // -- the order: "Blocks" links ------------------------------------------------------------------------
  const order = await linkBlockers(ctx, http, planned, state);

  // -- Confluence pages: tech stack, best practices, standards ---------------------------------------
  const pages = await writeConfluencePages(ctx, http, key, plan.pages);
  return {
    ...order,
    issues_created: Object.keys(state.issues).length,
    project_key: key,
    project_url: `${site}/browse/${key}`,
    confluence_pages: pages,
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

function issueFields(
  p: Planned,
  projectKey: string,
  typeId: string,
  storyPointsField: string | undefined,
  state: JiraState,
) {
  const t = p.task;
  const labels = [ATOMIZE_LABEL, `complexity-${complexityBand(t.complexity_score)}`];
  if (t.story_points) labels.push(`story-points-${t.story_points}`);
  if (p.kind === "epic") {
    const highest = Math.max(t.complexity_score ?? 0, ...subtasksOf(t).map((x) => x.complexity_score ?? 0));
    labels.push(`epic-complexity-${complexityBand(highest)}`);
  }
  const fields: Record<string, unknown> = {
    project: { key: projectKey },
    summary: taskTitle(t.description, 250),
    issuetype: { id: typeId },
    labels,
    description: adf([
      t.description,
      t.implementation_details ? `Implementation: ${t.implementation_details}` : "",
      `Complexity ${t.complexity_score ?? "?"}/10 · Story points ${t.story_points ?? "?"} · Planned by Atomize`,
    ]),
  };
  if (p.parentTaskId) fields.parent = { key: state.issues![p.parentTaskId] };
  if (storyPointsField && p.kind !== "subtask" && t.story_points) fields[storyPointsField] = t.story_points;
  return fields;
}

/** After an interrupted bulk call: find what JIRA did create (by label, summary and parent) before sending again. */
async function reconcile(http: HttpClient, key: string, planned: Planned[], state: JiraState) {
  const found: Array<{ key: string; fields: { summary: string; parent?: { key: string } } }> = [];
  let nextPageToken: string | undefined;
  do {
    const res = await http.request<{ issues: typeof found; nextPageToken?: string }>(
      "GET",
      "/rest/api/3/search/jql",
      {
        query: {
          jql: `project = ${key} AND labels = ${ATOMIZE_LABEL}`,
          fields: "summary,parent",
          maxResults: 100,
          nextPageToken,
        },
      },
    );
    found.push(...res.body.issues);
    nextPageToken = res.body.nextPageToken;
  } while (nextPageToken);
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

async function writeConfluencePages(
  ctx: ExportContext,
  http: HttpClient,
  key: string,
  documents: Array<[string, string]>,
) {
  const state = ctx.state as JiraState;
  const spaces = await http.request<{ results: Array<{ id: string }> }>("GET", "/wiki/api/v2/spaces", {
    query: { keys: key },
  });
  const space = spaces.body.results[0];
  if (!space) return 0;
  let written = 0;
  for (const [title, value] of documents) {
    if (state.pages![title]) {
      written += 1;
      continue;
    }
    const res = await http.request<{ id?: string }>("POST", "/wiki/api/v2/pages", {
      json: { spaceId: space.id, status: "current", title, body: { representation: "storage", value } },
      expect: [400],
    });
    if (res.status === 400 && !JSON.stringify(res.body).includes("already exists")) {
      throw new IntegrationError(describeJira(400, res.body), 400);
    }
    state.pages![title] = res.body.id ?? "existing";
    written += 1;
    await ctx.saveState();
    await ctx.progress(
      "label_update",
      88 + (10 * written) / documents.length,
      `Wrote Confluence page ${written} of ${documents.length}`,
    );
  }
  return written;
}
