import type { Schedule } from "../shared/schemas/schedule";
import type { Task, TaskList, TaskTreeNode } from "../shared/schemas/tasks";
import { descriptionFirstLine, taskTitle, UNTITLED_TASK } from "../shared/task-title";

/** Human-readable text of what the API answered; the --json output is the answer itself. */

const TITLE_MAX = 72;

/** [x] done, [~] under way, [!] failed, [ ] to do. A parent's mark comes from its leaves' roll-up. */
export function statusMark(task: Task & { rollup?: TaskTreeNode["rollup"] }): string {
  if (["failed", "error", "rejected"].includes(task.status)) return "[!]";
  const r = task.rollup;
  if (r && r.leaves_total > 0) {
    if (r.leaves_done === r.leaves_total) return "[x]";
    if (r.leaves_done > 0) return "[~]";
  } else if (task.status === "completed") return "[x]";
  return ["in_progress", "processing"].includes(task.status) ? "[~]" : "[ ]";
}

const points = (n: number | null | undefined) => (n ? `${n} SP` : null);

export function projectList(list: TaskList): string {
  if (list.tasks.length === 0) return "No projects yet: create one in the app.\n";
  const width = Math.max(...list.tasks.map((t) => t.status.length));
  const lines = list.tasks.map((t) => {
    const size = t.total_subtasks === 1 ? "1 subtask" : `${t.total_subtasks} subtasks`;
    return `${t.id}  ${t.status.padEnd(width)}  ${size.padStart(12)}  ${taskTitle(t.description, TITLE_MAX)}`;
  });
  if (list.total > list.tasks.length) lines.push(`(the newest ${list.tasks.length} of ${list.total})`);
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
export function planOutline(tree: TaskTreeNode, schedule: Schedule): string {
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
  return `${lines.join("\n")}\n`;
}

function section(title: string, body: string[]): string[] {
  return body.length ? ["", `${title}:`, ...body.map((l) => `  ${l}`)] : [];
}

/** Everything a person needs to start on a task: what, how, when it is done, what it unblocks. */
export function nextTask(task: Task, blocks: Task[], onCriticalPath: boolean): string {
  const meta = [
    task.status === "in_progress" ? "in progress" : null,
    points(task.story_points),
    task.estimated_hours !== null ? `about ${task.estimated_hours} h` : null,
    onCriticalPath ? "on the critical path" : null,
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
    ...(task.requirement_ids.length ? ["", `Requirements: ${task.requirement_ids.join(", ")}`] : []),
    ...section(
      "Unblocks",
      blocks.map((b) => `- ${taskTitle(b.description, TITLE_MAX)}  ${b.id}`),
    ),
    "",
    `When it is done: atomize done ${task.id}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** One line about a task a command changed. */
export function taskLine(verb: string, task: Task): string {
  return `${verb}: ${taskTitle(task.description, TITLE_MAX)}  ${task.id}\n`;
}

/** Why `next` has nothing: all done, a plan not made yet or failed, or everything left waits. */
export function nothingReady(project: Task, schedule: Schedule): string {
  const title = taskTitle(project.description, TITLE_MAX);
  const left = schedule.waves.flat().length;
  if (left > 0) return `Nothing is ready in "${title}": ${left} tasks are left, each waiting for another.\n`;
  if (["submitted", "processing"].includes(project.status)) {
    return `"${title}" is still being planned (${project.status}): try again when its plan is made.\n`;
  }
  if (["failed", "error", "rejected"].includes(project.status)) {
    return `"${title}" has no plan to work on (${project.status}).\n`;
  }
  return `Everything in "${title}" is done.\n`;
}
