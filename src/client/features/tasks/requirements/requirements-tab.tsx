import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "wouter";
import { EXPORT_LABELS } from "../../../../shared/schemas/integrations";
import type { RequirementProgress, RequirementTask } from "../../../../shared/schemas/requirements";
import { EmptyState, LoadError } from "../../../components/empty-state";
import { BlockSpinner } from "../../../components/spinner";
import { TaskStatusBadge } from "../../../components/task-status-badge";
import { ToggleRow } from "../../../components/toggle-row";
import { errorDetailOf } from "../../../lib/api-error";
import type { StatusBadgeInfo } from "../../../lib/task-status";
import { useTRPC } from "../../../lib/trpc";
import {
  hiddenText,
  PULL_REQUEST_BADGE,
  REQUIREMENT_BADGE,
  requirementsSummary,
  visibleRequirements,
  workText,
} from "./requirements-view";

const TONE_CLASS: Record<StatusBadgeInfo["tone"], string> = {
  success: "badge-success",
  info: "badge-info",
  warning: "badge-warning",
  error: "badge-error",
  neutral: "badge-neutral",
};

function Badge({ info, testId }: { info: StatusBadgeInfo; testId?: string }) {
  return (
    <span
      className={`badge badge-sm shrink-0 whitespace-nowrap ${TONE_CLASS[info.tone]}`}
      data-testid={testId}
    >
      {info.label}
    </span>
  );
}

function NewTab() {
  return <span className="sr-only"> (opens in a new tab)</span>;
}

function TaskRow({ task }: { task: RequirementTask }) {
  const work = workText(task.leaves_done, task.leaves_total);
  return (
    <li className="flex flex-col gap-1 py-2" data-testid="requirement-task">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={`/tasks/${encodeURIComponent(task.id)}`} className="link link-hover min-w-0 break-words">
          {task.title}
        </Link>
        <TaskStatusBadge status={task.status} />
        {work && <span className="text-xs text-base-content/70">{work}</span>}
      </div>
      {task.remote_links.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="In the trackers">
          {task.remote_links.map((link) => (
            <li key={`${link.kind}-${link.url}`} className="flex items-center gap-1">
              <span className="badge badge-sm badge-outline">{EXPORT_LABELS[link.kind]}</span>
              <a className="link" href={link.url} target="_blank" rel="noopener noreferrer">
                {link.key}
                <NewTab />
              </a>
              {link.status && <span className="text-base-content/70">{link.status}</span>}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function RequirementCard({ requirement: r }: { requirement: RequirementProgress }) {
  const headingId = useId();
  const work = workText(r.leaves_done, r.leaves_total);
  return (
    <li className="card border border-base-300 bg-base-200" data-testid="requirement" data-status={r.status}>
      <div className="card-body gap-2 p-4">
        <div className="flex flex-wrap items-start gap-2">
          <h3 id={headingId} className="min-w-0 flex-1 break-words font-medium">
            <span className="badge badge-outline mr-2 font-mono">{r.id}</span>
            {r.text}
          </h3>
          <Badge info={REQUIREMENT_BADGE[r.status]} testId="requirement-status" />
        </div>
        {work && <p className="text-sm text-base-content/70">{work}</p>}
        {r.tasks.length === 0 ? (
          <p className="text-sm font-medium text-warning-content" data-testid="requirement-uncovered">
            <span className="rounded bg-warning px-1.5 py-0.5">No task covers this requirement.</span>{" "}
            <span className="font-normal text-base-content/80">
              Add a task for it, or re-plan the part of the plan it belongs to.
            </span>
          </p>
        ) : (
          <ul className="divide-y divide-base-300" aria-label={`Tasks covering ${r.id}`}>
            {r.tasks.map((t) => (
              <TaskRow key={t.id} task={t} />
            ))}
          </ul>
        )}
        {r.pull_requests.length > 0 && (
          <div>
            <h4 className="text-sm font-semibold">Pull requests</h4>
            <ul className="mt-1 flex flex-col gap-1 text-sm" data-testid="requirement-pull-requests">
              {r.pull_requests.map((pr) => (
                <li key={`${pr.repository}#${pr.number}`} className="flex flex-wrap items-center gap-2">
                  <Badge info={PULL_REQUEST_BADGE[pr.state]} />
                  <a
                    className="link min-w-0 break-words"
                    href={pr.url}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    #{pr.number} {pr.title}
                    <NewTab />
                  </a>
                  <span className="text-base-content/70">{pr.repository}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * The Requirements tab: each requirement the plan's description states, whether its work is done, the
 * tasks covering it with their tracker links, and the pull requests closing their GitHub issues. The
 * filter starts on "Only what is not done": a new plan hides nothing (nothing is done), and later the tab
 * answers "what is left" at a glance, while the summary line still counts what is done.
 */
export function RequirementsTab({ taskId }: { taskId: string }) {
  const trpc = useTRPC();
  const toggleId = useId();
  const [onlyNotDone, setOnlyNotDone] = useState(true);
  const answer = useQuery(trpc.tasks.requirements.queryOptions({ id: taskId }));

  if (answer.isPending) {
    return <BlockSpinner label="Loading requirements..." />;
  }
  if (answer.isError) {
    return (
      <LoadError title="The requirements could not be loaded" onRetry={() => void answer.refetch()}>
        {errorDetailOf(answer.error) ?? "Try again in a moment."}
      </LoadError>
    );
  }
  const all = answer.data.requirements;
  if (all.length === 0) {
    return (
      <EmptyState title="No stated requirements">
        This plan's description states no requirements to trace. A description that lists what the work must
        do (one point per line) has each point traced here as R1, R2, ... to the tasks that cover it.
      </EmptyState>
    );
  }
  const shown = visibleRequirements(all, onlyNotDone);
  const hidden = hiddenText(all.length, shown.length);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-200 p-4">
        <p className="text-lg font-semibold" data-testid="requirements-summary" aria-live="polite">
          {requirementsSummary(answer.data)}
        </p>
        <ToggleRow
          id={toggleId}
          label="Only what is not done"
          description="Hide the requirements whose tasks are all completed."
          checked={onlyNotDone}
          onChange={setOnlyNotDone}
        />
      </div>
      {shown.length === 0 ? (
        <EmptyState title="Every requirement is done">
          All {all.length} stated requirements have their tasks completed.{" "}
          <button type="button" className="link" onClick={() => setOnlyNotDone(false)}>
            Show them
          </button>
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Requirements" data-testid="requirements">
          {shown.map((r) => (
            <RequirementCard key={r.id} requirement={r} />
          ))}
        </ul>
      )}
      {hidden && shown.length > 0 && <p className="text-sm text-base-content/70">{hidden}</p>}
    </div>
  );
}
