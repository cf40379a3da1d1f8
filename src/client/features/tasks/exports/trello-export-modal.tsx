import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link } from "wouter";
import { defaultExportName } from "../../../../shared/export-formats";
import {
  TRELLO_BOARD_NAME_MAX,
  TRELLO_CREDENTIALS_REQUIRED,
  trelloExportConfig,
} from "../../../../shared/schemas/integrations";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../../lib/api-error";
import { schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";
import { ExportPreviewLine } from "./export-preview-line";
import { type ExportModalProps, failureToast } from "./export-state";
import { fitBoardName } from "./export-validation";

/** trelloExportConfig's one field (a path under `config` in the server's 422). */
const FIELDS = { board_name: "boardName" } as const;

/**
 * Export to Trello: a board name (default 'Atomize ' + the first line), checked with trelloExportConfig;
 * the key and token must be stored first.
 */
export function TrelloExportModal({
  open,
  onClose,
  task,
  credentialsAvailable,
  onStarted,
}: ExportModalProps & {
  /** Key and token are stored on the server. */
  credentialsAvailable: boolean;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const start = useMutation(trpc.exports.startTrello.mutationOptions({ retry: false }));
  const [boardName, setBoardName] = useState(() => fitBoardName(defaultExportName(task.description)));
  const [error, setError] = useState<string | null>(null);
  const [credentialsMissing, setCredentialsMissing] = useState(false);
  const [boardId, setBoardId] = useState("");
  const boards = useQuery({
    ...trpc.integrations.trelloBoards.queryOptions(),
    enabled: open && credentialsAvailable,
    retry: false,
    staleTime: 60_000,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!open) return;
    setBoardName(fitBoardName(defaultExportName(task.description)));
    setError(null);
    setCredentialsMissing(false);
    setBoardId("");
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    const config = { board_name: boardName.trim(), ...(boardId ? { board_id: boardId } : {}) };
    const found = schemaFieldErrors(trelloExportConfig, config, FIELDS).boardName;
    setError(found ?? null);
    setCredentialsMissing(!found && !credentialsAvailable);
    if (found || !credentialsAvailable) return;
    try {
      const { export_id } = await start.mutateAsync({ task_id: task.id, config });
      onStarted(export_id);
    } catch (err) {
      const message = errorDetailOf(err) ?? getErrorMessage(err);
      setError(serverFieldErrors(err, FIELDS, "config").boardName ?? null);
      setCredentialsMissing(message === TRELLO_CREDENTIALS_REQUIRED);
      toast.error(failureToast("trello", message));
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Export to Trello"
      formId="trello-export-form"
      formClassName="flex flex-col gap-4"
      submitLabel={start.isPending ? "Starting..." : "Export to Trello"}
      pending={start.isPending}
      onSubmit={onSubmit}
    >
      <p className="text-sm text-base-content/70">
        Creates a Trello board with the lists To Do, In Progress and Done, a card per task, labels and
        checklists.
      </p>
      {credentialsMissing ? (
        <div role="alert" className="alert alert-warning alert-soft flex flex-wrap text-sm">
          <span>{TRELLO_CREDENTIALS_REQUIRED}</span>
          <Link href="/settings?tab=integrations" className="link">
            Open Settings
          </Link>
        </div>
      ) : null}
      {credentialsAvailable && (boards.data?.boards.length ?? 0) > 0 && (
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="trello-export-board" className="font-medium">
            Board
          </label>
          <select
            id="trello-export-board"
            className="select select-bordered select-sm w-full"
            value={boardId}
            onChange={(e) => {
              setBoardId(e.target.value);
              const picked = boards.data?.boards.find((b) => b.id === e.target.value);
              if (picked) setBoardName(fitBoardName(picked.name));
            }}
          >
            <option value="">A new board</option>
            {boards.data?.boards.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {boardId && <ExportPreviewLine taskId={task.id} kind="trello" boardId={boardId} />}
      <Field
        id="trello-export-board-name"
        label="Board name"
        required
        value={boardName}
        maxLength={TRELLO_BOARD_NAME_MAX}
        autoFocus
        error={error}
        hint={`At most ${TRELLO_BOARD_NAME_MAX} characters (${boardName.length}/${TRELLO_BOARD_NAME_MAX}).`}
        onChange={(e) => {
          setBoardName(e.target.value);
          setError(null);
        }}
      />
    </FormModal>
  );
}
