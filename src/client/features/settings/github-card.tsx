import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  GITHUB_TOKEN_SCOPES,
  type GithubStatus,
  githubConnectInput,
} from "../../../shared/schemas/integrations";
import { ConfirmModal } from "../../components/confirm-modal";
import { Field } from "../../components/field";
import { FormModal } from "../../components/modal";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { schemaFieldErrors, serverFieldErrors } from "../../lib/field-errors";
import { useTRPC } from "../../lib/trpc";

/** The GitHub connection's messages. */
export const GITHUB_CONNECT_FAILED = "Failed to connect to GitHub";
export const GITHUB_DISCONNECT_FAILED = "Failed to disconnect GitHub account";
export const GITHUB_DISCONNECTED = "GitHub account disconnected";
export const GITHUB_AUTH_REQUIRED = "Authentication Required: Please log in to connect your GitHub account";

/** githubConnectInput's one field. */
const FIELDS = { access_token: "token" } as const;

const NEW_TOKEN_URL = `https://github.com/settings/tokens/new?description=Atomize&scopes=${GITHUB_TOKEN_SCOPES.join(",")}`;

/** GitHub's status and its two actions; a failed status check counts as not connected. */
export function useGithubConnection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { isAuthenticated } = useAuth();
  const status = useQuery(
    trpc.github.status.queryOptions(undefined, { enabled: isAuthenticated, retry: false }),
  );
  const connect = useMutation(trpc.github.connect.mutationOptions({ retry: false }));
  const disconnect = useMutation(trpc.github.disconnect.mutationOptions({ retry: false }));
  const after = (next: GithubStatus) => {
    queryClient.setQueryData(trpc.github.status.queryKey(), next);
    void queryClient.invalidateQueries({ queryKey: trpc.integrations.status.queryKey() });
  };
  const connected = status.data?.connected === true && !status.isError;
  return { status, connected, user: connected ? status.data?.user : null, connect, disconnect, after };
}

function ConnectDialog({
  open,
  onClose,
  api,
}: {
  open: boolean;
  onClose: () => void;
  api: ReturnType<typeof useGithubConnection>;
}) {
  const toast = useToast();
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const pending = api.connect.isPending;

  useEffect(() => {
    if (open) {
      setToken("");
      setError(null);
    }
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const input = { access_token: token.trim() };
    const found = schemaFieldErrors(githubConnectInput, input, FIELDS).token;
    setError(found ?? null);
    if (found) return;
    try {
      const result = await api.connect.mutateAsync(input);
      api.after(result);
      toast.success(`Connected to GitHub as ${result.user?.username ?? result.user?.login ?? "you"}`);
      onClose();
    } catch (err) {
      const message = errorDetailOf(err) ?? GITHUB_CONNECT_FAILED;
      setError(serverFieldErrors(err, FIELDS).token ?? message);
      toast.error(message);
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Connect GitHub"
      formId="github-connect-form"
      formClassName="flex flex-col gap-3"
      onSubmit={onSubmit}
      submitLabel={pending ? "Connecting..." : "Connect"}
      pending={pending}
    >
      <Field
        id="github-access-token"
        label="GitHub access token"
        required
        type="password"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        placeholder="ghp_..."
        value={token}
        error={error}
        onChange={(e) => {
          setToken(e.target.value);
          if (error) setError(null);
        }}
        hint={
          <>
            The token needs the 'repo' and 'read:user' scopes.{" "}
            <a className="link" href={NEW_TOKEN_URL} target="_blank" rel="noopener noreferrer">
              Create a token on GitHub
            </a>
            . It is stored encrypted and never shown again.
          </>
        }
      />
    </FormModal>
  );
}

/** Integrations: the GitHub connection card (not connected → connect dialog → connected). */
export function GithubCard() {
  const toast = useToast();
  const { isAuthenticated } = useAuth();
  const api = useGithubConnection();
  const [connecting, setConnecting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const onDisconnect = async () => {
    try {
      await api.disconnect.mutateAsync();
      api.after({ connected: false, user: null, missing_scopes: [] });
      toast.success(GITHUB_DISCONNECTED);
      setConfirming(false);
    } catch (err) {
      toast.error(errorDetailOf(err) ?? GITHUB_DISCONNECT_FAILED);
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="github-card-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="github-card-title" className="card-title text-lg">
            GitHub
          </h3>
          {api.status.isPending && isAuthenticated ? (
            <span className="loading loading-spinner loading-sm" role="status" aria-label="Checking GitHub" />
          ) : (
            <span className={`badge ${api.connected ? "badge-success" : "badge-ghost"}`}>
              {api.connected ? "Connected" : "Not connected"}
            </span>
          )}
        </div>
        <p className="text-sm text-base-content/70">
          Export task trees as GitHub issues, and let the planner read a repository for context.
        </p>

        {!isAuthenticated && (
          <div role="alert" className="alert alert-warning alert-soft text-sm">
            {GITHUB_AUTH_REQUIRED}
          </div>
        )}

        {api.connected && api.user ? (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <dl className="text-sm">
              <div className="flex gap-2">
                <dt className="text-base-content/60">Connected as</dt>
                <dd className="font-medium" data-testid="github-login">
                  {api.user.login}
                </dd>
              </div>
              <div className="flex gap-2">
                <dt className="text-base-content/60">Public repositories</dt>
                <dd className="font-medium tabular-nums" data-testid="github-public-repos">
                  {api.user.public_repos}
                </dd>
              </div>
            </dl>
            <button
              type="button"
              className="btn btn-outline btn-error btn-sm self-start sm:self-auto"
              onClick={() => setConfirming(true)}
            >
              Disconnect
            </button>
          </div>
        ) : (
          <div>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={!isAuthenticated || api.status.isPending}
              onClick={() => setConnecting(true)}
            >
              Connect GitHub
            </button>
          </div>
        )}
      </div>

      <ConnectDialog open={connecting} onClose={() => setConnecting(false)} api={api} />
      <ConfirmModal
        open={confirming}
        title="Disconnect GitHub"
        message="Are you sure you want to disconnect your GitHub account? Atomize will no longer be able to export issues or read repositories until you connect it again."
        confirmLabel="Disconnect"
        pending={api.disconnect.isPending}
        onConfirm={() => void onDisconnect()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
