import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link } from "wouter";
import { defaultExportName } from "../../../shared/export-formats";
import { TRELLO_BOARD_NAME_MAX } from "../../../shared/schemas/integrations";
import type { Task } from "../../../shared/schemas/tasks";
import { TextField } from "../../components/form-controls";
import { useToast } from "../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";
import { ExportFormModal } from "./export-form-modal";
import { failureToast } from "./export-state";
import { fitBoardName, TRELLO_MESSAGES, validateTrelloExport } from "./export-validation";

/** Export to Trello: a board name (default 'Atomize ' + the first line, at most 30). */
export function TrelloExportModal({
  open,
  onClose,
  task,
  credentialsAvailable,
  onStarted,
}: {
  open: boolean;
  onClose: () => void;
  task: Task;
  /** Key and token are stored on the server. */
  credentialsAvailable: boolean;
  onStarted: (exportId: string) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const start = useMutation(trpc.exports.startTrello.mutationOptions({ retry: false }));
  const [boardName, setBoardName] = useState(() => fitBoardName(defaultExportName(task.description)));
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!open) return;
    setBoardName(fitBoardName(defaultExportName(task.description)));
    setError(null);
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    const problem = validateTrelloExport(boardName, { credentialsAvailable });
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    try {
      const { export_id } = await start.mutateAsync({
        task_id: task.id,
        config: { board_name: boardName.trim() },
      });
      onStarted(export_id);
    } catch (err) {
      const message = errorDetailOf(err) ?? getErrorMessage(err);
      if (message === TRELLO_MESSAGES.credentials) setError(message);
      toast.error(failureToast("trello", message));
    }
  };

  const credentialsMissing = error === TRELLO_MESSAGES.credentials;

  return (
    <ExportFormModal
      open={open}
      onClose={onClose}
      title="Export to Trello"
      formId="trello-export-form"
      submitLabel="Export to Trello"
      pending={start.isPending}
      onSubmit={onSubmit}
    >
      <p className="text-sm text-base-content/70">
        Creates a Trello board with the lists To Do, In Progress and Done, a card per task, labels and
        checklists.
      </p>
      {credentialsMissing ? (
        <div role="alert" className="alert alert-warning alert-soft flex flex-wrap text-sm">
          <span>{TRELLO_MESSAGES.credentials}</span>
          <Link href="/settings?tab=integrations" className="link">
            Open Settings
          </Link>
        </div>
      ) : null}
      <TextField
        id="trello-export-board-name"
        label="Board name"
        value={boardName}
        maxLength={TRELLO_BOARD_NAME_MAX}
        autoFocus
        error={credentialsMissing ? null : error}
        hint={`At most ${TRELLO_BOARD_NAME_MAX} characters (${Array.from(boardName).length}/${TRELLO_BOARD_NAME_MAX}).`}
        onChange={(e) => {
          setBoardName(e.target.value);
          if (error && !credentialsMissing) setError(null);
        }}
      />
    </ExportFormModal>
  );
}
