import type { GithubClient } from "../../../integrations/github/client";
import { takeWriteBudget } from "../../../integrations/github/client";
import { markRemoved } from "../remote";
import type { ExportContext } from "../tracker-deps";
import { createOnce, isStatus } from "./errors";
import { findPendingIssue, issueIfThere } from "./lookup";
import { LABELS, REMOVED_LABEL, taskMarker } from "./payloads";
import type { GithubPlan, GithubState } from "./types";

/**
 * Labels, the issues (blockers first, so each body names them by number), earlier exports' issues
 * brought up to date, issues of deleted tasks labelled, sub-issue links, then GitHub's own "blocked by"
 * relationships where the server has them. Each step is a function below; `runGithubExport` runs them in
 * turn. Every content-creating request first takes from GitHub's hourly budget (`Run.budget`).
 */
export async function runGithubExport(ctx: ExportContext, plan: GithubPlan) {
  const state = ctx.state as GithubState;
  state.issues ??= {};
  const run: Run = {
    ctx,
    plan,
    state,
    issues: state.issues,
    step: "label_creation",
    percent: 2,
    budget: async () => {},
  };
  // GitHub's hourly budget for content-creating requests: pause (and say until when) rather than meet it.
  run.budget = () =>
    takeWriteBudget(ctx.deps, ctx.secret.token ?? "", ctx.signal, async (ms) => {
      const at = new Date(Date.now() + ms).toISOString().slice(11, 16);
      await ctx.progress(
        run.step,
        run.percent,
        `Paused for GitHub's limit of about 500 new issues and links an hour: resuming at ${at} UTC (in ${Math.ceil(ms / 60_000)} min)`,
      );
    });
  await makeLabels(run);
  const earlier = await findEarlierIssues(run);
  await createIssues(run);
  const updated = await refreshEarlierIssues(run, earlier);
  await labelRemovedIssues(run);
  await linkSubIssues(run, earlier);
  const unlinked = await unlinkDroppedDependencies(run, earlier);
  await linkDependencies(run);
  return outcome(run, updated, unlinked);
}

type Run = {
  ctx: ExportContext;
  plan: GithubPlan;
  state: GithubState;
  issues: NonNullable<GithubState["issues"]>;
  /** Where the export is, for the pause message. */
  step: string;
  percent: number;
  budget(): Promise<void>;
};
type PlannedIssue = GithubPlan["issues"][number];
/** Earlier exports' issues as they are on GitHub now, by task id. */
type Earlier = Map<string, { title: string; body: string; labels: string[] }>;

const labelNames = (labels: Array<string | { name?: string }>) =>
  labels.map((l) => (typeof l === "string" ? l : (l.name ?? "")));

/** Atomize's labels (complexity, story points, removed), each made once; 422 means it exists already. */
async function makeLabels({ ctx, plan, state, budget }: Run) {
  const { github, owner, repo } = plan;
  await ctx.progress("label_creation", 2, `Preparing labels in ${owner}/${repo}`);
  state.labels ??= [];
  for (const label of LABELS) {
    if (state.labels.includes(label.name)) continue;
    await budget();
    await github.rest.issues.createLabel({ owner, repo, ...label }).catch((err: unknown) => {
      if (!isStatus(err, 422)) throw err;
    });
    state.labels.push(label.name);
  }
  await ctx.saveState();
}

/**
 * What a lost answer may have created, found first; then earlier issues of this plan here, which are
 * this export's: found by number (an issue deleted on GitHub since is made again).
 */
async function findEarlierIssues(run: Run): Promise<Earlier> {
  const { ctx, plan, state, issues } = run;
  const { github, owner, repo } = plan;
  run.step = "issue_creation";
  run.percent = 5;
  if (state.pending_issue) {
    await ctx.progress(run.step, run.percent, "Looking for an issue a lost answer may have created");
    await findPendingIssue(github, owner, repo, state, new Date(ctx.row.createdAt));
    await ctx.saveState();
  }
  const earlier: Earlier = new Map();
  for (const issue of plan.issues) {
    const item = plan.previous.byTask.get(issue.task.id);
    if (!item || issues[issue.task.id]) continue;
    const found = await issueIfThere(github, owner, repo, item.remoteId);
    if (!found) continue;
    issues[issue.task.id] = { number: found.number, id: found.id, url: found.html_url };
    earlier.set(issue.task.id, {
      title: found.title,
      body: found.body ?? "",
      labels: labelNames(found.labels),
    });
  }
  return earlier;
}

/** The body an issue of the plan is sent with: its blockers by number (all made before it), its task's marker. */
function bodyOf(issues: Run["issues"], issue: PlannedIssue) {
  const blockers = issue.blockedBy.map((id) => issues[id]).filter((i) => i !== undefined);
  return `${
    blockers.length
      ? `${issue.body}\n\n**Blocked by:** ${blockers.map((b) => `#${b.number}`).join(", ")}`
      : issue.body
  }\n\n${taskMarker(issue.task.id)}`;
}

/**
 * The issues not made yet, in the plan's order: blockers first, so each body names them by number (read
 * on any GitHub, with or without the issue-dependencies API); links come after every issue exists.
 */
async function createIssues(run: Run) {
  const { ctx, plan, state, issues, budget } = run;
  const { github, owner, repo } = plan;
  let made = Object.keys(issues).length;
  for (const issue of plan.issues) {
    if (issues[issue.task.id]) continue;
    await budget();
    state.pending_issue = issue.task.id;
    await ctx.saveState();
    const data = await createOnce(() =>
      github.rest.issues.create({
        owner,
        repo,
        title: issue.title,
        body: bodyOf(issues, issue),
        labels: issue.labels,
        // Never re-sent blind: a lost answer is resumed by looking for the issue (findPendingIssue).
        request: { retries: 0 },
      }),
    );
    issues[issue.task.id] = { number: data.number, id: data.id, url: data.html_url };
    state.pending_issue = undefined;
    made += 1;
    if (made % 10 === 0 || made === plan.issues.length) {
      await ctx.saveState();
      run.percent = 5 + (75 * made) / plan.issues.length;
      await ctx.progress("issue_creation", run.percent, `Created ${made} of ${plan.issues.length} issues`);
    }
  }
  await ctx.saveState();
}

/**
 * Earlier issues brought up to date (only what differs: each write counts against GitHub's budget).
 * Labels are added and removed one by one, never set as a whole (a PATCH with `labels` replaces the
 * issue's set): labels people added stay, and only Atomize's own that no longer apply go. Returns how
 * many issues changed.
 */
async function refreshEarlierIssues({ ctx, plan, state, issues, budget }: Run, earlier: Earlier) {
  const { github, owner, repo } = plan;
  state.refreshed ??= [];
  let updated = 0;
  for (const issue of plan.issues) {
    const now = earlier.get(issue.task.id);
    if (!now || state.refreshed.includes(issue.task.id)) continue;
    const number = issues[issue.task.id]!.number;
    const body = bodyOf(issues, issue);
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
  return updated;
}

/** Issues made for tasks deleted since: labelled, never closed or deleted. */
async function labelRemovedIssues({ ctx, plan, budget }: Run) {
  const { github, owner, repo } = plan;
  for (const item of plan.previous.removed) {
    const found = await issueIfThere(github, owner, repo, item.remoteId);
    const labels = found ? labelNames(found.labels) : [];
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
}

/**
 * Each subtask's issue under its parent's (sub-issues). An earlier issue already under this parent stays;
 * one whose task moved is moved (replace_parent). A link GitHub refuses (a second parent, over 100
 * sub-issues) is recorded and the export goes on.
 */
async function linkSubIssues({ ctx, plan, state, issues, budget }: Run, earlier: Earlier) {
  const { github, owner, repo } = plan;
  state.linked ??= [];
  state.sub_issue_refusals ??= {};
  const linkedBefore = state.linked;
  const refusals = state.sub_issue_refusals;
  let linked = 0;
  const todo = plan.links.filter((l) => !linkedBefore.includes(l.taskId));
  for (const link of todo) {
    const parent = issues[link.parentTaskId]!;
    const before = plan.previous.byTask.get(link.taskId);
    if (before && earlier.has(link.taskId) && before.parent === String(parent.number)) {
      linkedBefore.push(link.taskId);
      continue;
    }
    await budget();
    await github.rest.issues
      .addSubIssue({
        owner,
        repo,
        issue_number: parent.number,
        sub_issue_id: issues[link.taskId]!.id,
        ...(before ? { replace_parent: true } : {}),
      })
      .catch((err: unknown) => {
        if (!isStatus(err, 422)) throw err;
        // "may not contain duplicate sub-issues": linked by an earlier try. Any other 422 is GitHub
        // refusing this link: the export goes on and says which.
        const why = (err as Error).message;
        if (!ALREADY_LINKED.test(why)) refusals[link.taskId] = why;
      });
    linkedBefore.push(link.taskId);
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
}

/**
 * An earlier issue's dependencies a person removed from the plan since: removed there too, but only those
 * between this plan's own issues (anything else someone linked on GitHub is theirs). A server without the
 * issue-dependencies API (404) is noted, and dependencies are then left to the bodies.
 */
async function unlinkDroppedDependencies({ plan, state, issues, budget }: Run, earlier: Earlier) {
  const { github, owner, repo } = plan;
  let unlinked = 0;
  if (state.dependenciesUnavailable || !earlier.size) return unlinked;
  const planIds = new Map(Object.entries(issues).map(([taskId, i]) => [i.id, taskId]));
  for (const issue of plan.issues) {
    if (!earlier.has(issue.task.id)) continue;
    const wanted = new Set(issue.blockedBy);
    const number = issues[issue.task.id]!.number;
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
  return unlinked;
}

/** The plan's dependencies as GitHub's own "blocked by" relationship, where the server has it. */
async function linkDependencies({ ctx, plan, state, issues, budget }: Run) {
  const { github, owner, repo } = plan;
  state.blocked ??= [];
  state.refused ??= [];
  const { blocked: made, refused } = state;
  const seen = new Set([...made, ...refused]);
  const pending = pairsOf(plan).filter((p) => !seen.has(`${p.taskId}>${p.blockerId}`));
  let blocked = 0;
  for (const pair of state.dependenciesUnavailable ? [] : pending) {
    await budget();
    const outcome = await github.rest.issues
      .addBlockedByDependency({
        owner,
        repo,
        issue_number: issues[pair.taskId]!.number,
        issue_id: issues[pair.blockerId]!.id,
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
    (outcome === "made" ? made : refused).push(`${pair.taskId}>${pair.blockerId}`);
    if (outcome === "made") blocked += 1;
    if (blocked % 10 === 0) {
      await ctx.saveState();
      await ctx.progress("issue_creation", 98, `Linked ${blocked} of ${pending.length} dependencies`);
    }
  }
  await ctx.saveState();
}

/** Every "blocked by" pair of the plan. */
const pairsOf = (plan: GithubPlan) =>
  plan.issues.flatMap((i) => i.blockedBy.map((b) => ({ taskId: i.task.id, blockerId: b })));

/** The export's result, and what it made there for sync and re-export. */
function outcome({ plan, state, issues }: Run, updated: number, unlinked: number) {
  const name = `${plan.owner}/${plan.repo}`;
  const refusals = state.sub_issue_refusals ?? {};
  const refused = Object.keys(refusals).length;
  return {
    warnings: refused
      ? [
          `GitHub refused ${refused} sub-issue link${refused === 1 ? "" : "s"} (${[...new Set(Object.values(refusals))][0]}); those issues are listed in their parent's body instead.`,
        ]
      : [],
    sub_issues_refused: refused,
    issues_created: Object.keys(issues).length - (state.refreshed?.length ?? 0),
    issues_updated: updated,
    issues_marked_removed: plan.previous.removed.length,
    dependencies_removed: unlinked,
    dependencies: pairsOf(plan).length,
    dependencies_linked: state.dependenciesUnavailable ? 0 : (state.blocked?.length ?? 0),
    repository: name,
    repository_url: `https://github.com/${name}/issues`,
    remote: {
      target: name.toLowerCase(),
      // The repository's id, which outlives renames (webhook deliveries name it).
      container: String(plan.repositoryId),
      items: Object.entries(issues).map(([taskId, issue]) => {
        const parentTask = plan.links.find((l) => l.taskId === taskId)?.parentTaskId;
        const parentIssue = parentTask ? issues[parentTask] : undefined;
        const parent = parentIssue && !refusals[taskId] ? String(parentIssue.number) : null;
        const planned = plan.issues.find((i) => i.task.id === taskId);
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
                  text: bodyOf(issues, planned),
                  story_points: storyPointsOf(planned.labels),
                  parent,
                },
              }
            : {}),
        };
      }),
    },
  };
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
