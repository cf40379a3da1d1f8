import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { githubExportConfig } from "../../../../shared/schemas/integrations";
import type { Task } from "../../../../shared/schemas/tasks";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../../lib/api-error";
import { schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";
import { ExportPreviewLine } from "./export-preview-line";
import { type ExportModalProps, failureToast } from "./export-state";
import { repositoryFromUrl } from "./export-validation";

/** githubExportConfig's one field (a path under `config` in the server's 422). */
const FIELDS = { repository: "repository" } as const;

function defaultRepository(task: Task): string {
  const repo = task.tech_preferences?.github_repo;
  return repositoryFromUrl(typeof repo === "string" ? repo : null);
}

/** Export to GitHub Issues: the repository (owner/name), by default the task's own repository. */
export function GithubExportModal({ open, onClose, task, onStarted }: ExportModalProps) {
  const trpc = useTRPC();
  const toast = useToast();
  const start = useMutation(trpc.exports.startGithub.mutationOptions({ retry: false }));
  const [repository, setRepository] = useState(() => defaultRepository(task));
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!open) return;
    setRepository(defaultRepository(task));
    setError(null);
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    // A pasted URL is read as owner/name.
    const config = { repository: repositoryFromUrl(repository) || repository.trim() };
    const found = schemaFieldErrors(githubExportConfig, config, FIELDS).repository;
    setError(found ?? null);
    if (found) return;
    try {
      const { export_id } = await start.mutateAsync({ task_id: task.id, config });
      onStarted(export_id);
    } catch (err) {
      const message = errorDetailOf(err) ?? getErrorMessage(err);
      setError(serverFieldErrors(err, FIELDS, "config").repository ?? message);
      toast.error(failureToast("github", message));
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Export to GitHub Issues"
      formId="github-export-form"
      formClassName="flex flex-col gap-4"
      submitLabel={start.isPending ? "Starting..." : "Export to GitHub"}
      pending={start.isPending}
      onSubmit={onSubmit}
    >
      <p className="text-sm text-base-content/70">
        Creates an issue per task in the repository, labelled and linked to its parent issue.
      </p>
      <Field
        id="github-export-repository"
        label="Repository"
        required
        value={repository}
        autoFocus
        spellCheck={false}
        autoComplete="off"
        placeholder="owner/name"
        error={error}
        hint="The repository as owner/name, e.g. acme/website. Your GitHub token needs access to it."
        onChange={(e) => {
          setRepository(e.target.value);
          if (error) setError(null);
        }}
      />
      <ExportPreviewLine
        taskId={task.id}
        kind="github"
        repository={repositoryFromUrl(repository) || repository.trim()}
      />
    </FormModal>
  );
}
