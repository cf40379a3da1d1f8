import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { defaultExportName } from "../../../shared/export-formats";
import type { IntegrationStatus } from "../../../shared/schemas/integrations";
import type { Task } from "../../../shared/schemas/tasks";
import { TextField } from "../../components/form-controls";
import { useToast } from "../../components/toast";
import { errorDetailOf, fieldErrorsOf, getErrorMessage } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";
import { ExportFormModal } from "./export-form-modal";
import { failureToast } from "./export-state";
import {
  DEFAULT_JIRA_KEY,
  type JiraExportForm,
  type JiraField,
  projectKeyHint,
  sanitizeProjectKey,
  validateJiraExport,
} from "./export-validation";

const FIELD_IDS: Record<JiraField, string> = {
  projectName: "jira-export-project-name",
  projectKey: "jira-export-project-key",
  jiraUrl: "jira-export-url",
  userEmail: "jira-export-email",
  apiToken: "jira-export-api-token",
  accountId: "jira-export-account-id",
};

const SERVER_FIELDS: Record<string, JiraField> = {
  project_name: "projectName",
  project_key: "projectKey",
  jira_url: "jiraUrl",
  user_email: "userEmail",
  api_token: "apiToken",
  account_id: "accountId",
};

function initialForm(task: Task, jira: IntegrationStatus["jira"] | undefined): JiraExportForm {
  return {
    projectName: defaultExportName(task.description),
    projectKey: DEFAULT_JIRA_KEY,
    jiraUrl: jira?.jira_url ?? "",
    userEmail: jira?.user_email ?? "",
    apiToken: "",
    accountId: jira?.account_id ?? "",
  };
}

/** Configure JIRA Export: project name and key plus the connection (stored values prefilled). */
export function JiraExportModal({
  open,
  onClose,
  task,
  jira,
  onStarted,
}: {
  open: boolean;
  onClose: () => void;
  task: Task;
  jira: IntegrationStatus["jira"] | undefined;
  onStarted: (exportId: string) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const start = useMutation(trpc.exports.startJira.mutationOptions({ retry: false }));
  const [form, setForm] = useState<JiraExportForm>(() => initialForm(task, jira));
  const [error, setError] = useState<{ field: JiraField; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const tokenStored = Boolean(jira?.connected);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!open) return;
    setForm(initialForm(task, jira));
    setError(null);
  }, [open]);

  const set = (field: JiraField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (error?.field === field) setError(null);
  };
  const fail = (field: JiraField, message: string) => {
    setError({ field, message });
    formRef.current?.querySelector<HTMLInputElement>(`#${FIELD_IDS[field]}`)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    const problem = validateJiraExport(form, { tokenStored });
    if (problem) {
      fail(problem.field, problem.message);
      return;
    }
    setError(null);
    try {
      const token = form.apiToken.trim();
      const { export_id } = await start.mutateAsync({
        task_id: task.id,
        config: {
          project_name: form.projectName.trim(),
          project_key: form.projectKey.trim(),
          jira_url: form.jiraUrl.trim(),
          user_email: form.userEmail.trim(),
          account_id: form.accountId.trim(),
          ...(token ? { api_token: token } : {}),
        },
      });
      onStarted(export_id);
    } catch (err) {
      const fieldError = fieldErrorsOf(err)
        .map((e) => ({ field: SERVER_FIELDS[e.field.split(".").pop() ?? ""], message: e.message }))
        .find((e): e is { field: JiraField; message: string } => Boolean(e.field));
      if (fieldError) fail(fieldError.field, fieldError.message);
      toast.error(failureToast("jira", errorDetailOf(err) ?? getErrorMessage(err)));
    }
  };

  const keyHint = projectKeyHint(form.projectKey);
  const errorFor = (field: JiraField) => (error?.field === field ? error.message : null);

  return (
    <ExportFormModal
      open={open}
      onClose={onClose}
      title="Configure JIRA Export"
      formId="jira-export-form"
      submitLabel="Export to JIRA"
      pending={start.isPending}
      onSubmit={onSubmit}
      size="lg"
      formRef={formRef}
    >
      <p className="text-sm text-base-content/70">
        Creates a JIRA project with epics, stories and sub-tasks from this task tree, plus Confluence pages
        for the tech stack, best practices and standards.
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        <TextField
          id={FIELD_IDS.projectName}
          label="Project Name"
          value={form.projectName}
          maxLength={80}
          autoFocus
          error={errorFor("projectName")}
          onChange={(e) => set("projectName", e.target.value)}
        />
        <TextField
          id={FIELD_IDS.projectKey}
          label="Project Key"
          value={form.projectKey}
          autoComplete="off"
          spellCheck={false}
          inputClassName="font-mono"
          error={errorFor("projectKey")}
          hint={
            keyHint ? (
              <span className="text-warning">{keyHint}</span>
            ) : (
              "2-10 uppercase letters and numbers, e.g. PROJ or TEST123."
            )
          }
          onChange={(e) => set("projectKey", sanitizeProjectKey(e.target.value))}
        />
      </div>

      <fieldset className="flex flex-col gap-3 rounded-box border border-base-300 p-3">
        <legend className="px-1 text-sm font-medium">JIRA connection</legend>
        {tokenStored && (
          <p className="text-xs text-base-content/60">
            Prefilled from your stored connection. Leave the API token empty to use the stored one.
          </p>
        )}
        <div className="grid gap-3 md:grid-cols-2">
          <TextField
            id={FIELD_IDS.jiraUrl}
            label="JIRA URL"
            type="url"
            inputMode="url"
            spellCheck={false}
            placeholder="https://your-team.atlassian.net"
            value={form.jiraUrl}
            error={errorFor("jiraUrl")}
            onChange={(e) => set("jiraUrl", e.target.value)}
          />
          <TextField
            id={FIELD_IDS.userEmail}
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={form.userEmail}
            error={errorFor("userEmail")}
            onChange={(e) => set("userEmail", e.target.value)}
          />
          <TextField
            id={FIELD_IDS.apiToken}
            label="API Token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={tokenStored ? "•••••••• (stored)" : "Your Atlassian API token"}
            value={form.apiToken}
            error={errorFor("apiToken")}
            onChange={(e) => set("apiToken", e.target.value)}
          />
          <TextField
            id={FIELD_IDS.accountId}
            label="Account ID"
            autoComplete="off"
            spellCheck={false}
            placeholder="5b10ac8d82e05b22cc7d4ef5"
            value={form.accountId}
            error={errorFor("accountId")}
            hint="Usually starts with 5 and is 24 characters long."
            onChange={(e) => set("accountId", e.target.value)}
          />
        </div>
      </fieldset>
    </ExportFormModal>
  );
}
