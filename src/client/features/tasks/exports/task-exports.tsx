import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  EXPORT_MIME,
  type ExportFormat,
  exportFileName,
  treeToCsv,
  treeToJson,
  treeToMarkdown,
} from "../../../../shared/export-formats";
import type { ExportKind } from "../../../../shared/schemas/integrations";
import type { Task, TaskTreeNode } from "../../../../shared/schemas/tasks";
import { useLoading } from "../../../components/loading-overlay";
import { useToast } from "../../../components/toast";
import { useTreeQueryOptions } from "../shared/use-tree-query";
import { downloadText } from "./download";
import { ExportMenu, type ExportMenuItem } from "./export-menu";
import { ExportWatcher } from "./export-progress-dialog";
import { useRememberedExports } from "./export-session";
import { GithubExportModal } from "./github-export-modal";
import { JiraExportModal } from "./jira-export-modal";
import { TrelloExportModal } from "./trello-export-modal";
import { useExportAvailability } from "./use-export-availability";

export const DOWNLOAD_FAILED = "Failed to export the task tree";

const WRITERS: Record<ExportFormat, (tree: TaskTreeNode) => string> = {
  json: treeToJson,
  md: treeToMarkdown,
  csv: treeToCsv,
};

/** Browser downloads of the task's tree (JSON, Markdown, CSV). */
function useDownload(task: Task) {
  const treeOptions = useTreeQueryOptions();
  const queryClient = useQueryClient();
  const toast = useToast();
  const loading = useLoading();
  const [busy, setBusy] = useState(false);
  const download = async (format: ExportFormat) => {
    setBusy(true);
    try {
      // The screen has the tree already (kept current by live updates); fetch it only when it has not.
      const options = treeOptions(task.id);
      const tree =
        queryClient.getQueryData(options.queryKey) ??
        (await loading.track("exportJson", () => queryClient.fetchQuery(options), "Preparing export..."));
      downloadText(exportFileName(task.description, format), WRITERS[format](tree), EXPORT_MIME[format]);
    } catch (err) {
      console.warn("[atomize] export download failed", err);
      toast.error(DOWNLOAD_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return { download, busy };
}

/**
 * The task card's Export menu with its modals (Configure JIRA Export, Export to Trello, Export to
 * GitHub Issues) and a progress dialog per started export. Started exports are remembered for the
 * browser session, so a reload shows a pill that reopens their dialog.
 */
export function TaskExports({ task }: { task: Task }) {
  const availability = useExportAvailability({ isRoot: !task.parent_id });
  const { download, busy } = useDownload(task);
  const remembered = useRememberedExports(task.id);
  const [modal, setModal] = useState<ExportKind | null>(null);
  const [openDialog, setOpenDialog] = useState<string | null>(null);

  const started = (kind: ExportKind) => (exportId: string) => {
    remembered.remember({ id: exportId, kind });
    setModal(null);
    setOpenDialog(exportId);
  };

  const items: ExportMenuItem[] = [
    { id: "json", label: "Export as JSON", onSelect: () => void download("json") },
    { id: "md", label: "Export as Markdown", onSelect: () => void download("md") },
    { id: "csv", label: "Export as CSV", onSelect: () => void download("csv") },
    {
      id: "jira",
      label: "Export to JIRA",
      separated: true,
      disabledReason: availability.jira.reason,
      onSelect: () => setModal("jira"),
    },
    {
      id: "trello",
      label: "Export to Trello",
      disabledReason: availability.trello.reason,
      onSelect: () => setModal("trello"),
    },
    {
      id: "github",
      label: "Export to GitHub Issues",
      disabledReason: availability.github.reason,
      onSelect: () => setModal("github"),
    },
  ];

  return (
    <>
      <ExportMenu items={items} busy={busy} />
      {remembered.list.map((entry) => (
        <ExportWatcher
          key={entry.id}
          id={entry.id}
          kind={entry.kind}
          notified={entry.notified === true}
          open={openDialog === entry.id}
          onOpenChange={(open) => setOpenDialog(open ? entry.id : null)}
          onNotified={(n) => remembered.setNotified(entry.id, n)}
          onForget={() => {
            remembered.forget(entry.id);
            if (openDialog === entry.id) setOpenDialog(null);
          }}
        />
      ))}
      <JiraExportModal
        open={modal === "jira"}
        onClose={() => setModal(null)}
        task={task}
        jira={availability.status?.jira}
        onStarted={started("jira")}
      />
      <TrelloExportModal
        open={modal === "trello"}
        onClose={() => setModal(null)}
        task={task}
        credentialsAvailable={Boolean(availability.status?.trello.connected)}
        onStarted={started("trello")}
      />
      <GithubExportModal
        open={modal === "github"}
        onClose={() => setModal(null)}
        task={task}
        onStarted={started("github")}
      />
    </>
  );
}
