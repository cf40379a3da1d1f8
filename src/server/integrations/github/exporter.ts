import { complexityBand } from "../../../shared/complexity";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { type ExportContext, subtasksOf } from "../../services/exports/runner";
import { createHttpClient } from "../http-client";

type GithubState = {
  labels?: string[];
  issues?: Record<string, { number: number; id: number; url: string }>;
  linked?: string[];
};

const LABELS = [
  { name: "atomize", color: "5b21b6", description: "Planned with Atomize" },
  { name: "complexity: high", color: "d73a4a", description: "Complexity 8-10" },
  { name: "complexity: medium", color: "fbca04", description: "Complexity 5-7" },
  { name: "complexity: low", color: "0e8a16", description: "Complexity 1-4" },
  ...[1, 2, 3, 5, 8, 13].map((n) => ({
    name: `sp: ${n}`,
    color: "c5def5",
    description: `${n} story points`,
  })),
];

function describeGithub(status: number, body: unknown): string {
  const message = (body as { message?: string } | null)?.message;
  if (status === 401)
    return "GitHub rejected the connected token (Bad credentials). Reconnect GitHub in Settings.";
  if (status === 404) return "The repository was not found, or the connected token cannot write to it.";
  if (status === 410) return "Issues are disabled on this repository.";
  return `GitHub answered ${status}${message ? `: ${message}` : ""}`;
}

function body(task: TaskTreeNode): string {
  return [
    task.description,
    task.implementation_details ? `**Implementation:** ${task.implementation_details}` : "",
    `**Complexity:** ${task.complexity_score ?? "?"}/10 · **Story points:** ${task.story_points ?? "?"}`,
    task.children.length
      ? `### Subtasks\n${task.children.map((c) => `- [${c.status === "completed" ? "x" : " "}] ${taskTitle(c.description, 200)}`).join("\n")}`
      : "",
    "_Planned with Atomize._",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** One issue per task with complexity and story-point labels; the hierarchy as sub-issues (and task lists). */
export async function exportToGithub(ctx: ExportContext) {
  const state = ctx.state as GithubState;
  const repo = String(ctx.config.repository);
  const http = createHttpClient({
    baseUrl: ctx.deps.config.GITHUB_API_URL,
    headers: {
      accept: "application/vnd.github+json",
      authorization: `Bearer ${ctx.secret.token}`,
      "user-agent": "Atomize",
      "x-github-api-version": "2022-11-28",
    },
    concurrency: Math.min(4, ctx.deps.config.EXPORT_CONCURRENCY),
    signal: ctx.signal,
    retries: ctx.deps.config.EXPORT_HTTP_RETRIES,
    describe: describeGithub,
  });
  await ctx.progress("label_creation", 2, `Preparing labels in ${repo}`);
  state.labels ??= [];
  for (const label of LABELS) {
    if (state.labels.includes(label.name)) continue;
    await http.request("POST", `/repos/${repo}/labels`, { json: label, expect: [422] }); // 422: it exists already
    state.labels.push(label.name);
  }
  await ctx.saveState();

  const tasks = subtasksOf(ctx.tree);
  state.issues ??= {};
  let made = Object.keys(state.issues).length;
  // Parents first (tree order), so their numbers exist when children are linked.
  for (const t of tasks) {
    if (state.issues[t.id]) continue;
    const labels = ["atomize", `complexity: ${complexityBand(t.complexity_score)}`];
    if (t.story_points) labels.push(`sp: ${t.story_points}`);
    const res = await http.request<{ number: number; id: number; html_url: string }>(
      "POST",
      `/repos/${repo}/issues`,
      {
        json: { title: taskTitle(t.description, 250), body: body(t), labels },
      },
    );
    state.issues[t.id] = { number: res.body.number, id: res.body.id, url: res.body.html_url };
    made += 1;
    if (made % 10 === 0 || made === tasks.length) {
      await ctx.saveState();
      await ctx.progress(
        "issue_creation",
        5 + (75 * made) / tasks.length,
        `Created ${made} of ${tasks.length} issues`,
      );
    }
  }
  await ctx.saveState();
  state.linked ??= [];
  let linked = 0;
  const links = tasks.filter(
    (t) => t.parent_id && t.parent_id !== ctx.tree.id && !state.linked!.includes(t.id),
  );
  for (const t of links) {
    const parent = state.issues[t.parent_id!]!;
    await http.request("POST", `/repos/${repo}/issues/${parent.number}/sub_issues`, {
      json: { sub_issue_id: state.issues[t.id]!.id },
      expect: [422], // already linked
    });
    state.linked.push(t.id);
    linked += 1;
    if (linked % 10 === 0) {
      await ctx.saveState();
      await ctx.progress(
        "issue_creation",
        80 + (18 * linked) / links.length,
        `Linked ${linked} of ${links.length} sub-issues`,
      );
    }
  }
  await ctx.saveState();
  return {
    issues_created: Object.keys(state.issues).length,
    repository: repo,
    repository_url: `https://github.com/${repo}/issues`,
  };
}
