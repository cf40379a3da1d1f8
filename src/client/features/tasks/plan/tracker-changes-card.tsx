import { useMutation, useQuery } from "@tanstack/react-query";
import { EXPORT_LABELS } from "../../../../shared/schemas/integrations";
import { TRACKER_FIELD_LABEL, type TrackerChange } from "../../../../shared/schemas/tracker-changes";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { useRefreshTask } from "../shared/use-task-detail";

/** The change's kind, as the re-plan review colours its changes. */
function tone(change: TrackerChange) {
  if (change.conflict) return { box: "border-error/50 bg-error/5", badge: "badge-error", label: "Conflict" };
  if (change.field === "added")
    return { box: "border-success/50 bg-success/5", badge: "badge-success", label: "Added" };
  if (change.field === "closed")
    return { box: "border-warning/50 bg-warning/5", badge: "badge-warning", label: "Closed" };
  return { box: "border-info/50 bg-info/5", badge: "badge-info", label: "Changed" };
}

/** What taking theirs does, in words on the button. */
function takeLabel(change: TrackerChange): string {
  if (change.field === "added") return "Add to the plan";
  if (change.field === "closed") return "Remove from the plan";
  return "Use theirs";
}

function Side({ label, text }: { label: string; text: string }) {
  return (
    <div className="min-w-0 flex-1 rounded-box border border-base-300 bg-base-100 p-2">
      <p className="text-xs font-semibold uppercase tracking-wide text-base-content/60">{label}</p>
      <p className="mt-1 line-clamp-6 whitespace-pre-line break-words text-sm">{text || "(empty)"}</p>
    </div>
  );
}

function ChangeRow({ change, projectId }: { change: TrackerChange; projectId: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(projectId);
  const resolve = useMutation(
    trpc.tasks.resolveTrackerChange.mutationOptions({
      retry: false,
      onSuccess: (r) => {
        toast.success(r.decision === "theirs" ? "Change taken into the plan" : "Kept the plan's version");
        void refresh();
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "The change could not be reviewed");
        void refresh();
      },
    }),
  );
  const t = tone(change);
  const service = EXPORT_LABELS[change.service];
  const what = change.task_title ?? change.theirs;
  return (
    <li className={`flex flex-col gap-2 rounded-box border p-3 ${t.box}`} data-testid="tracker-change">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`badge badge-sm ${t.badge}`}>{t.label}</span>
        <span className="font-semibold">{TRACKER_FIELD_LABEL[change.field]}</span>
        <span className="min-w-0 truncate text-base-content/80">{what}</span>
        <a
          href={change.url}
          target="_blank"
          rel="noopener noreferrer"
          className="link link-hover ml-auto text-xs"
        >
          {service} {change.key}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
      {change.conflict && (
        <p className="text-xs text-error">
          Changed in Atomize too since the last sync: neither version is applied until you choose.
        </p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Side label={`Theirs (${service})`} text={change.theirs} />
        <Side label="Ours (Atomize)" text={change.ours} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate({ id: projectId, change_id: change.id, decision: "ours" })}
        >
          Keep ours
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate({ id: projectId, change_id: change.id, decision: "theirs" })}
        >
          {resolve.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {takeLabel(change)}
        </button>
      </div>
    </li>
  );
}

/**
 * The Plan tab's review of edits made in JIRA, GitHub and Trello (services/exports/tracker-changes.ts):
 * each change with theirs and ours, taken or declined on its own; shown only while some wait.
 */
export function TrackerChangesCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.tasks.trackerChanges.queryOptions({ id: projectId }));
  const changes = query.data?.changes ?? [];
  if (changes.length === 0) return null;
  const conflicts = changes.filter((c) => c.conflict).length;
  return (
    <section
      aria-labelledby="tracker-changes-heading"
      className="card border border-info/50 bg-base-200"
      data-testid="tracker-changes"
    >
      <div className="card-body gap-3 p-4">
        <div>
          <h3 id="tracker-changes-heading" className="card-title text-base">
            Changes made in your trackers
          </h3>
          <p className="text-sm text-base-content/70">
            {changes.length} change{changes.length === 1 ? "" : "s"} to review
            {conflicts ? `, ${conflicts} in conflict with edits here` : ""}. Take each one into the plan or
            keep the plan's version; the next export writes the plan's version there.
          </p>
        </div>
        <ul className="flex flex-col gap-2" aria-label="Changes to review">
          {changes.map((c) => (
            <ChangeRow key={c.id} change={c} projectId={projectId} />
          ))}
        </ul>
      </div>
    </section>
  );
}
