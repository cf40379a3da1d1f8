import { useState } from "react";
import { useSearchParams } from "wouter";
import { ConfirmModal } from "../../components/confirm-modal";
import { EmailVerificationNotice } from "../../components/email-verification-notice";
import { TabList, tabPanelProps } from "../../components/tabs";
import { ToggleRow } from "../../components/toggle-row";
import { useLogout } from "../../components/use-logout";
import { usePageMeta } from "../../components/use-page-meta";
import { useAuth } from "../../lib/auth";
import { withParam } from "../../lib/search-params";
import { AiModelTab } from "./ai-model-tab";
import { ApiTokensTab } from "./api-tokens-tab";
import { IntegrationsTab } from "./integrations-tab";
import { TeamsTab } from "./teams-tab";
import { type SettingsApi, useSettings } from "./use-settings";

const TABS = [
  { id: "general", label: "General" },
  { id: "integrations", label: "Integrations" },
  { id: "ai-model", label: "AI model" },
  { id: "api-tokens", label: "API tokens" },
  { id: "teams", label: "Teams" },
  { id: "account", label: "Account" },
] as const;
type TabId = (typeof TABS)[number]["id"];
const isTabId = (v: string | null): v is TabId => TABS.some((t) => t.id === v);

function GeneralTab({ api }: { api: SettingsApi }) {
  return (
    <section aria-labelledby="general-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-5 p-4 sm:p-6">
        <h2 id="general-title" className="card-title text-lg">
          Preferences
        </h2>
        <ToggleRow
          id="setting-dark-mode"
          label="Dark mode"
          description="Use the dark theme. Applies at once."
          checked={api.darkMode}
          onChange={api.setDarkMode}
        />
        <ToggleRow
          id="setting-notifications"
          label="Email notifications"
          description="Receive e-mails about your tasks and decompositions."
          checked={api.notifications}
          onChange={api.setNotifications}
        />
        <ToggleRow
          id="setting-review-reading"
          label="Check what was read before planning"
          description="A new project shows the kind of work and the requirements read from its description, for you to correct before it is planned."
          checked={api.reviewReading}
          onChange={api.setReviewReading}
        />
      </div>
    </section>
  );
}

function AccountTab() {
  const { user } = useAuth();
  const logout = useLogout();
  const [confirming, setConfirming] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    try {
      await logout();
    } finally {
      setSigningOut(false);
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="account-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h2 id="account-title" className="card-title text-lg">
          Account
        </h2>
        <dl className="grid gap-3 sm:grid-cols-[10rem_1fr]">
          <dt className="text-sm text-base-content/60">Name</dt>
          <dd className="break-words font-medium" data-testid="account-name">
            {user?.full_name.trim() || "Not set"}
          </dd>
          <dt className="text-sm text-base-content/60">Email</dt>
          <dd className="break-all font-medium" data-testid="account-email">
            {user?.email}
          </dd>
        </dl>
        <EmailVerificationNotice />
        <div>
          <button type="button" className="btn btn-outline btn-error" onClick={() => setConfirming(true)}>
            Sign Out
          </button>
        </div>
      </div>
      <ConfirmModal
        open={confirming}
        title="Sign Out"
        message="Are you sure you want to sign out?"
        confirmLabel="Sign Out"
        pending={signingOut}
        onConfirm={() => void signOut()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}

/**
 * Settings: General, Integrations and Account tabs with Save Settings at the bottom, and the AI
 * model tab (issue 10), whose forms save on their own.
 */
export default function SettingsPage() {
  usePageMeta({ title: "Settings", path: "/settings", noIndex: true });
  const api = useSettings();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: TabId = isTabId(requested) ? requested : "general";
  const select = (id: TabId) =>
    setParams((prev) => withParam(prev, "tab", id === "general" ? null : id), { replace: true });

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-5 px-4 py-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Settings</h1>
      <TabList tabs={TABS} selected={tab} onSelect={select} idPrefix="settings" label="Settings sections" />

      <div {...tabPanelProps("settings", "general", tab)}>
        {tab === "general" && <GeneralTab api={api} />}
      </div>
      <div {...tabPanelProps("settings", "integrations", tab)}>
        {tab === "integrations" && <IntegrationsTab api={api} />}
      </div>
      <div {...tabPanelProps("settings", "ai-model", tab)}>{tab === "ai-model" && <AiModelTab />}</div>
      <div {...tabPanelProps("settings", "api-tokens", tab)}>{tab === "api-tokens" && <ApiTokensTab />}</div>
      <div {...tabPanelProps("settings", "teams", tab)}>{tab === "teams" && <TeamsTab />}</div>
      <div {...tabPanelProps("settings", "account", tab)}>{tab === "account" && <AccountTab />}</div>

      {/* The AI model and API tokens tabs save with their own buttons. */}
      <div
        className={`flex justify-end border-t border-base-300 pt-4 ${tab === "ai-model" || tab === "api-tokens" ? "hidden" : ""}`}
      >
        <button
          type="button"
          className="btn btn-primary w-full sm:w-auto"
          onClick={() =>
            void api.save().then((ok) => {
              // A credential field that needs attention is on the Integrations tab.
              if (!ok) select("integrations");
            })
          }
          disabled={api.saving || api.form === null}
        >
          {api.saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {api.saving ? "Saving..." : "Save Settings"}
        </button>
      </div>
    </div>
  );
}
