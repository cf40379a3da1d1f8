import type { ReactNode } from "react";
import type { Task } from "../../../shared/schemas/tasks";
import { TaskStatusBadge } from "../../components/task-status-badge";
import { complexityBadgeClass } from "../../lib/complexity-badge";
import {
  isAwaitingDecomposition,
  planStateBadge,
  statusBadge,
  workProgressText,
} from "../../lib/task-status";
import { formatDateTime } from "../../lib/time-format";
import { ReviewCard } from "./plan/review-card";
import { formatComplexity, type TreeSummary } from "./shared/task-tree";
import { techStackInfo } from "./shared/tech-stack-info";

function OverviewCard({
  title,
  children,
  className = "",
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  const id = `overview-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className={`card border border-base-300 bg-base-200 ${className}`}>
      <div className="card-body gap-3 p-4 sm:p-5">
        <h3 id={id} className="card-title text-base">
          {title}
        </h3>
        {children}
      </div>
    </section>
  );
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-base-content/60">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Statuses in the order the breakdown lists them. */
const STATUS_ORDER = [
  "completed",
  "in_progress",
  "processing",
  "pending",
  "submitted",
  "awaiting_review",
  "failed",
  "error",
  "rejected",
];

export function OverviewTab({
  task,
  summary,
  onShowEventModel,
}: {
  task: Task;
  /** Null when the tree could not be loaded. */
  summary: TreeSummary | null;
  onShowEventModel: () => void;
}) {
  const meta = task.metadata;
  const eventCounts = {
    events: meta?.extracted_events.length ?? 0,
    commands: meta?.commands.length ?? 0,
    readModels: meta?.read_models.length ?? 0,
  };
  const hasEventModeling = eventCounts.events + eventCounts.commands + eventCounts.readModels > 0;
  const tech = techStackInfo(task);
  const statuses = summary
    ? Object.keys(summary.byStatus).sort((a, b) => {
        const ia = STATUS_ORDER.indexOf(a);
        const ib = STATUS_ORDER.indexOf(b);
        return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
      })
    : [];
  const notDecomposed = isAwaitingDecomposition(task.status) && task.total_subtasks === 0;

  return (
    <div className="grid gap-4 md:grid-cols-2">
      {/* Once planned: before, requires_approval holds the first level (plan-review.tsx). */}
      {task.parent_id === null && task.status === "completed" && <ReviewCard task={task} />}
      <OverviewCard title="Task Status">
        <Facts
          items={[
            // The plan's state and the work's, apart (issue 40): a planned project is not a done one.
            [
              "Status",
              task.parent_id === null ? (
                <span key="s" className="flex flex-wrap items-center gap-2">
                  <TaskStatusBadge status={task.status} badge={planStateBadge(task.status)} />
                  {summary && (
                    <span data-testid="overview-work">
                      {workProgressText(summary.leavesDone, summary.leaves)}
                    </span>
                  )}
                </span>
              ) : (
                <TaskStatusBadge key="s" status={task.status} screen="detail" />
              ),
            ],
            ["Created", formatDateTime(task.created_at)],
            ["Updated", formatDateTime(task.updated_at)],
            ...(task.completed_at
              ? ([
                  // A root's completed_at is when its plan was made, not when its work was done.
                  [task.parent_id === null ? "Planned" : "Completed", formatDateTime(task.completed_at)],
                ] as [string, ReactNode][])
              : []),
            [
              "Complexity",
              task.complexity_score !== null ? (
                <span key="c" className={`badge badge-sm ${complexityBadgeClass(task.complexity_score)}`}>
                  {formatComplexity(task.complexity_score)}
                </span>
              ) : (
                "Not scored yet"
              ),
            ],
            // The work items' sum, as the breakdown says, once there are any.
            [
              "Story points",
              (summary && summary.leaves > 1 ? summary.storyPoints : task.story_points) ??
                "Not estimated yet",
            ],
            ["Atomic", task.is_atomic ? "Yes" : "No"],
          ]}
        />
        {task.status === "rejected" && task.rejection_reason && (
          <p className="rounded-box border border-error/40 bg-error/10 px-3 py-2 text-sm">
            <span className="font-semibold text-error">Rejection reason: </span>
            {task.rejection_reason}
          </p>
        )}
        {notDecomposed && (
          <p className="text-sm text-base-content/70">
            Decomposition has not run yet. Subtasks, complexity scores, story points, user stories and the
            event model appear here once it has.
          </p>
        )}
      </OverviewCard>

      <OverviewCard title="Task Breakdown">
        {summary ? (
          <>
            <Facts
              items={[
                ["Total tasks", summary.total],
                ["Subtasks", summary.total - 1],
                ["Atomic tasks", summary.atomic],
                ["Story points", summary.storyPoints],
              ]}
            />
            <ul className="flex flex-wrap gap-2" aria-label="Work items by status">
              {statuses.map((status) => (
                <li key={status} className="flex items-center gap-1 text-sm">
                  <TaskStatusBadge status={status} screen="detail" />
                  <span className="tabular-nums">{summary.byStatus[status]}</span>
                  <span className="sr-only">
                    {statusBadge(status, "detail").label.toLowerCase()} work items
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-base-content/70">No task tree available</p>
        )}
      </OverviewCard>

      {task.stated_scope && task.stated_scope.requirements.length > 0 && (
        <OverviewCard title="Stated Requirements" className="md:col-span-2">
          <p className="text-sm" data-testid="planned-as">
            <span className="font-semibold">Planned as: {task.stated_scope.planned_as.label}</span>
            {task.stated_scope.planned_as.because.length > 0 && (
              <span className="text-base-content/70">
                , because {task.stated_scope.planned_as.because.join("; ")}.
              </span>
            )}
          </p>
          <p className="text-sm text-base-content/70">
            What the description states, read one by one. Every subtask names the requirements it covers.
          </p>
          <ol className="space-y-1 text-sm" data-testid="stated-requirements">
            {task.stated_scope.requirements.map((r) => (
              <li key={r.id} className="break-words">
                <span className="badge badge-sm badge-outline mr-2 font-mono">{r.id}</span>
                {r.text}
              </li>
            ))}
          </ol>
          {task.stated_scope.constraints.length > 0 && (
            <div className="text-sm" data-testid="stated-constraints">
              <p className="text-base-content/60">Rules the work must keep (checked, not planned as work)</p>
              <ul className="mt-1 list-disc pl-5">
                {task.stated_scope.constraints.map((c) => (
                  <li key={c} className="break-words">
                    {c}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {task.stated_scope.non_goals.length > 0 && (
            <div className="text-sm" data-testid="stated-non-goals">
              <p className="text-base-content/60">Out of scope (not planned)</p>
              <ul className="mt-1 list-disc pl-5">
                {task.stated_scope.non_goals.map((n) => (
                  <li key={n} className="break-words">
                    {n}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </OverviewCard>
      )}

      {hasEventModeling && (
        <OverviewCard title="Event Modeling">
          <Facts
            items={[
              ["Events", eventCounts.events],
              ["Commands", eventCounts.commands],
              ["Read models", eventCounts.readModels],
              ["Swimlanes", meta?.swimlanes.length ?? 0],
              ["Chapters", meta?.chapters.length ?? 0],
            ]}
          />
          <div>
            <button type="button" className="btn btn-sm btn-outline" onClick={onShowEventModel}>
              View Event Model
            </button>
          </div>
        </OverviewCard>
      )}

      <OverviewCard title="Technology Stack">
        {tech.rows.length > 0 || tech.repoUrl ? (
          <>
            {tech.rows.length > 0 && <Facts items={tech.rows.map((r) => [r.label, r.value])} />}
            {tech.repoUrl && (
              <p className="text-sm">
                <span className="text-base-content/60">Repository: </span>
                <a
                  href={tech.repoUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="link link-primary break-all"
                >
                  {tech.repoUrl.replace(/^https:\/\//, "")}
                </a>
              </p>
            )}
          </>
        ) : (
          <p className="text-sm text-base-content/70">No technology preferences were given for this task.</p>
        )}
        {tech.additionalRequirements && (
          <p className="whitespace-pre-line text-sm">
            <span className="text-base-content/60">Additional requirements: </span>
            {tech.additionalRequirements}
          </p>
        )}
        {(task.context?.best_practices.length ?? 0) > 0 && (
          <div className="text-sm">
            <p className="text-base-content/60">Best practices</p>
            <ul className="mt-1 list-disc pl-5">
              {task.context?.best_practices.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
      </OverviewCard>

      <OverviewCard title="Description" className="md:col-span-2">
        <p className="whitespace-pre-wrap break-words text-sm leading-relaxed">{task.description}</p>
      </OverviewCard>
    </div>
  );
}
