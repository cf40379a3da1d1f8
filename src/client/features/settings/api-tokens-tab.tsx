import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { type NewApiToken, TOKEN_LIFETIMES, type TokenScope } from "../../../shared/schemas/tokens";
import { ConfirmModal } from "../../components/confirm-modal";
import { EmptyState } from "../../components/empty-state";
import { ErrorAlert } from "../../components/error-alert";
import { Spinner } from "../../components/spinner";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";
import { AgentSetupCard } from "./agent-setup-card";

function when(iso: string | null, none: string) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : none;
}

/**
 * Settings → API tokens: tokens for scripts, the command line and coding agents. A new token is shown
 * once; the list shows what each may do, when it expires and when it was last used; revoking is at once.
 */
export function ApiTokensTab() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const [made, setMade] = useState<NewApiToken | null>(null);
  // A token just made is watched until its first call (the agent set-up's "check the connection").
  const list = useQuery(
    trpc.tokens.list.queryOptions(undefined, {
      refetchInterval: (query) =>
        made && !query.state.data?.tokens.find((t) => t.id === made.id)?.last_used_at ? 5_000 : false,
    }),
  );
  const firstUse = made ? (list.data?.tokens.find((t) => t.id === made.id)?.last_used_at ?? null) : null;
  const [name, setName] = useState("");
  // Agents and the command line, which this page is mostly for, need to write (issue 40).
  const [scope, setScope] = useState<TokenScope>("write");
  const [lifetime, setLifetime] = useState<string>("90");
  const [error, setError] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<{ id: string; name: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      retry: false,
      onSuccess: (token) => {
        setMade(token);
        setName("");
        setError(null);
        void refresh();
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The token could not be made."),
    }),
  );
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      retry: false,
      onSuccess: () => {
        toast.success("Token revoked");
        setToRevoke(null);
        void refresh();
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "The token could not be revoked");
        setToRevoke(null);
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError("Give the token a name");
      return;
    }
    create.mutate({
      name: name.trim(),
      scope,
      expires_in_days: lifetime === "never" ? null : (Number(lifetime) as 30 | 90 | 365),
    });
  };
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby={`${id}-new`} className="card border border-base-300 bg-base-200">
        <form className="card-body gap-3" onSubmit={onSubmit} aria-labelledby={`${id}-new`}>
          <h2 id={`${id}-new`} className="card-title text-lg">
            New API token
          </h2>
          <p className="text-sm text-base-content/70">
            For scripts, the command line and coding agents: send it as <code>Authorization: Bearer …</code>.
            A read token can only read.
          </p>
          <div className="grid gap-3 sm:grid-cols-3">
            <label className="flex flex-col gap-1 text-sm">
              <span>Name</span>
              <input
                className="input input-bordered input-sm"
                value={name}
                maxLength={100}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. laptop, CI, Claude Code"
              />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Access</span>
              <select
                className="select select-bordered select-sm"
                value={scope}
                onChange={(e) => setScope(e.target.value as TokenScope)}
              >
                <option value="read">Read only</option>
                <option value="write">Read and write</option>
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Expires</span>
              <select
                className="select select-bordered select-sm"
                value={lifetime}
                onChange={(e) => setLifetime(e.target.value)}
              >
                {TOKEN_LIFETIMES.map((d) => (
                  <option key={d} value={String(d)}>
                    In {d} days
                  </option>
                ))}
                <option value="never">Never</option>
              </select>
            </label>
          </div>
          <ErrorAlert message={error} line />
          <button type="submit" className="btn btn-primary btn-sm self-start" disabled={create.isPending}>
            {create.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Make token
          </button>
          {made && (
            <div
              role="status"
              className="alert alert-success alert-soft flex flex-col items-start gap-2"
              data-testid="token-made"
            >
              <p className="font-semibold">Copy "{made.name}" now: it is not shown again.</p>
              <label className="w-full text-sm">
                <span className="sr-only">New token</span>
                <input
                  className="input input-sm input-bordered w-full font-mono"
                  readOnly
                  value={made.token}
                />
              </label>
              <p className="text-sm" data-testid="token-connection">
                {firstUse
                  ? `Connected: first used at ${new Date(firstUse).toLocaleTimeString()}.`
                  : "Waiting for its first call: set up your agent below, then ask it to list your Atomize projects."}
              </p>
            </div>
          )}
        </form>
      </section>

      <section aria-labelledby={`${id}-list`} className="card border border-base-300 bg-base-200">
        <div className="card-body gap-3">
          <h2 id={`${id}-list`} className="card-title text-lg">
            Your tokens
          </h2>
          {list.isPending ? (
            <Spinner label="Loading tokens..." />
          ) : list.isError ? (
            <p role="alert" className="text-sm text-error">
              {errorDetailOf(list.error) ?? "Your tokens could not be loaded."}
            </p>
          ) : list.data.tokens.length === 0 ? (
            <EmptyState title="No tokens yet">
              Make one above to use Atomize from a script or an agent.
            </EmptyState>
          ) : (
            <ul className="flex flex-col gap-2" data-testid="tokens">
              {list.data.tokens.map((t) => (
                <li
                  key={t.id}
                  className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 p-3 text-sm"
                >
                  <div className="min-w-0 flex-1">
                    <p className="font-medium">
                      {t.name}{" "}
                      <span className="badge badge-sm badge-outline">
                        {t.scope === "read" ? "read" : "write"}
                      </span>
                    </p>
                    <p className="text-xs text-base-content/60">
                      <code>{t.prefix}…</code> · expires {when(t.expires_at, "never")} · last used{" "}
                      {when(t.last_used_at, "never")}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline btn-error"
                    onClick={() => setToRevoke(t)}
                  >
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <AgentSetupCard token={made?.token ?? null} />
      <ConfirmModal
        open={toRevoke !== null}
        title="Revoke this token?"
        message={toRevoke ? `Anything using "${toRevoke.name}" stops working at once.` : ""}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={() => {
          if (toRevoke) revoke.mutate({ id: toRevoke.id });
        }}
      />
    </div>
  );
}
