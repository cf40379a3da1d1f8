import { complexityBand } from "../../../../shared/complexity";
import { taskTitle } from "../../../../shared/task-title";
import { IntegrationError, TIMED_OUT, UNREACHABLE } from "../../../integrations/errors";
import {
  type GithubClient,
  type GithubFailure,
  githubClient,
  takeWriteBudget,
} from "../../../integrations/github/client";
import { exportCounts, markRemoved, previousExport } from "../remote";
import { type Exporter, subtasksOf } from "../tracker";
import { createOnce, isStatus } from "./errors";
import { findPendingIssue, issueIfThere } from "./lookup";
import { blockersFirst, body, LABELS, REMOVED_LABEL, taskMarker } from "./payloads";
import type { GithubPlan, GithubState } from "./types";

/** The export's own words (the Settings page words the same failures for connecting, integrations/github/client.ts). */
function describeGithubExport(f: GithubFailure): string {
  if (f.status === null) return f.timedOut ? TIMED_OUT : UNREACHABLE;
  if (f.status === 401)
    return "GitHub rejected the connected token (Bad credentials). Reconnect GitHub in Settings.";
  if (f.status === 403 && f.acceptedPermissions)
    return `The connected token lacks a permission this export needs on the repository (GitHub asked for ${f.acceptedPermissions}). Give the token "Issues: Read and write" on it, or reconnect GitHub with another token.`;
  if (f.status === 404) return NOT_WRITABLE;
  if (f.status === 410) return ISSUES_DISABLED;
  return `GitHub answered ${f.status}${f.message ? `: ${f.message}` : ""}`;
}

/** GitHub's 422 for a sub-issue already under this parent (it adds "and Sub issue may only have one parent"). */
const ALREADY_LINKED = /may not contain duplicate sub-issues/i;

/**
 * What to add to an issue's labels and what to remove: the plan's missing ones, and those of Atomize's own
 * (LABELS) the plan no longer gives it. Any other label (a person's) stays. GitHub's names are case-insensitive.
 */
export function labelChanges(current: string[], wanted: string[]) {
  const has = new Set(current.map((l) => l.toLowerCase()));
  const want = new Set(wanted.map((l) => l.toLowerCase()));
  const ours = new Set(LABELS.map((l) => l.name.toLowerCase()));
  return {
    add: wanted.filter((l) => !has.has(l.toLowerCase())),
    remove: current.filter((l) => ours.has(l.toLowerCase()) && !want.has(l.toLowerCase())),
  };
}

/** The story points an `sp: N` label says, or null. */
function storyPointsOf(labels: string[]): number | null {
  const sp = labels.map((l) => /^sp: (\d+)$/.exec(l)?.[1]).find((n) => n !== undefined);
  return sp === undefined ? null : Number(sp);
}

/** Removes a label from an issue; 404 (it is not on the issue any more) is what was wanted. */
async function removeLabel(github: GithubClient, owner: string, repo: string, number: number, name: string) {
  await github.rest.issues.removeLabel({ owner, repo, issue_number: number, name }).catch((err: unknown) => {
    if (!isStatus(err, 404)) throw err;
  });
}

const NOT_WRITABLE = "The repository was not found, or the connected token cannot write to it.";
const ISSUES_DISABLED = "Issues are disabled on this repository.";

/**
 * One issue per task with complexity and story-point labels; the hierarchy as sub-issues (and task lists).
 * `prepare` reads the repository: it must exist, take issues, and let the token push (labels on an issue
 * are silently dropped otherwise).
 */
export const githubExporter: Exporter<GithubPlan> = {
  async prepare(ctx) {
    const [owner, repo] = String(ctx.config.repository).split("/") as [string, string];
    const github = githubClient(ctx.deps, ctx.secret.token ?? null, {
      signal: ctx.signal,
      retries: ctx.deps.config.EXPORT_HTTP_RETRIES,
      describe: describeGithubExport,
    });
    const { data, headers } = await github.rest.repos.get({ owner, repo });
    if (!data.has_issues) throw new IntegrationError(ISSUES_DISABLED, 410);
    if (data.permissions && !data.permissions.push) throw new IntegrationError(NOT_WRITABLE, 403);
    // A classic token lists its scopes: a private repository needs `repo`, a public one `public_repo` at least.
    const scopes = headers["x-oauth-scopes"]?.split(",").map((x) => x.trim());
    if (scopes && !scopes.includes("repo") && (data.private || !scopes.includes("public_repo"))) {
      throw new IntegrationError(
        data.private
          ? `The connected token has no repo scope, which ${owner}/${repo} (a private repository) needs. Reconnect GitHub with a token that has it.`
          : "The connected token has neither the repo nor the public_repo scope. Reconnect GitHub with a token that has one.",
        403,
      );
    }
    const tasks = subtasksOf(ctx.tree);
    const exported = new Set(tasks.map((t) => t.id));
    // What earlier exports of this plan made in this repository is updated, not made again.
    const previous = await previousExport(ctx.deps, ctx.tree.id, "github", `${owner}/${repo}`.toLowerCase());
    const issues = blockersFirst(tasks).map((t) => {
      const labels = ["atomize", `complexity: ${complexityBand(t.complexity_score)}`];
      if (t.story_points) labels.push(`sp: ${t.story_points}`);
      const blockedBy = t.depends_on.filter((id) => exported.has(id));
      return { task: t, title: taskTitle(t.description, 250), body: body(t), labels, blockedBy };
    });
    const dependencies = issues.reduce((n, i) => n + i.blockedBy.length, 0);
    const links = tasks
      .filter((t) => t.parent_id && t.parent_id !== ctx.tree.id)
      .map((t) => ({ taskId: t.id, parentTaskId: t.parent_id! }));
    return {
      github,
      previous,
      owner,
      repo,
      repositoryId: data.id,
      issues,
      links,
      writes: {
        labels: LABELS.length,
        ...exportCounts(
          previous,
          issues.map((i) => i.task.id),
        ),
        sub_issues: links.length,
        dependencies,
      },
    };
  },

  async run(ctx, plan) {
    const { github, owner, repo, issues, links } = plan;
    const state = ctx.state as GithubState;
    const name = `${owner}/${repo}`;
    let step = "label_creation";
    let percent = 2;
    // GitHub's hourly budget for content-creating requests: pause (and say until when) rather than meet it.
    const budget = () =>
      takeWriteBudget(ctx.deps, ctx.secret.token ?? "", ctx.signal, async (ms) => {
        const at = new Date(Date.now() + ms).toISOString().slice(11, 16);
        await ctx.progress(
          step,
          percent,
          `Paused for GitHub's limit of about 500 new issues and links an hour: resuming at ${at} UTC (in ${Math.ceil(ms / 60_000)} min)`,
        );
      });
    await ctx.progress("label_creation", 2, `Preparing labels in ${name}`);
    state.labels ??= [];
    for (const label of LABELS) {
      if (state.labels.includes(label.name)) continue;
      await budget();
      await github.rest.issues.createLabel({ owner, repo, ...label }).catch((err: unknown) => {
        if (!isStatus(err, 422)) throw err; // 422: it exists already
      });
      state.labels.push(label.name);
    }
    await ctx.saveState();

    state.issues ??= {};
    step = "issue_creation";
    percent = 5;
    if (state.pending_issue) {
      await ctx.progress(step, percent, "Looking for an issue a lost answer may have created");
      await findPendingIssue(github, owner, repo, state, new Date(ctx.row.createdAt));
      await ctx.saveState();
    }
    // Earlier issues of this plan here are this export's: found by number (an issue deleted on GitHub
    // since is made again).
    const earlier = new Map<string, { title: string; body: string; labels: string[] }>();
    for (const issue of issues) {
      const item = plan.previous.byTask.get(issue.task.id);
      if (!item || state.issues[issue.task.id]) continue;
      const found = await issueIfThere(github, owner, repo, item.remoteId);
      if (!found) continue;
      state.issues[issue.task.id] = { number: found.number, id: found.id, url: found.html_url };
      earlier.set(issue.task.id, {
        title: found.title,
        body: found.body ?? "",
        labels: found.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))),
      });
    }
    /** The body an issue of the plan is sent with: its blockers by number (all made before it), its task's marker. */
    const bodyOf = (issue: GithubPlan["issues"][number]) => {
      const blockers = issue.blockedBy.map((id) => state.issues![id]).filter((i) => i !== undefined);
      return `${
        blockers.length
          ? `${issue.body}\n\n**Blocked by:** ${blockers.map((b) => `#${b.number}`).join(", ")}`
          : issue.body
      }\n\n${taskMarker(issue.task.id)}`;
    };
    let made = Object.keys(state.issues).length;
    // Blockers first, so each body names them by number (read on any GitHub, with or without the
    // issue-dependencies API); links come after every issue exists.
    for (const issue of issues) {
      if (state.issues[issue.task.id]) continue;
      await budget();
      state.pending_issue = issue.task.id;
      await ctx.saveState();
      const data = await createOnce(() =>
        github.rest.issues.create({
          owner,
          repo,
          title: issue.title,
          body: bodyOf(issue),
          labels: issue.labels,
          // Never re-sent blind: a lost answer is resumed by looking for the issue (findPendingIssue).
          request: { retries: 0 },
        }),
      );
      state.issues[issue.task.id] = { number: data.number, id: data.id, url: data.html_url };
      state.pending_issue = undefined;
      made += 1;
      if (made % 10 === 0 || made === issues.length) {
        await ctx.saveState();
        percent = 5 + (75 * made) / issues.length;
        await ctx.progress("issue_creation", percent, `Created ${made} of ${issues.length} issues`);
      }
    }
    await ctx.saveState();

    // Earlier issues brought up to date (only what differs: each write counts against GitHub's budget).
    // Labels are added and removed one by one, never set as a whole (a PATCH with `labels` replaces the
    // issue's set): labels people added stay, and only Atomize's own that no longer apply go.
    state.refreshed ??= [];
    let updated = 0;
    for (const issue of issues) {
      const now = earlier.get(issue.task.id);
      if (!now || state.refreshed.includes(issue.task.id)) continue;
      const number = state.issues[issue.task.id]!.number;
      const body = bodyOf(issue);
      const { add, remove } = labelChanges(now.labels, issue.labels);
      if (now.title !== issue.title || now.body !== body) {
        await budget();
        await github.rest.issues.update({ owner, repo, issue_number: number, title: issue.title, body });
      }
      if (add.length) {
        await budget();
        await github.rest.issues.addLabels({ owner, repo, issue_number: number, labels: add });
      }
      for (const name of remove) {
        await budget();
        await removeLabel(github, owner, repo, number, name);
      }
      if (now.title !== issue.title || now.body !== body || add.length || remove.length) updated += 1;
      state.refreshed.push(issue.task.id);
      if (state.refreshed.length % 10 === 0) await ctx.saveState();
    }
    // Issues made for tasks deleted since: labelled, never closed or deleted.
    for (const item of plan.previous.removed) {
      const found = await issueIfThere(github, owner, repo, item.remoteId);
      const labels = found?.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))) ?? [];
      if (found && !labels.some((l) => l.toLowerCase() === REMOVED_LABEL)) {
        await budget();
        await github.rest.issues.addLabels({
          owner,
          repo,
          issue_number: found.number,
          labels: [REMOVED_LABEL],
        });
      }
    }
    await markRemoved(
      ctx.deps,
      plan.previous.removed.map((r) => r.id),
    );
    await ctx.saveState();
    state.linked ??= [];
    let linked = 0;
    const todo = links.filter((l) => !state.linked!.includes(l.taskId));
    state.sub_issue_refusals ??= {};
    for (const link of todo) {
      const parent = state.issues[link.parentTaskId]!;
      // An earlier issue already under this parent stays; one whose task moved is moved (replace_parent).
      const before = plan.previous.byTask.get(link.taskId);
      if (before && earlier.has(link.taskId) && before.parent === String(parent.number)) {
        state.linked.push(link.taskId);
        continue;
      }
      await budget();
      await github.rest.issues
        .addSubIssue({
          owner,
          repo,
          issue_number: parent.number,
          sub_issue_id: state.issues[link.taskId]!.id,
          ...(before ? { replace_parent: true } : {}),
        })
        .catch((err: unknown) => {
          if (!isStatus(err, 422)) throw err;
          // "may not contain duplicate sub-issues": linked by an earlier try. Any other 422 is GitHub
          // refusing this link (a second parent, over 100 sub-issues): the export goes on and says which.
          const why = (err as Error).message;
          if (!ALREADY_LINKED.test(why)) state.sub_issue_refusals![link.taskId] = why;
        });
      state.linked.push(link.taskId);
      linked += 1;
      if (linked % 10 === 0) {
        await ctx.saveState();
        await ctx.progress(
          "issue_creation",
          80 + (18 * linked) / todo.length,
          `Linked ${linked} of ${todo.length} sub-issues`,
        );
      }
    }
    await ctx.saveState();

    // GitHub's own 'blocked by' relationship (issue dependencies), where the server has it.
    state.blocked ??= [];
    state.refused ??= [];
    const pairs = issues.flatMap((i) => i.blockedBy.map((b) => ({ taskId: i.task.id, blockerId: b })));
    // An earlier issue's dependencies a person removed from the plan since: removed there too, but only
    // those between this plan's own issues (anything else someone linked on GitHub is theirs).
    let unlinked = 0;
    if (!state.dependenciesUnavailable && earlier.size) {
      const planIds = new Map(Object.entries(state.issues).map(([taskId, i]) => [i.id, taskId]));
      for (const issue of issues) {
        if (!earlier.has(issue.task.id)) continue;
        const wanted = new Set(issue.blockedBy);
        const number = state.issues[issue.task.id]!.number;
        const blockers = await github
          .paginate(github.rest.issues.listDependenciesBlockedBy, {
            owner,
            repo,
            issue_number: number,
            per_page: 100,
          })
          .catch((err: unknown) => {
            if (isStatus(err, 404)) return null;
            throw err;
          });
        if (blockers === null) {
          state.dependenciesUnavailable = true;
          break;
        }
        for (const b of blockers) {
          const blockerTask = planIds.get(b.id);
          if (!blockerTask || wanted.has(blockerTask)) continue;
          await budget();
          await github.rest.issues.removeDependencyBlockedBy({
            owner,
            repo,
            issue_number: number,
            issue_id: b.id,
          });
          unlinked += 1;
        }
      }
    }
    const seen = new Set([...state.blocked, ...state.refused]);
    const pending = pairs.filter((p) => !seen.has(`${p.taskId}>${p.blockerId}`));
    let blocked = 0;
    for (const pair of state.dependenciesUnavailable ? [] : pending) {
      await budget();
      const outcome = await github.rest.issues
        .addBlockedByDependency({
          owner,
          repo,
          issue_number: state.issues[pair.taskId]!.number,
          issue_id: state.issues[pair.blockerId]!.id,
        })
        .then(
          () => "made" as const,
          (err: unknown) => {
            // 404 with both issues in place: this server has no issue-dependencies API (the bodies
            // already say "Blocked by #n"). 422: GitHub refused this pair (e.g. it exists after a
            // resumed export); the body still names it.
            if (isStatus(err, 404)) return "unavailable" as const;
            if (isStatus(err, 422)) return "refused" as const;
            throw err;
          },
        );
      if (outcome === "unavailable") {
        state.dependenciesUnavailable = true;
        break;
      }
      (outcome === "made" ? state.blocked : state.refused).push(`${pair.taskId}>${pair.blockerId}`);
      if (outcome === "made") blocked += 1;
      if (blocked % 10 === 0) {
        await ctx.saveState();
        await ctx.progress("issue_creation", 98, `Linked ${blocked} of ${pending.length} dependencies`);
      }
    }
    await ctx.saveState();
    const refusals = Object.keys(state.sub_issue_refusals).length;
    return {
      warnings: refusals
        ? [
            `GitHub refused ${refusals} sub-issue link${refusals === 1 ? "" : "s"} (${[...new Set(Object.values(state.sub_issue_refusals))][0]}); those issues are listed in their parent's body instead.`,
          ]
        : [],
      sub_issues_refused: refusals,
      issues_created: Object.keys(state.issues).length - state.refreshed.length,
      issues_updated: updated,
      issues_marked_removed: plan.previous.removed.length,
      dependencies_removed: unlinked,
      dependencies: pairs.length,
      dependencies_linked: state.dependenciesUnavailable ? 0 : state.blocked.length,
      repository: name,
      repository_url: `https://github.com/${name}/issues`,
      remote: {
        target: name.toLowerCase(),
        // The repository's id, which outlives renames (webhook deliveries name it).
        container: String(plan.repositoryId),
        items: Object.entries(state.issues).map(([taskId, issue]) => {
          const parentTask = links.find((l) => l.taskId === taskId)?.parentTaskId;
          const parentIssue = parentTask ? state.issues![parentTask] : undefined;
          const parent =
            parentIssue && !state.sub_issue_refusals?.[taskId] ? String(parentIssue.number) : null;
          const planned = issues.find((i) => i.task.id === taskId);
          return {
            task_id: taskId,
            remote_id: String(issue.number),
            key: `#${issue.number}`,
            url: issue.url,
            parent,
            // What this export wrote there (the baseline a later edit on GitHub is compared with).
            ...(planned
              ? {
                  sent: {
                    title: planned.title,
                    text: bodyOf(planned),
                    story_points: storyPointsOf(planned.labels),
                    parent,
                  },
                }
              : {}),
          };
        }),
      },
    };
  },
};
