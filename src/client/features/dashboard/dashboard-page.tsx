import { useState } from "react";
import { useLocation, useSearchParams } from "wouter";
import { DASHBOARD_PAGE_SIZE, type Task } from "../../../shared/schemas/tasks";
import { DeleteTaskModal } from "../../components/delete-task-modal";
import { EmptyState } from "../../components/empty-state";
import {
  PagePagination,
  pageFromParam,
  totalPages,
  useStepBackWhenEmpty,
} from "../../components/page-pagination";
import { TaskUsageSummary } from "../../components/task-usage";
import { usePageMeta } from "../../components/use-page-meta";
import { getErrorMessage } from "../../lib/api-error";
import { withParam } from "../../lib/search-params";
import { deleteTaskConfirmation } from "../../lib/task-text";
import { StatsPanel } from "./stats-panel";
import { TaskCard, TaskCardSkeleton } from "./task-card";
import { useCompleteTask, useDashboardQueries, useDeleteTaskOptimistic } from "./use-dashboard";
import { useDashboardEvents } from "./use-dashboard-events";
import { useTeamsList } from "./use-teams-list";

/** Dashboard: stats, monthly usage and the paginated 'Recent Tasks' grid. */
export default function DashboardPage() {
  usePageMeta({ title: "Dashboard", path: "/dashboard", noIndex: true });
  const [, navigate] = useLocation();
  const [params, setParams] = useSearchParams();
  const page = pageFromParam(params.get("page"));
  // Plans of one team, or the person's own (issue 41): ?team=<id> or ?team=personal.
  const team = params.get("team");
  const { list, stats, usage } = useDashboardQueries(page, team);
  const teams = useTeamsList();
  useDashboardEvents();
  const deleteTask = useDeleteTaskOptimistic();
  const completeTask = useCompleteTask();
  const [toDelete, setToDelete] = useState<Task | null>(null);

  const setPage = (next: number, replace = false) => {
    setParams((prev) => withParam(prev, "page", next <= 1 ? null : String(next)), { replace });
  };

  const data = list.data;
  const total = data?.total ?? 0;
  const pages = totalPages(total, DASHBOARD_PAGE_SIZE);
  // A page left empty while tasks remain steps back (straight to the last page for a stale URL).
  useStepBackWhenEmpty(
    {
      page,
      shown: data && !list.isPlaceholderData ? data.tasks.length : null,
      total,
      pageSize: DASHBOARD_PAGE_SIZE,
    },
    (n) => setPage(n, true),
  );

  const open = (task: Task) => navigate(`/tasks/${encodeURIComponent(task.id)}`);
  const createTask = () => navigate("/tasks/create");

  const loadError = (list.isError && !data && list.error) || (stats.isError && !stats.data && stats.error);
  const retry = () => {
    void list.refetch();
    void stats.refetch();
    void usage.refetch();
  };

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 sm:py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold sm:text-3xl">Dashboard</h1>
          <p className="mt-1 text-sm text-base-content/70">
            Your projects, broken down into atomic, estimable work.
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={createTask}>
          <span aria-hidden="true">+</span>
          <span className="hidden md:inline">Create New Task</span>
          <span className="md:hidden">New Task</span>
        </button>
      </header>

      {loadError ? (
        <div role="alert" className="alert alert-error flex flex-wrap items-center justify-between">
          <div>
            <h2 className="font-semibold">Failed to load dashboard</h2>
            <p className="text-sm">{getErrorMessage(loadError)}</p>
          </div>
          <button type="button" className="btn btn-sm" onClick={retry}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <StatsPanel stats={stats.data} />

          <section
            aria-labelledby="usage-heading"
            className="flex flex-wrap items-center justify-between gap-3 rounded-box border border-base-300 bg-base-200 px-4 py-3"
          >
            <h2 id="usage-heading" className="text-sm font-semibold">
              Monthly usage
            </h2>
            <TaskUsageSummary usage={usage.data} className="sm:text-right [&_progress]:sm:ml-auto" />
          </section>

          <section aria-labelledby="recent-tasks-heading" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="recent-tasks-heading" className="text-xl font-semibold">
                Recent Tasks
              </h2>
              {(teams.data?.teams.length ?? 0) > 0 && (
                <label className="flex items-center gap-2 text-sm" htmlFor="dashboard-team">
                  Show
                  <select
                    id="dashboard-team"
                    className="select select-bordered select-sm"
                    value={team ?? ""}
                    onChange={(e) =>
                      setParams(
                        (prev) => withParam(withParam(prev, "page", null), "team", e.target.value || null),
                        {
                          replace: true,
                        },
                      )
                    }
                  >
                    <option value="">All plans</option>
                    <option value="personal">Just mine</option>
                    {teams.data!.teams.map((t) => (
                      <option key={t.id} value={t.id}>
                        Team: {t.name}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {data && data.total > 0 && (
                <p className="text-sm text-base-content/70" aria-live="polite">
                  Showing {data.tasks.length} of {data.total} tasks
                </p>
              )}
            </div>

            {!data ? (
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
                <span className="sr-only" role="status">
                  Loading tasks
                </span>
                {Array.from({ length: 6 }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                  <TaskCardSkeleton key={i} />
                ))}
              </div>
            ) : data.total === 0 ? (
              <EmptyState
                title="Welcome to Atomize!"
                headingLevel={3}
                className="py-14"
                actions={
                  <button type="button" className="btn btn-primary" onClick={createTask}>
                    Create Your First Task
                  </button>
                }
              >
                <p>
                  Describe a project in plain language and the AI breaks it into atomic subtasks, with
                  complexity scores, story points, epics, user stories and an event model.
                </p>
              </EmptyState>
            ) : (
              <>
                <ul
                  className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${list.isPlaceholderData ? "opacity-60" : ""}`}
                  aria-busy={list.isPlaceholderData}
                >
                  {data.tasks.map((task) => (
                    <li key={task.id}>
                      <TaskCard
                        task={task}
                        onOpen={open}
                        onComplete={(t) => completeTask.mutate({ id: t.id })}
                        onDelete={setToDelete}
                        completing={completeTask.isPending && completeTask.variables?.id === task.id}
                      />
                    </li>
                  ))}
                </ul>
                <PagePagination
                  page={page}
                  pages={pages}
                  onPage={(n) => setPage(n)}
                  disabled={list.isPlaceholderData}
                  label="Task pages"
                />
              </>
            )}
          </section>
        </>
      )}

      <DeleteTaskModal
        open={toDelete !== null}
        message={toDelete ? deleteTaskConfirmation(toDelete.description) : ""}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) deleteTask.mutate({ id: toDelete.id });
          setToDelete(null);
        }}
      />
    </div>
  );
}
