import { useQuery } from "@tanstack/react-query";
import type { ExportKind } from "../../../../shared/schemas/integrations";
import { useAuth } from "../../../lib/auth";
import { useTRPC } from "../../../lib/trpc";
import { integrationEnabled, useLocalSettings } from "../../../lib/user-settings";

export type Availability = { available: boolean; reason: string | null };

/** The disabled items' tooltip. */
export const ENABLE_IN_SETTINGS: Record<ExportKind, string> = {
  jira: "Enable JIRA in Settings to export",
  trello: "Enable Trello in Settings to export",
  github: "Connect GitHub in Settings to export",
};
export const ROOT_ONLY_REASON = "Open the root task to export the whole tree";

/**
 * Which services the task can go to: JIRA and Trello when enabled in Settings AND credentials are
 * stored; GitHub when connected. A subtask screen cannot export to a service (the server exports
 * whole trees only).
 */
export function useExportAvailability({ isRoot }: { isRoot: boolean }) {
  const trpc = useTRPC();
  const { isAuthenticated } = useAuth();
  const local = useLocalSettings();
  const status = useQuery(trpc.integrations.status.queryOptions(undefined, { enabled: isAuthenticated }));
  const github = useQuery(
    trpc.github.status.queryOptions(undefined, { enabled: isAuthenticated, retry: false }),
  );
  const trelloConnected = Boolean(status.data?.trello.connected);
  const jiraConnected = Boolean(status.data?.jira.connected);
  const githubConnected = Boolean(github.data?.connected) && !github.isError;

  const of = (kind: ExportKind, ok: boolean): Availability =>
    !ok
      ? { available: false, reason: ENABLE_IN_SETTINGS[kind] }
      : !isRoot
        ? { available: false, reason: ROOT_ONLY_REASON }
        : { available: true, reason: null };

  return {
    status: status.data,
    jira: of("jira", jiraConnected && integrationEnabled(local.jiraIntegration, jiraConnected)),
    trello: of("trello", trelloConnected && integrationEnabled(local.trelloIntegration, trelloConnected)),
    github: of("github", githubConnected),
  };
}
