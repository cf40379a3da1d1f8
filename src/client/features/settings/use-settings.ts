import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { GeneralSettings, IntegrationStatus } from "../../../shared/schemas/integrations";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { focusFirstError, hasErrors, serverFieldErrors } from "../../lib/field-errors";
import { setTheme, useTheme } from "../../lib/theme";
import { useTRPC } from "../../lib/trpc";
import {
  integrationEnabled,
  readLocalSettings,
  useGeneralSettings,
  writeLocalSettings,
} from "../../lib/user-settings";
import {
  credentialErrors,
  credentialsToSend,
  type IntegrationErrors,
  type IntegrationsForm,
  JIRA_FIELD_IDS,
  JIRA_FIELDS,
  NO_INTEGRATION_ERRORS,
  TRELLO_FIELD_IDS,
  TRELLO_FIELDS,
} from "./settings-form";

/** The settings messages. */
export const SETTINGS_SAVED = "Settings saved successfully!";
export const SETTINGS_SAVE_FAILED = "Failed to save settings. Please try again.";

function initialForm(local: ReturnType<typeof readLocalSettings>, status: IntegrationStatus | undefined) {
  return {
    trello: {
      enabled: integrationEnabled(local.trelloIntegration, Boolean(status?.trello.connected)),
      apiKey: "",
      token: "",
    },
    jira: {
      enabled: integrationEnabled(local.jiraIntegration, Boolean(status?.jira.connected)),
      // Not secrets: shown so a changed token can be saved without retyping them.
      jiraUrl: status?.jira.jira_url ?? "",
      userEmail: status?.jira.user_email ?? "",
      apiToken: "",
      accountId: status?.jira.account_id ?? "",
    },
  } satisfies IntegrationsForm;
}

/** Toasts a failed save: the fixed sentence, plus the server's detail when it gave one. */
function toastSaveFailure(toast: ReturnType<typeof useToast>, err: unknown) {
  const detail = errorDetailOf(err);
  if (detail) toast.error(detail, { title: SETTINGS_SAVE_FAILED });
  else toast.error(SETTINGS_SAVE_FAILED);
}

/** Settings: general toggles that apply at once, integration fields that apply on Save. */
export function useSettings() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id ?? "";
  const theme = useTheme();
  const { settings } = useGeneralSettings();
  const status = useQuery(trpc.integrations.status.queryOptions());
  const statusKey = trpc.integrations.status.queryKey();
  const settingsKey = trpc.settings.get.queryKey();

  const [form, setForm] = useState<IntegrationsForm | null>(null);
  const [errors, setErrors] = useState<IntegrationErrors>(NO_INTEGRATION_ERRORS);
  const statusSettled = status.isSuccess || status.isError;
  // Once the stored connections are known (a failed status check counts as none).
  useEffect(() => {
    if (form === null && statusSettled) setForm(initialForm(readLocalSettings(userId), status.data));
  }, [form, statusSettled, status.data, userId]);

  const update = useMutation(trpc.settings.update.mutationOptions({ retry: false }));
  const saveTrello = useMutation(trpc.integrations.saveTrello.mutationOptions({ retry: false }));
  const saveJira = useMutation(trpc.integrations.saveJira.mutationOptions({ retry: false }));
  const remove = useMutation(trpc.integrations.remove.mutationOptions({ retry: false }));
  const [saving, setSaving] = useState(false);

  const applyGeneral = useCallback(
    (patch: Partial<GeneralSettings>) => {
      queryClient.setQueryData<GeneralSettings>(settingsKey, (old) => ({ ...(old ?? settings), ...patch }));
      if (userId) writeLocalSettings(userId, patch);
      update.mutate(patch, {
        onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
        onError: (err) => toastSaveFailure(toast, err),
      });
    },
    [queryClient, settingsKey, settings, userId, update, toast],
  );

  /** Applies at once, with its toast. */
  const setDarkMode = (on: boolean) => {
    setTheme(on ? "dark" : "light");
    toast.success(on ? "Dark mode enabled" : "Light mode enabled");
    applyGeneral({ darkMode: on });
  };
  const setNotifications = (on: boolean) => {
    toast.success(on ? "Email notifications enabled" : "Email notifications disabled");
    applyGeneral({ notifications: on });
  };
  const setReviewReading = (on: boolean) => {
    toast.success(on ? "New projects wait for your check" : "New projects are planned at once");
    applyGeneral({ reviewReading: on });
  };

  /** Shows the credentials' field errors; whether there were any. */
  const showErrors = (next: IntegrationErrors): boolean => {
    setErrors(next);
    if (!focusFirstError(next.trello, TRELLO_FIELD_IDS)) focusFirstError(next.jira, JIRA_FIELD_IDS);
    return hasErrors(next.trello) || hasErrors(next.jira);
  };

  /** Integration fields: the new values, and the edited fields' errors gone. */
  const editIntegration = <K extends keyof IntegrationsForm>(
    kind: K,
    values: Partial<IntegrationsForm[K]>,
  ) => {
    setForm((f) => (f ? { ...f, [kind]: { ...f[kind], ...values } } : f));
    setErrors((e) => {
      const left = { ...e[kind] };
      for (const field of Object.keys(values)) delete left[field as keyof typeof left];
      return { ...e, [kind]: left };
    });
  };

  /** Saves; false when a credential field needs attention (its error shows on the Integrations tab). */
  const save = async (): Promise<boolean> => {
    if (!form || saving) return true;
    const plan = credentialsToSend(form);
    if (showErrors(credentialErrors(plan))) return false;
    setSaving(true);
    // Which credentials a failure belongs to, so the server's field errors land on that card.
    let sending: "trello" | "jira" | null = null;
    try {
      if (plan.trello) {
        sending = "trello";
        const trello = await saveTrello.mutateAsync(plan.trello);
        queryClient.setQueryData<IntegrationStatus>(statusKey, (old) => (old ? { ...old, trello } : old));
      }
      if (plan.jira) {
        sending = "jira";
        const jira = await saveJira.mutateAsync(plan.jira);
        queryClient.setQueryData<IntegrationStatus>(statusKey, (old) => (old ? { ...old, jira } : old));
      }
      sending = null;
      if (userId) {
        writeLocalSettings(userId, {
          trelloIntegration: { enabled: form.trello.enabled },
          jiraIntegration: { enabled: form.jira.enabled },
        });
      }
      const general = { darkMode: theme === "dark", notifications: settings.notifications };
      const saved = await update.mutateAsync(general);
      queryClient.setQueryData(settingsKey, saved);
      if (userId) writeLocalSettings(userId, saved);
      // Typed secrets are not kept around once the server has them.
      setForm((f) =>
        f
          ? {
              trello: { ...f.trello, apiKey: "", token: "" },
              jira: { ...f.jira, apiToken: plan.jira ? "" : f.jira.apiToken },
            }
          : f,
      );
      toast.success(SETTINGS_SAVED);
      return true;
    } catch (err) {
      toastSaveFailure(toast, err);
      if (sending === null) return true;
      const fields = serverFieldErrors(err, sending === "trello" ? TRELLO_FIELDS : JIRA_FIELDS);
      return !showErrors({ ...NO_INTEGRATION_ERRORS, [sending]: fields });
    } finally {
      setSaving(false);
      void queryClient.invalidateQueries({ queryKey: statusKey });
    }
  };

  const removeCredentials = async (provider: "trello" | "jira") => {
    const label = provider === "trello" ? "Trello" : "JIRA";
    try {
      const next = await remove.mutateAsync({ provider });
      queryClient.setQueryData(statusKey, next);
      toast.success(`Stored ${label} credentials removed`);
    } catch (err) {
      toast.error(errorDetailOf(err) ?? `Failed to remove the stored ${label} credentials`);
    }
  };

  return {
    form,
    editIntegration,
    errors,
    status,
    darkMode: theme === "dark",
    notifications: settings.notifications,
    reviewReading: settings.reviewReading,
    setDarkMode,
    setNotifications,
    setReviewReading,
    save,
    saving,
    removeCredentials,
    removing: remove.isPending ? (remove.variables?.provider ?? null) : null,
  };
}

export type SettingsApi = ReturnType<typeof useSettings>;
