import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc";

/**
 * Before an export runs: whether this plan went to this place before, and then what the export will do
 * there (update, create, mark removed), so nobody is surprised by a second copy or by changes.
 */
export function ExportPreviewLine({
  taskId,
  kind,
  projectKey,
  jiraUrl,
  repository,
  boardId,
}: {
  taskId: string;
  kind: "jira" | "github" | "trello";
  boardId?: string;
  projectKey?: string;
  jiraUrl?: string;
  repository?: string;
}) {
  const trpc = useTRPC();
  const ready =
    kind === "jira"
      ? /^[A-Z][A-Z0-9]{1,9}$/.test(projectKey ?? "")
      : kind === "trello"
        ? /^[0-9a-f]{24}$/.test(boardId ?? "")
        : /^[^/\s]+\/[^/\s]+$/.test(repository ?? "");
  const preview = useQuery({
    ...trpc.exports.preview.queryOptions({
      task_id: taskId,
      kind,
      ...(kind === "jira"
        ? { project_key: projectKey, ...(jiraUrl ? { jira_url: jiraUrl } : {}) }
        : kind === "trello"
          ? { board_id: boardId }
          : { repository }),
    }),
    enabled: ready,
    retry: false,
    staleTime: 5_000,
  });
  if (!ready || !preview.data?.exported_before) return null;
  const { update, create, remove } = preview.data;
  return (
    <p role="status" className="alert alert-info alert-soft text-sm" data-testid="export-preview">
      This plan was exported here before: {update} {update === 1 ? "item" : "items"} will be updated, {create}{" "}
      created
      {remove ? `, and ${remove} of deleted tasks marked removed (never deleted)` : ""}.
    </p>
  );
}
