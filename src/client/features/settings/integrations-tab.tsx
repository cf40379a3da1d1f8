import type { ReactNode } from "react";
import { Field } from "../../components/field";
import { ToggleRow } from "../../components/toggle-row";
import { GithubCard } from "./github-card";
import { JIRA_FIELD_IDS, missingCredentialsHint, TRELLO_FIELD_IDS } from "./settings-form";
import type { SettingsApi } from "./use-settings";
import { WebhooksCard } from "./webhooks-card";

const STORED = "•••••••• (stored)";

function IntegrationCard({
  id,
  title,
  enabled,
  connected,
  children,
}: {
  id: string;
  title: string;
  enabled: boolean;
  /** Credentials are stored (and were checked when saved). */
  connected: boolean;
  children: ReactNode;
}) {
  // "Connected" only with credentials stored (issue 40: it followed the toggle alone).
  const badge = enabled && connected ? "Connected" : enabled ? "Needs credentials" : "Available";
  return (
    <section aria-labelledby={`${id}-title`} className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={`${id}-title`} className="card-title text-lg">
            {title}
          </h3>
          <span
            className={`badge ${badge === "Connected" ? "badge-success" : badge === "Needs credentials" ? "badge-warning" : "badge-ghost"}`}
            data-testid={`${id}-state`}
          >
            {badge}
          </span>
        </div>
        {children}
      </div>
    </section>
  );
}

function StoredNotice({
  provider,
  label,
  api,
}: {
  provider: "trello" | "jira";
  label: string;
  api: SettingsApi;
}) {
  const busy = api.removing === provider;
  return (
    <div className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
      <p id={`${provider}-stored-notice`}>
        {label} credentials are still stored on the server. Remove them if you no longer want Atomize to use
        them.
      </p>
      <button
        type="button"
        className="btn btn-outline btn-error btn-sm shrink-0"
        aria-describedby={`${provider}-stored-notice`}
        disabled={busy}
        onClick={() => void api.removeCredentials(provider)}
      >
        {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Remove stored credentials
      </button>
    </div>
  );
}

function Hint({ text }: { text: string | null }) {
  if (!text) return null;
  return <p className="text-sm text-warning">{text}</p>;
}

/** Integrations: GitHub card, Trello toggle and fields, JIRA toggle and fields. */
export function IntegrationsTab({ api }: { api: SettingsApi }) {
  const { form, editIntegration: patch, errors, status } = api;
  if (!form) {
    return (
      <div className="flex min-h-32 items-center justify-center">
        <span className="loading loading-spinner" role="status" aria-label="Loading integrations" />
      </div>
    );
  }
  const trello = status.data?.trello;
  const jira = status.data?.jira;
  const trelloConnected = Boolean(trello?.connected);
  const jiraConnected = Boolean(jira?.connected);

  return (
    <div className="flex flex-col gap-4">
      <GithubCard />
      <WebhooksCard />

      <IntegrationCard
        id="trello-card"
        title="Trello"
        enabled={form.trello.enabled}
        connected={trelloConnected}
      >
        <ToggleRow
          id="trello-enabled"
          label="Enable Trello integration"
          description="Export task trees to a Trello board with lists, cards, labels and checklists."
          checked={form.trello.enabled}
          onChange={(enabled) => patch("trello", { enabled })}
        />
        {form.trello.enabled ? (
          <div className="flex flex-col gap-3">
            {trelloConnected && (
              <p className="text-sm text-base-content/70">
                Credentials stored
                {trello?.username ? (
                  <>
                    {" "}
                    for <span className="font-medium">{trello.username}</span>
                  </>
                ) : null}
                . Enter a new key and token to replace them.
              </p>
            )}
            <div className="grid gap-3 md:grid-cols-2">
              <Field
                id={TRELLO_FIELD_IDS.apiKey}
                error={errors.trello.apiKey}
                label="API Key"
                autoComplete="off"
                spellCheck={false}
                value={form.trello.apiKey}
                placeholder={trello?.api_key_hint ?? "Your Trello API key"}
                onChange={(e) => patch("trello", { apiKey: e.target.value })}
                hint={
                  <>
                    From your{" "}
                    <a
                      className="link"
                      href="https://trello.com/power-ups/admin"
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      Trello Power-Up admin page
                    </a>
                    .
                  </>
                }
              />
              <Field
                id={TRELLO_FIELD_IDS.token}
                error={errors.trello.token}
                label="Token"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={form.trello.token}
                placeholder={trelloConnected ? STORED : "Your Trello token"}
                onChange={(e) => patch("trello", { token: e.target.value })}
                hint="Generated for your API key; it is stored encrypted and never shown again."
              />
            </div>
            <Hint text={missingCredentialsHint("trello", form, trelloConnected)} />
          </div>
        ) : (
          trelloConnected && <StoredNotice provider="trello" label="Trello" api={api} />
        )}
      </IntegrationCard>

      <IntegrationCard id="jira-card" title="JIRA" enabled={form.jira.enabled} connected={jiraConnected}>
        <ToggleRow
          id="jira-enabled"
          label="Enable JIRA integration"
          description="Export task trees to a JIRA project with epics, stories and sub-tasks, plus Confluence pages."
          checked={form.jira.enabled}
          onChange={(enabled) => patch("jira", { enabled })}
        />
        {form.jira.enabled ? (
          <div className="flex flex-col gap-3">
            {jiraConnected && (
              <p className="text-sm text-base-content/70">
                Connected to <span className="font-medium break-all">{jira?.jira_url}</span>. To change the
                connection, enter all four fields again, the API token included.
              </p>
            )}
            <div className="grid gap-3 md:grid-cols-2">
              <Field
                id={JIRA_FIELD_IDS.jiraUrl}
                error={errors.jira.jiraUrl}
                label="JIRA URL"
                type="url"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                value={form.jira.jiraUrl}
                placeholder="https://your-team.atlassian.net"
                onChange={(e) => patch("jira", { jiraUrl: e.target.value })}
              />
              <Field
                id={JIRA_FIELD_IDS.userEmail}
                error={errors.jira.userEmail}
                label="Email"
                type="email"
                autoComplete="email"
                value={form.jira.userEmail}
                placeholder="you@example.com"
                onChange={(e) => patch("jira", { userEmail: e.target.value })}
              />
              <Field
                id={JIRA_FIELD_IDS.apiToken}
                error={errors.jira.apiToken}
                label="API Token"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={form.jira.apiToken}
                placeholder={jiraConnected ? STORED : "Your Atlassian API token"}
                onChange={(e) => patch("jira", { apiToken: e.target.value })}
                hint={
                  <>
                    Create one at{" "}
                    <a
                      className="link"
                      href="https://id.atlassian.com/manage-profile/security/api-tokens"
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      id.atlassian.com
                    </a>
                    ; it is stored encrypted and never shown again.
                  </>
                }
              />
              <Field
                id={JIRA_FIELD_IDS.accountId}
                error={errors.jira.accountId}
                label="Account ID"
                autoComplete="off"
                spellCheck={false}
                value={form.jira.accountId}
                placeholder="5b10ac8d82e05b22cc7d4ef5"
                onChange={(e) => patch("jira", { accountId: e.target.value })}
                hint="Your Atlassian account ID usually starts with 5 and is 24 characters long."
              />
            </div>
            <Hint text={missingCredentialsHint("jira", form, jiraConnected)} />
          </div>
        ) : (
          jiraConnected && <StoredNotice provider="jira" label="JIRA" api={api} />
        )}
      </IntegrationCard>
    </div>
  );
}
