import { Suspense, useMemo, useState } from "react";
import { useLocation, useParams, useSearchParams } from "wouter";
import type { PlanViewer } from "../../../shared/schemas/realtime";
import type { Task } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { ConnectionIndicator } from "../../components/connection-indicator";
import { LoadError } from "../../components/empty-state";
import { BlockSpinner, Spinner } from "../../components/spinner";
import { TabList, tabPanelProps } from "../../components/tabs";
import { usePageMeta } from "../../components/use-page-meta";
import { useAuth } from "../../lib/auth";
import { lazyPage } from "../../lib/lazy-page";
import type { ConnectionState } from "../../lib/realtime-connection";
import { withParam } from "../../lib/search-params";
import { TASK_TITLE_MAX } from "../../lib/task-text";
import { ActivityTab } from "./history/activity-tab";
import { HistoryTab } from "./history/history-tab";
import type { ProgressAction, ProgressState } from "./live/decomposition-progress";
import { DecompositionProgressPanel, useProgressPanelVisible } from "./live/decomposition-progress-panel";
import { useDecompositionProgress } from "./live/use-decomposition-progress";
import { useTaskRealtime } from "./live/use-task-realtime";
import { OverviewTab } from "./overview-tab";
import { PlanReviewCard, RejectedPlanCard } from "./plan/plan-review";
import { PlanTab } from "./plan/plan-tab";
import { PresenceList } from "./plan/presence-list";
import { usePlanPresence } from "./plan/use-plan-presence";
import { ReadingReviewPanel } from "./requirements/reading-review-panel";
import { RequirementsTab } from "./requirements/requirements-tab";
import { UserStoriesTab } from "./requirements/user-stories-tab";
import { PlanAccessProvider } from "./shared/plan-access";
import { classifyTaskError } from "./shared/task-error";
import { summarizeTree } from "./shared/task-tree";
import { useTaskDetail } from "./shared/use-task-detail";
import { SubtasksTab } from "./subtasks-tab";
import { TaskSummaryCard } from "./task-summary-card";

// Markdown rendering (marked + the sanitiser) loads only when the Event Model tab is first opened.
const EventModelTab = lazyPage<{ task: Task }>(() =>
  import("./requirements/event-model-tab").then((m) => ({ default: m.EventModelTab })),
);

const TAB_IDS = [
  "overview",
  "subtasks",
  "plan",
  "requirements",
  "history",
  "activity",
  "stories",
  "event-model",
] as const;
type TabId = (typeof TAB_IDS)[number];
const isTabId = (v: string | null): v is TabId => (TAB_IDS as readonly (string | null)[]).includes(v);

function PageHeader({
  onRefresh,
  refreshing,
  connection,
  viewers,
}: {
  onRefresh: () => void;
  refreshing: boolean;
  /** The others who have the plan open now. */
  viewers: PlanViewer[];
  /** Null where there is nothing to follow live (a task that is not found). */
  connection: ConnectionState | null;
}) {
  const [, navigate] = useLocation();
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <button type="button" className="btn btn-ghost btn-sm -ml-2" onClick={() => navigate("/dashboard")}>
        <span aria-hidden="true">←</span> Back to Dashboard
      </button>
      <div className="ml-auto flex items-center gap-2">
        <PresenceList viewers={viewers} />
        {connection && <ConnectionIndicator state={connection} />}
        <button type="button" className="btn btn-sm" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : (
            <span aria-hidden="true">↻</span>
          )}
          Refresh
        </button>
      </div>
    </div>
  );
}

function DetailSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <Spinner label="Loading task..." className="sr-only" />
      <div className="card border border-base-300 bg-base-200">
        <div className="card-body gap-3 p-4 sm:p-6">
          <div className="skeleton h-5 w-20" />
          <div className="skeleton h-8 w-3/4" />
          <div className="skeleton h-4 w-full" />
          <div className="skeleton h-4 w-2/3" />
          <div className="skeleton h-4 w-1/3" />
        </div>
      </div>
      <div className="skeleton h-10 w-full max-w-md" />
      <div className="grid gap-4 md:grid-cols-2">
        <div className="skeleton h-48" />
        <div className="skeleton h-48" />
      </div>
    </div>
  );
}

function TaskLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const [, navigate] = useLocation();
  const classified = classifyTaskError(error);
  const title = classified.type === "NOT_FOUND" ? "Task not found" : "Failed to load task";
  const message =
    classified.message === title
      ? "It may have been deleted, or it belongs to another account."
      : classified.message;
  return (
    <div role="alert" className="card mx-auto w-full max-w-xl border border-error/40 bg-base-200">
      <div className="card-body items-center text-center">
        <h1 className="card-title text-error">{title}</h1>
        <p className="text-base-content/80">{message}</p>
        <div className="card-actions mt-2">
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            Retry
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => navigate("/dashboard")}>
            Go to Dashboard
          </button>
        </div>
      </div>
    </div>
  );
}

/** The task detail page. */
export default function TaskDetailPage() {
  const { taskId = "" } = useParams<{ taskId: string }>();
  const progress = useDecompositionProgress(taskId);
  const realtime = useTaskRealtime(taskId, progress.dispatch);
  const { task, tree } = useTaskDetail(taskId, { live: realtime.connection === "connected" });
  const { user } = useAuth();
  const viewers = usePlanPresence(taskId, user?.id);
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: TabId = isTabId(requested) ? requested : "overview";
  const [visited, setVisited] = useState<Set<TabId>>(() => new Set([tab]));
  if (!visited.has(tab)) setVisited(new Set(visited).add(tab));

  const notFound = task.isError && classifyTaskError(task.error).type === "NOT_FOUND";
  usePageMeta({
    title: task.data
      ? taskTitle(task.data.description, TASK_TITLE_MAX)
      : task.isError
        ? notFound
          ? "Task not found"
          : "Failed to load task"
        : "Task Details",
    path: `/tasks/${encodeURIComponent(taskId)}`,
    noIndex: true,
  });

  const summary = useMemo(() => (tree.data ? summarizeTree(tree.data) : null), [tree.data]);
  const refresh = () => {
    void task.refetch();
    void tree.refetch();
  };
  const selectTab = (id: TabId) =>
    setParams((prev) => withParam(prev, "tab", id === "overview" ? null : id), { replace: true });

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-5 px-4 py-6">
      <PageHeader
        onRefresh={refresh}
        refreshing={task.isFetching || tree.isFetching}
        // A task that is not found has no live updates to miss (issue 40: it said "Disconnected · Reconnect").
        connection={notFound ? null : realtime.connection}
        viewers={viewers}
      />
      {task.data ? (
        <PlanAccessProvider value={task.data.can_edit !== false}>
          {task.data.can_edit === false && (
            <p className="alert alert-info alert-soft text-sm" data-testid="read-only-notice">
              You are a viewer in this plan's team: you can read it, claim nothing and change nothing. Ask one
              of its admins for the member role to work on it.
            </p>
          )}
          <TaskDetail
            // Per-task state (the progress panel's linger timer) starts afresh on another task.
            key={task.data.id}
            task={task.data}
            treeQuery={tree}
            summary={summary}
            tab={tab}
            visited={visited}
            onTab={selectTab}
            progress={progress.state}
            dispatchProgress={progress.dispatch}
          />
        </PlanAccessProvider>
      ) : task.isError ? (
        <TaskLoadError error={task.error} onRetry={refresh} />
      ) : (
        <DetailSkeleton />
      )}
    </div>
  );
}

function TaskDetail({
  task,
  treeQuery,
  summary,
  tab,
  visited,
  onTab,
  progress,
  dispatchProgress,
}: {
  task: Task;
  treeQuery: ReturnType<typeof useTaskDetail>["tree"];
  summary: ReturnType<typeof summarizeTree> | null;
  tab: TabId;
  visited: Set<TabId>;
  onTab: (id: TabId) => void;
  progress: ProgressState;
  dispatchProgress: (action: ProgressAction) => void;
}) {
  const subtaskCount = summary ? summary.total - 1 : task.total_subtasks;
  const storyCount = task.context?.user_stories.length ?? 0;
  const tabs = [
    { id: "overview" as const, label: "Overview" },
    {
      id: "subtasks" as const,
      label: (
        <>
          Subtasks <span className="badge badge-sm badge-ghost tabular-nums">{subtaskCount}</span>
        </>
      ),
    },
    { id: "plan" as const, label: "Plan" },
    { id: "requirements" as const, label: "Requirements" },
    { id: "history" as const, label: "History" },
    { id: "activity" as const, label: "Activity" },
    {
      id: "stories" as const,
      label: (
        <>
          User Stories
          {storyCount > 0 && <span className="badge badge-sm badge-ghost tabular-nums">{storyCount}</span>}
        </>
      ),
    },
    { id: "event-model" as const, label: "Event Model" },
  ];
  const tree = treeQuery.data;
  const showProgress = useProgressPanelVisible(task);
  const isRoot = !task.parent_id;

  return (
    <>
      <TaskSummaryCard task={task} summary={summary} />
      {showProgress && (
        <DecompositionProgressPanel task={task} state={progress} dispatch={dispatchProgress} />
      )}
      {isRoot && task.status === "awaiting_review" && (
        // Read, not planned: the owner checks the reading here, as on the new-project form (issue 38).
        <ReadingReviewPanel taskId={task.id} onPlanned={() => undefined} />
      )}
      {isRoot && task.status === "submitted" && (
        <PlanReviewCard task={task} tree={tree} treeLoading={treeQuery.isPending || treeQuery.isFetching} />
      )}
      {isRoot && task.status === "rejected" && <RejectedPlanCard task={task} />}
      <div className="flex flex-col gap-4">
        <TabList tabs={tabs} selected={tab} onSelect={onTab} idPrefix="task" label="Task sections" />

        <div {...tabPanelProps("task", "overview", tab)}>
          {visited.has("overview") && (
            <OverviewTab task={task} summary={summary} onShowEventModel={() => onTab("event-model")} />
          )}
        </div>

        <div {...tabPanelProps("task", "subtasks", tab)}>
          {visited.has("subtasks") &&
            (tree && tree.id === task.id ? (
              <SubtasksTab key={tree.id} tree={tree} taskId={task.id} />
            ) : treeQuery.isError || (treeQuery.isSuccess && !tree) ? (
              <LoadError title="No task tree available" onRetry={() => void treeQuery.refetch()}>
                {treeQuery.isError ? classifyTaskError(treeQuery.error).message : "The tree came back empty."}
              </LoadError>
            ) : (
              <BlockSpinner label="Loading task tree..." />
            ))}
        </div>

        <div {...tabPanelProps("task", "plan", tab)}>
          {visited.has("plan") &&
            (tree && tree.id === task.id ? (
              <PlanTab key={tree.id} tree={tree} />
            ) : treeQuery.isError ? (
              <LoadError title="The plan could not be loaded" onRetry={() => void treeQuery.refetch()}>
                {classifyTaskError(treeQuery.error).message}
              </LoadError>
            ) : (
              // As tall as the Plan tab usually is, so what is below does not move when it arrives.
              <BlockSpinner label="Loading task tree..." minHeight="min-h-[70vh]" />
            ))}
        </div>

        <div {...tabPanelProps("task", "requirements", tab)}>
          {visited.has("requirements") && <RequirementsTab taskId={task.root_task_id ?? task.id} />}
        </div>

        <div {...tabPanelProps("task", "history", tab)}>
          {visited.has("history") && <HistoryTab rootId={task.root_task_id ?? task.id} />}
        </div>

        <div {...tabPanelProps("task", "activity", tab)}>
          {visited.has("activity") && <ActivityTab taskId={task.id} isRoot={isRoot} />}
        </div>

        <div {...tabPanelProps("task", "stories", tab)}>
          {visited.has("stories") && <UserStoriesTab task={task} />}
        </div>

        <div {...tabPanelProps("task", "event-model", tab)}>
          {visited.has("event-model") && (
            // Its own boundary: loading the chunk must not blank the whole page (the route's Suspense).
            <Suspense fallback={<BlockSpinner label="Loading event model..." />}>
              <EventModelTab task={task} />
            </Suspense>
          )}
        </div>
      </div>
    </>
  );
}
