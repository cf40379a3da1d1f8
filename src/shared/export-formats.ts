import {
  coverageSummary,
  coverageTotals,
  REQUIREMENT_STATUS_TEXT,
  requirementCoverage,
} from "./requirement-coverage";
import type { Epic, TaskTreeNode, UserStory } from "./schemas/tasks";
import { descriptionFirstLine, UNTITLED_TASK } from "./task-title";
import { PLAN_STATE_TEXT, planStateOf, WORK_STATE_TEXT, workStateOf, workStatusOf } from "./work-state";

/**
 * Browser-side exports of a task tree (JSON happens in the browser), plus Markdown
 * and CSV. Pure functions: no DOM, no clock, so the same tree always gives the same file.
 */

/** How many characters of the description's first line name a file, a project or a board. */
export const EXPORT_NAME_CHARS = 30;
export const EXPORT_PRODUCT_NAME = "Atomize";

export type ExportFormat = "json" | "md" | "csv";

export const EXPORT_MIME: Record<ExportFormat, string> = {
  json: "application/json;charset=utf-8",
  md: "text/markdown;charset=utf-8",
  csv: "text/csv;charset=utf-8",
};

/** The first `n` characters (code points, so an emoji is never cut in half). */
function firstChars(text: string, n: number): string {
  return Array.from(text).slice(0, n).join("");
}

/** Default project or board name: 'Atomize ' + the first 30 characters of the first line. */
export function defaultExportName(description: string): string {
  return `${EXPORT_PRODUCT_NAME} ${firstChars(descriptionFirstLine(description), EXPORT_NAME_CHARS)}`.trimEnd();
}

// Characters no common file system accepts (Windows is the strictest), and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
const UNSAFE_FILE_CHARS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * The first 30 characters of the first line of the description + '-task-tree.{ext}', made safe
 * for file systems (reserved characters become '_', whitespace runs one space, no leading/trailing dots).
 */
export function exportFileName(description: string, ext: ExportFormat | string): string {
  const base = firstChars(descriptionFirstLine(description), EXPORT_NAME_CHARS)
    .replace(/\s+/g, " ")
    .replace(UNSAFE_FILE_CHARS, "_")
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, "");
  const safe = base === "" ? "task" : WINDOWS_RESERVED.test(base) ? `_${base}` : base;
  return `${safe}-task-tree.${ext.replace(/^\.+/, "")}`;
}

// ---- JSON -----------------------------------------------------------------------------------------

/** The whole tree as pretty-printed JSON, as the API returns it. */
export function treeToJson(tree: TaskTreeNode): string {
  return `${JSON.stringify(tree, null, 2)}\n`;
}

// ---- walking ----------------------------------------------------------------------------------------

type Visit = { node: TaskTreeNode; parent: TaskTreeNode | null; depth: number; path: string };

/** Depth-first, parents before children, without recursion (deep trees cannot overflow the stack). */
function walk(root: TaskTreeNode): Visit[] {
  const out: Visit[] = [];
  const stack: Visit[] = [{ node: root, parent: null, depth: 0, path: "1" }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    out.push(visit);
    const children = visit.node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({
        node: children[i]!,
        parent: visit.node,
        depth: visit.depth + 1,
        path: `${visit.path}.${i + 1}`,
      });
    }
  }
  return out;
}

function titleOf(node: TaskTreeNode): string {
  return descriptionFirstLine(node.description) || UNTITLED_TASK;
}

function scoreOf(node: TaskTreeNode): number | null {
  const score = node.complexity_score ?? node.complexity;
  return typeof score === "number" && Number.isFinite(score) ? score : null;
}

function formatScore(score: number): string {
  return `${Math.round(score * 10) / 10}/10`;
}

// ---- Markdown ---------------------------------------------------------------------------------------

/** Keeps a line of user text from turning into markup it did not mean (headings, lists, links, HTML). */
function inline(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/([\\`*_[\]<>|])/g, "\\$1");
}

function details(node: TaskTreeNode): string {
  const parts: string[] = [];
  const score = scoreOf(node);
  if (score !== null) parts.push(`complexity ${formatScore(score)}`);
  if (node.story_points !== null && node.story_points !== undefined)
    parts.push(`${node.story_points} ${node.story_points === 1 ? "story point" : "story points"}`);
  if (node.estimated_hours !== null && node.estimated_hours !== undefined)
    parts.push(
      `about ${node.estimated_hours} h${node.estimate_source === "rule" ? " (estimated by rule)" : ""}`,
    );
  const range = node.estimate_hours;
  if (range && range.low !== range.high) parts.push(`range ${range.low}-${range.high} h`);
  if (node.requirement_ids?.length) parts.push(`covers ${node.requirement_ids.join(", ")}`);
  if (node.is_atomic) parts.push("atomic");
  const work = workStatusOf(node);
  if (work && work !== "completed") parts.push(work.replace(/_/g, " "));
  if (node.actual_hours !== null && node.actual_hours !== undefined)
    parts.push(
      `took ${node.actual_hours} h${node.actual_source === "person" ? "" : " (from start to done)"}`,
    );
  return parts.length ? ` _(${parts.join(", ")})_` : "";
}

/** The rest of a description after its first line, as indented plain lines. */
function bodyLines(node: TaskTreeNode): string[] {
  const first = descriptionFirstLine(node.description);
  const text = node.description.trim();
  const rest = text.slice(text.indexOf(first) + first.length).trim();
  if (!rest) return [];
  return rest
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((l) => inline(l).replace(/^(#|>|-|\+|\d+[.)])/, "\\$1"));
}

function storyLine(story: UserStory): string {
  const meta: string[] = [];
  if (story.story_points !== null && story.story_points !== undefined) meta.push(`${story.story_points} SP`);
  if (story.priority) meta.push(story.priority.replace(/_/g, " "));
  const sentence = `As a ${inline(story.actor)}, I want ${inline(story.action)}${
    story.benefit ? ` so that ${inline(story.benefit)}` : ""
  }`;
  return `- ${sentence}${meta.length ? ` _(${meta.join(", ")})_` : ""}`;
}

function storyBlock(story: UserStory): string[] {
  const lines = [storyLine(story)];
  for (const c of story.acceptance_criteria ?? []) lines.push(`  - [ ] ${inline(c)}`);
  return lines;
}

/**
 * The plan's stated requirements (R1, R2, ...) with their status and the tasks covering each, numbered as
 * their place under the root ("2.1": the first subtask of the second task), by the rule of
 * requirement-coverage.ts; nothing when the tree states none (or is a subtree, which carries no scope).
 */
function requirementLines(visits: Visit[]): string[] {
  const requirements = visits[0]?.node.stated_scope?.requirements ?? [];
  if (requirements.length === 0) return [];
  const coverage = requirementCoverage(
    requirements,
    visits.map((v) => ({
      id: v.node.id,
      parentId: v.parent?.id ?? null,
      requirementIds: v.node.requirement_ids,
      status: workStatusOf(v.node),
    })),
  );
  const byId = new Map(visits.map((v) => [v.node.id, v]));
  const out = ["## Requirements", "", `${coverageSummary(coverageTotals(coverage))}.`, ""];
  for (const r of coverage) {
    const progress = r.leaves_total > 1 ? `, ${r.leaves_done} of ${r.leaves_total} tasks done` : "";
    out.push(
      `- ${r.status === "done" ? "[x]" : "[ ]"} **${inline(r.id)}** ${inline(r.text)} _(${REQUIREMENT_STATUS_TEXT[r.status]}${progress})_`,
    );
    for (const t of r.tasks) {
      const v = byId.get(t.id)!;
      const place = v.path.split(".").slice(1).join(".");
      const work = workStatusOf(v.node);
      const status = work === "completed" ? "done" : work.replace(/_/g, " ");
      out.push(`  - ${place} ${inline(titleOf(v.node))} _(${status})_`);
    }
  }
  out.push("");
  return out;
}

/**
 * The tree as Markdown: a heading and summary for the root, its stated requirements with their status and
 * tasks, the hierarchy as nested checklists
 * (checked when completed) with complexity, story points, the estimate and its range, what each task
 * is blocked by and its acceptance criteria, then epics with their user stories, then the event model's
 * own Markdown.
 */
export function treeToMarkdown(tree: TaskTreeNode): string {
  const out: string[] = [];
  const visits = walk(tree);
  out.push(`# ${inline(titleOf(tree))}`, "");
  const rootBody = bodyLines(tree);
  if (rootBody.length) out.push(...rootBody, "");

  const leaves = visits.filter((v) => (v.node.children ?? []).length === 0 && v.depth > 0);
  const points = leaves.reduce((sum, v) => sum + (v.node.story_points ?? 0), 0);
  const rootScore = scoreOf(tree);
  // The plan's state and the work's, apart (shared/work-state.ts): the root's status is the plan's.
  const work = tree.rollup ?? { leaves_done: 0, leaves_total: 0 };
  out.push(`- **Plan:** ${PLAN_STATE_TEXT[planStateOf(tree.status)]}`);
  out.push(
    `- **Work:** ${WORK_STATE_TEXT[workStateOf(work)]}, ${work.leaves_done} of ${work.leaves_total} tasks done`,
  );
  if (rootScore !== null) out.push(`- **Complexity:** ${formatScore(rootScore)}`);
  out.push(`- **Subtasks:** ${visits.length - 1}`);
  if (points > 0) out.push(`- **Story points (work items):** ${points}`);
  out.push("");
  out.push(...requirementLines(visits));

  out.push("## Task Tree", "");
  const titles = new Map(visits.map((v) => [v.node.id, titleOf(v.node)]));
  for (const { node, depth } of visits) {
    const indent = "  ".repeat(depth);
    const box = workStatusOf(node) === "completed" ? "[x]" : "[ ]";
    out.push(`${indent}- ${box} **${inline(titleOf(node))}**${details(node)}`);
    const blockers = (node.depends_on ?? []).filter((id) => titles.has(id));
    if (blockers.length)
      out.push(`${indent}  Blocked by: ${blockers.map((id) => inline(titles.get(id)!)).join("; ")}`);
    for (const line of bodyLines(node)) out.push(`${indent}  ${line}`);
    if (node.children?.length === 0 && node.acceptance_criteria?.length) {
      out.push(`${indent}  Acceptance criteria:`);
      for (const c of node.acceptance_criteria) out.push(`${indent}  - ${inline(c)}`);
    }
  }
  out.push("");

  const epics: Epic[] = tree.context?.epics ?? [];
  const stories: UserStory[] = tree.context?.user_stories ?? [];
  if (epics.length || stories.length) {
    out.push("## Epics and User Stories", "");
    const known = new Set(epics.map((e) => e.id));
    for (const epic of epics) {
      out.push(`### ${inline(epic.title)} _(priority ${epic.priority})_`, "");
      if (epic.description?.trim()) out.push(inline(epic.description), "");
      const own = stories.filter((s) => s.epic_id === epic.id);
      if (own.length) out.push(...own.flatMap(storyBlock), "");
    }
    const loose = stories.filter((s) => !s.epic_id || !known.has(s.epic_id));
    if (loose.length) out.push("### Unassigned stories", "", ...loose.flatMap(storyBlock), "");
  }

  const eventModel = tree.metadata?.event_model_markdown?.trim();
  if (eventModel) out.push("## Event Model", "", eventModel, "");

  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

// ---- CSV ----------------------------------------------------------------------------------------

export const CSV_COLUMNS = [
  "id",
  "parent_id",
  "depth",
  "path",
  "title",
  "description",
  "status",
  "complexity_score",
  "story_points",
  "is_atomic",
  "estimated_hours",
  "estimate_source",
  "requirement_ids",
  "acceptance_criteria",
  "estimate_low_hours",
  "estimate_high_hours",
  /** The ids of the tasks this one waits for, separated by spaces. */
  "depends_on",
  /** The same tasks by their place in the tree (the `path` column), for reading in a spreadsheet. */
  "depends_on_paths",
  /** What the work took (issue 33): its first start, its completion and its hours, entered or measured. */
  "started_at",
  "completed_at",
  "actual_hours",
  "actual_source",
] as const;

/** RFC 4180: a field with a comma, a double quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Spreadsheets run a cell starting with = + - @ as a formula: such user text is prefixed with '. */
function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One row per task, parents before children, CRLF line ends (RFC 4180), a header row first. */
export function treeToCsv(tree: TaskTreeNode): string {
  const rows: string[] = [CSV_COLUMNS.join(",")];
  const visits = walk(tree);
  const paths = new Map(visits.map((v) => [v.node.id, v.path]));
  for (const { node, parent, depth, path } of visits) {
    const blockers = (node.depends_on ?? []).filter((id) => paths.has(id));
    const score = scoreOf(node);
    rows.push(
      [
        node.id,
        parent ? parent.id : "",
        depth,
        path,
        neutralise(titleOf(node)),
        neutralise(node.description.trim()),
        node.status,
        score === null ? "" : score,
        node.story_points ?? "",
        node.is_atomic ? "true" : "false",
        node.estimated_hours ?? "",
        node.estimate_source ?? "",
        (node.requirement_ids ?? []).join(" "),
        neutralise((node.acceptance_criteria ?? []).join(" | ")),
        node.estimate_hours?.low ?? "",
        node.estimate_hours?.high ?? "",
        blockers.join(" "),
        blockers.map((id) => paths.get(id)).join(" "),
        node.started_at ?? "",
        node.completed_at ?? "",
        node.actual_hours ?? "",
        node.actual_source ?? "",
      ]
        .map(csvField)
        .join(","),
    );
  }
  return `${rows.join("\r\n")}\r\n`;
}
