import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { defaultExportName } from "../../../../shared/export-formats";
import type { IntegrationStatus } from "../../../../shared/schemas/integrations";
import { JIRA_PROJECT_NAME_MAX } from "../../../../shared/schemas/integrations";
import type { Task } from "../../../../shared/schemas/tasks";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../../lib/api-error";
import { type FieldErrors, focusFirstError, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";
import { ExportPreviewLine } from "./export-preview-line";
import { type ExportModalProps, failureToast } from "./export-state";
import {
  DEFAULT_JIRA_KEY,
  JIRA_FIELDS,
  type JiraExportForm,
  type JiraField,
  jiraExportConfigOf,
  jiraExportErrors,
  projectKeyHint,
  sanitizeProjectKey,
} from "./export-validation";

const FIELD_IDS: Record<JiraField, string> = {
  projectName: "jira-export-project-name",
  projectKey: "jira-export-project-key",
  jiraUrl: "jira-export-url",
  userEmail: "jira-export-email",
  apiToken: "jira-export-api-token",
  accountId: "jira-export-account-id",
  confluenceSpaceKey: "jira-export-confluence-space",
};

function initialForm(task: Task, jira: IntegrationStatus["jira"] | undefined): JiraExportForm {
  return {
    projectName: defaultExportName(task.description),
    projectKey: DEFAULT_JIRA_KEY,
    jiraUrl: jira?.jira_url ?? "",
    userEmail: jira?.user_email ?? "",
    apiToken: "",
    accountId: jira?.account_id ?? "",
    existingProject: false,
    confluenceSpaceKey: "",
  };
}

/** Configure JIRA Export: project name and key plus the connection (stored values prefilled). */
export function JiraExportModal({
  open,
  onClose,
  task,
  jira,
  onStarted,
}: ExportModalProps & { jira: IntegrationStatus["jira"] | undefined }) {
  const trpc = useTRPC();
  const toast = useToast();
  const start = useMutation(trpc.exports.startJira.mutationOptions({ retry: false }));
  const [form, setForm] = useState<JiraExportForm>(() => initialForm(task, jira));
  const [errors, setErrors] = useState<FieldErrors<JiraField>>({});
  const tokenStored = Boolean(jira?.connected);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!open) return;
    setForm(initialForm(task, jira));
    setErrors({});
  }, [open]);

  // Existing projects, listed through the stored connection when the user asks for them.
  const projects = useQuery({
    ...trpc.integrations.jiraProjects.queryOptions(),
    enabled: open && form.existingProject && tokenStored,
    retry: false,
    staleTime: 60_000,
  });
  const set = (field: JiraField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };
  const fail = (next: FieldErrors<JiraField>) => {
    setErrors(next);
    return focusFirstError(next, FIELD_IDS);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    if (fail(jiraExportErrors(form, { tokenStored }))) return;
    try {
      const { export_id } = await start.mutateAsync({ task_id: task.id, config: jiraExportConfigOf(form) });
      onStarted(export_id);
    } catch (err) {
      fail(serverFieldErrors(err, JIRA_FIELDS, "config"));
      toast.error(failureToast("jira", errorDetailOf(err) ?? getErrorMessage(err)));
    }
  };

  const keyHint = projectKeyHint(form.projectKey);

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Configure JIRA Export"
      formId="jira-export-form"
      formClassName="flex flex-col gap-4"
      submitLabel={start.isPending ? "Starting..." : "Export to JIRA"}
      pending={start.isPending}
      onSubmit={onSubmit}
      size="lg"
    >
      <p className="text-sm text-base-content/70">
        Creates epics, stories and sub-tasks from this task tree in a new or an existing JIRA project, plus
        Confluence pages for the tech stack, best practices and standards.
      </p>
      <fieldset className="flex flex-wrap gap-4" aria-label="JIRA project">
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="radio"
            className="radio radio-sm"
            name="jira-project-mode"
            checked={!form.existingProject}
            onChange={() => setForm((f) => ({ ...f, existingProject: false }))}
          />
          Create a new project (needs JIRA admin rights)
        </label>
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="radio"
            className="radio radio-sm"
            name="jira-project-mode"
            checked={form.existingProject}
            onChange={() => setForm((f) => ({ ...f, existingProject: true }))}
          />
          Use an existing project
        </label>
      </fieldset>
      {form.existingProject && tokenStored && (
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="jira-export-existing" className="font-medium">
            Your projects
          </label>
          {projects.isPending ? (
            <span className="text-base-content/60">Loading your JIRA projects...</span>
          ) : projects.isError ? (
            <span role="alert" className="text-error">
              {errorDetailOf(projects.error) ?? "Your JIRA projects could not be listed."} Type the key
              instead.
            </span>
          ) : (
            <select
              id="jira-export-existing"
              className="select select-bordered select-sm w-full"
              value={form.projectKey}
              onChange={(e) => {
                const picked = projects.data.projects.find((p) => p.key === e.target.value);
                if (picked) setForm((f) => ({ ...f, projectKey: picked.key, projectName: picked.name }));
              }}
            >
              <option value="">Choose a project</option>
              {projects.data.projects.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.key}: {p.name}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        <Field
          id={FIELD_IDS.projectName}
          label="Project Name"
          required
          value={form.projectName}
          maxLength={JIRA_PROJECT_NAME_MAX}
          autoFocus
          error={errors.projectName}
          onChange={(e) => set("projectName", e.target.value)}
        />
        <Field
          id={FIELD_IDS.projectKey}
          label="Project Key"
          required
          value={form.projectKey}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          error={errors.projectKey}
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

      <ExportPreviewLine
        taskId={task.id}
        kind="jira"
        projectKey={form.projectKey}
        jiraUrl={form.jiraUrl.trim()}
      />
      <Field
        id={FIELD_IDS.confluenceSpaceKey}
        label="Confluence space key (optional)"
        value={form.confluenceSpaceKey}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        error={errors.confluenceSpaceKey}
        hint="Where the pages go; by default a space with the project key, created if it does not exist."
        onChange={(e) => set("confluenceSpaceKey", e.target.value.replace(/[^A-Za-z0-9]/g, ""))}
      />

      <fieldset className="flex flex-col gap-3 rounded-box border border-base-300 p-3">
        <legend className="px-1 text-sm font-medium">JIRA connection</legend>
        {tokenStored && (
          <p className="text-xs text-base-content/60">
            Prefilled from your stored connection. Leave the API token empty to use the stored one.
          </p>
        )}
        <div className="grid gap-3 md:grid-cols-2">
          <Field
            id={FIELD_IDS.jiraUrl}
            label="JIRA URL"
            required
            type="url"
            inputMode="url"
            spellCheck={false}
            placeholder="https://your-team.atlassian.net"
            value={form.jiraUrl}
            error={errors.jiraUrl}
            onChange={(e) => set("jiraUrl", e.target.value)}
          />
          <Field
            id={FIELD_IDS.userEmail}
            label="Email"
            required
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={form.userEmail}
            error={errors.userEmail}
            onChange={(e) => set("userEmail", e.target.value)}
          />
          <Field
            id={FIELD_IDS.apiToken}
            label="API Token"
            required={!tokenStored}
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={tokenStored ? "•••••••• (stored)" : "Your Atlassian API token"}
            value={form.apiToken}
            error={errors.apiToken}
            onChange={(e) => set("apiToken", e.target.value)}
          />
          <Field
            id={FIELD_IDS.accountId}
            label="Account ID"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="5b10ac8d82e05b22cc7d4ef5"
            value={form.accountId}
            error={errors.accountId}
            hint="Usually starts with 5 and is 24 characters long."
            onChange={(e) => set("accountId", e.target.value)}
          />
        </div>
      </fieldset>
    </FormModal>
  );
}
