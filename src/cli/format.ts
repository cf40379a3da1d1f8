import type { ActivityPage } from "../shared/schemas/activity";
import type { NextTask, ProjectList, StatusChange, TaskRef } from "../shared/schemas/agent";
import type { Reading } from "../shared/schemas/reading";
import { approvalSentence, type ReviewState } from "../shared/schemas/reviews";
import type { Schedule } from "../shared/schemas/schedule";
import type { Task, TaskTreeNode } from "../shared/schemas/tasks";
import { descriptionFirstLine, fitText, taskTitle, UNTITLED_TASK } from "../shared/task-title";
import { PLAN_STATE_TEXT, WORK_STATE_TEXT } from "../shared/work-state";

/** Human-readable text of what the API answered; the --json output is the answer itself. */

const TITLE_MAX = 72;

/** [x] done, [~] under way, [!] failed, [ ] to do. A parent's mark comes from its leaves' roll-up. */
export function statusMark(task: Pick<Task, "status"> & { rollup?: TaskTreeNode["rollup"] }): string {
  if (["failed", "error", "rejected"].includes(task.status)) return "[!]";
  const r = task.rollup;
  if (r && r.leaves_total > 0) {
    if (r.leaves_done === r.leaves_total) return "[x]";
    if (r.leaves_done > 0) return "[~]";
  } else if (task.status === "completed") return "[x]";
  return ["in_progress", "processing"].includes(task.status) ? "[~]" : "[ ]";
}

const points = (n: number | null | undefined) => (n ? `${n} SP` : null);

export function projectList(list: ProjectList): string {
  if (list.projects.length === 0) return "No projects yet: create one in the app.\n";
  // The plan's state and the work's, apart (shared/work-state.ts): "planned  in progress  3/12 done".
  const plan = (p: ProjectList["projects"][number]) => PLAN_STATE_TEXT[p.plan_state];
  const work = (p: ProjectList["projects"][number]) => WORK_STATE_TEXT[p.work_state];
  const planWidth = Math.max(...list.projects.map((p) => plan(p).length));
  const workWidth = Math.max(...list.projects.map((p) => work(p).length));
  const lines = list.projects.map((p) => {
    const done = `${p.progress.leaves_done}/${p.progress.leaves_total} done`;
    return `${p.id}  ${plan(p).padEnd(planWidth)}  ${work(p).padEnd(workWidth)}  ${done.padStart(12)}  ${fitText(p.title, TITLE_MAX)}`;
  });
  if (list.total > list.projects.length) lines.push(`(the newest ${list.projects.length} of ${list.total})`);
  return `${lines.join("\n")}\n`;
}

function nodeLine(node: TaskTreeNode, depth: number, critical: Set<string>): string {
  const r = node.rollup;
  const meta = [
    r && r.leaves_total > 0 ? `${r.leaves_done}/${r.leaves_total} done` : null,
    points(r ? r.story_points : node.story_points),
  ].filter(Boolean);
  const star = critical.has(node.id) ? "*" : " ";
  const title = taskTitle(node.description, TITLE_MAX);
  return `${"  ".repeat(depth)}${statusMark(node)} ${star} ${title}${meta.length ? `  (${meta.join(", ")})` : ""}  ${node.id}`;
}

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/** The tree as an indented outline, then the critical path and the forecast. */
export function planOutline(tree: TaskTreeNode, schedule: Schedule, review?: ReviewState): string {
  const critical = new Set(schedule.critical_path);
  const lines: string[] = [];
  const stack: { node: TaskTreeNode; depth: number }[] = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    lines.push(nodeLine(node, depth, critical));
    for (const child of [...node.children].reverse()) stack.push({ node: child, depth: depth + 1 });
  }
  lines.push("");
  if (schedule.critical_path.length === 0) {
    lines.push("Nothing left to do.");
  } else {
    const n = schedule.critical_path.length;
    lines.push(
      `* Critical path: ${n} ${n === 1 ? "task" : "tasks"}, ${schedule.critical_path_hours} h of work one after another.`,
    );
    const f = schedule.forecast;
    lines.push(
      `Forecast for ${f.team_size === 1 ? "1 person" : `${f.team_size} people`}: P50 ${days(f.p50_days)}, P90 ${days(f.p90_days)} (${f.hours_per_day} focused hours a day).`,
    );
    const u = schedule.unestimated.length;
    if (u > 0)
      lines.push(`${u} ${u === 1 ? "task has" : "tasks have"} no estimate and count at a default size.`);
  }
  if (review && review.state !== "not_required")
    lines.push(`Approval: ${approvalSentence(review.state, review.required_by)}`);
  return `${lines.join("\n")}\n`;
}

/** A plan's activity, newest first: when, and the sentence. */
export function activityText(page: ActivityPage): string {
  if (page.entries.length === 0) return "Nothing has happened on it yet.\n";
  const lines = page.entries.map((e) => `${e.at.slice(0, 16).replace("T", " ")}  ${e.text}`);
  if (page.next_before !== null)
    lines.push(`(older entries: GET /api/tasks/{id}/activity?before=${page.next_before})`);
  return `${lines.join("\n")}\n`;
}

function section(title: string, body: string[]): string[] {
  return body.length ? ["", `${title}:`, ...body.map((l) => `  ${l}`)] : [];
}

const refLine = (t: TaskRef) => `- ${fitText(t.title, TITLE_MAX)}  ${t.id}`;

/** Everything a person needs to start on the next task (what, how, when it is done, what it unblocks), or why there is none. */
export function nextTask(next: NextTask): string {
  const task = next.task;
  if (!task) return `${next.message}\n`;
  const meta = [
    task.status === "in_progress" ? "in progress" : null,
    points(task.story_points),
    task.estimate_hours ? `about ${task.estimate_hours.likely} h` : null,
    task.critical ? "on the critical path" : null,
  ].filter(Boolean);
  const title = descriptionFirstLine(task.description) || UNTITLED_TASK;
  const rest = task.description
    .trim()
    .split(/\r\n|\r|\n/)
    .slice(1)
    .join("\n")
    .trim();
  const lines = [
    `${task.status === "in_progress" ? "Continue" : "Next"}: ${title}${meta.length ? `  (${meta.join(", ")})` : ""}`,
    `id: ${task.id}`,
    ...section("Description", rest ? rest.split("\n") : []),
    ...section("Implementation details", task.implementation_details?.trim().split("\n") ?? []),
    ...section(
      "Acceptance criteria",
      task.acceptance_criteria.map((c) => `- ${c}`),
    ),
    ...section(
      "Requirements",
      task.requirements.map((r) => `${r.id}: ${r.text}`),
    ),
    ...section("Unblocks", task.blocks.map(refLine)),
    ...section("Already in progress", next.in_progress.filter((t) => t.id !== task.id).map(refLine)),
    "",
    next.message,
    `When it is done: atomize done ${task.id}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** One line about a task a command changed, and what became ready with it. */
export function statusChange(verb: string, change: StatusChange): string {
  const lines = [`${verb}: ${fitText(change.task.title, TITLE_MAX)}  ${change.task.id}`];
  if (typeof change.actual_hours === "number")
    lines.push(`Took ${Math.round(change.actual_hours * 10) / 10} h`);
  if (change.unblocked.length) lines.push(...section("Now ready", change.unblocked.map(refLine)).slice(1));
  return `${lines.join("\n")}\n`;
}

/** A project just created: its id, and what to run next. */
export function createdProject(task: Task): string {
  if (task.status === "awaiting_review") {
    return `Created ${task.id}: read, not planned yet.\nCheck the reading: atomize reading ${task.id}\nThen plan it: atomize plan-now ${task.id}\n`;
  }
  return `Created ${task.id} (${task.status}). Follow it with: atomize plan ${task.id}\n`;
}

const ROLE_NAMES: Record<Reading["items"][number]["role"], string> = {
  work: "work",
  context: "context",
  non_goal: "non-goal",
  constraint: "constraint",
  criterion: "criterion",
  question: "question",
};

/** The reading: its kind with the reasons, then each item by role, work items with their ids. */
export function readingText(r: Reading): string {
  const width = Math.max(...Object.values(ROLE_NAMES).map((n) => n.length));
  const lines = [
    `Planned as: ${r.kind_label} (${r.kind}), because ${r.kind_reasons.join("; ")}`,
    "",
    ...r.items.map((item, i) => {
      const label = item.id ?? `#${i + 1}`;
      return `${label.padEnd(4)} ${ROLE_NAMES[item.role].padEnd(width)}  ${item.text}`;
    }),
  ];
  if (r.items.length === 0) lines.push("(nothing was read)");
  if (r.status === "awaiting_review") {
    lines.push(
      "",
      `Kinds: ${r.kinds.map((k) => k.id).join(", ")}. Roles: ${Object.keys(ROLE_NAMES).join(", ")}.`,
      `Change it: atomize reading ${r.project_id} --json > reading.json, edit, then --set reading.json; plan it: atomize plan-now ${r.project_id}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
