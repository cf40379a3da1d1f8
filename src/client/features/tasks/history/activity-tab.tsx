import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ActivityEntry, ActivityKind } from "../../../../shared/schemas/activity";
import { EmptyState, LoadError } from "../../../components/empty-state";
import { Spinner } from "../../../components/spinner";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";

const KIND_LABEL: Record<ActivityKind, string> = {
  edit: "Edit",
  status: "Progress",
  structure: "Structure",
  claim: "Claim",
  comment: "Comment",
  review: "Review",
  export: "Export",
  tracker: "Tracker",
  replan: "Re-plan",
  team: "Team",
};

const PAGE = 50;

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * Who did what on the plan (or on this task and what is under it), newest first (issue 41): people and
 * their agents, and what the product did (a claim that ran out). Live: every change to the plan refetches
 * the newest page; older pages load on request.
 */
export function ActivityTab({ taskId, isRoot }: { taskId: string; isRoot: boolean }) {
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-base-content/70">
        {isRoot
          ? "Everything done on this plan, by whom, newest first."
          : "Everything done on this task and its subtasks, by whom, newest first."}
      </p>
      <ol className="flex flex-col gap-2" data-testid="activity">
        {pages.map((before, i) => (
          <ActivityPage
            key={before ?? "newest"}
            taskId={taskId}
            before={before}
            first={i === 0}
            onOlder={i === pages.length - 1 ? (next) => setPages([...pages, next]) : undefined}
          />
        ))}
      </ol>
    </div>
  );
}

function ActivityPage({
  taskId,
  before,
  first,
  onOlder,
}: {
  taskId: string;
  before: number | undefined;
  first: boolean;
  /** Set on the last page shown: loads the page after it. */
  onOlder?: (before: number) => void;
}) {
  const trpc = useTRPC();
  const page = useQuery(trpc.tasks.activity.queryOptions({ id: taskId, limit: PAGE, before }));
  if (page.isPending) {
    return (
      <li className="flex min-h-20 items-center justify-center">
        <Spinner label="Loading activity..." />
      </li>
    );
  }
  if (page.isError) {
    return (
      <li>
        <LoadError title="The activity could not be loaded" onRetry={() => void page.refetch()}>
          {errorDetailOf(page.error) ?? "Try again in a moment."}
        </LoadError>
      </li>
    );
  }
  const { entries, next_before } = page.data;
  if (first && entries.length === 0) {
    return (
      <li>
        <EmptyState title="Nothing yet">
          Edits, progress, claims, comments, reviews and exports show here, with who made them.
        </EmptyState>
      </li>
    );
  }
  return (
    <>
      {entries.map((e) => (
        <ActivityRow key={e.id} entry={e} />
      ))}
      {onOlder && next_before !== null && (
        <li>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => onOlder(next_before)}>
            Show older
          </button>
        </li>
      )}
    </>
  );
}

function ActivityRow({ entry }: { entry: ActivityEntry }) {
  return (
    <li
      className="flex flex-wrap items-start gap-3 rounded-box border border-base-300 bg-base-200 p-3"
      data-testid="activity-entry"
    >
      <span className="badge badge-sm badge-outline">{KIND_LABEL[entry.kind]}</span>
      <div className="min-w-0 flex-1">
        <p className="break-words text-sm">{entry.text}</p>
        <p className="text-xs text-base-content/60">
          <time dateTime={entry.at}>{when(entry.at)}</time>
          {entry.agent ? " · by a coding agent" : entry.actor ? "" : " · by Atomize"}
        </p>
      </div>
    </li>
  );
}
