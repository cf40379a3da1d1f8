import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { EXPORT_LABELS, type ExportKind } from "../../../shared/schemas/integrations";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";

type Kind = ExportKind;
const WHERE: Record<Kind, string> = {
  github:
    'In the repository: Settings → Webhooks → Add webhook. Payload URL and Secret below, content type "application/json", the "Issues" and "Pull requests" events.',
  jira: 'In JIRA, as a JIRA administrator (only admins may register webhooks): Settings → System → Webhooks → Create. URL and Secret below, the "Issue updated" event, and the JQL filter labels = atomize, so only issues Atomize exported are sent (without a filter, every change to every issue on the site comes here).',
  trello: "Nothing to do in Trello: each export to Trello registers this webhook on its board.",
};

/**
 * Status back from GitHub and JIRA as it changes: one webhook endpoint per service, whose secret is shown
 * once, when it is made (making it again replaces it).
 */
export function WebhooksCard() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const list = useQuery(trpc.integrations.webhooks.queryOptions());
  const [made, setMade] = useState<{ kind: Kind; url: string; secret: string } | null>(null);
  const [trelloSecret, setTrelloSecret] = useState("");
  const create = useMutation(
    trpc.integrations.createWebhook.mutationOptions({
      retry: false,
      onSuccess: (hook) => {
        setMade(hook);
        void queryClient.invalidateQueries({ queryKey: trpc.integrations.webhooks.queryKey() });
      },
      onError: (err) => toast.error(errorDetailOf(err) ?? "The webhook could not be made"),
    }),
  );
  const existing = (kind: Kind) => list.data?.webhooks.find((w) => w.kind === kind);
  return (
    <section aria-labelledby={`${id}-title`} className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3">
        <h2 id={`${id}-title`} className="card-title text-lg">
          Status from GitHub and JIRA
        </h2>
        <p className="text-sm text-base-content/70">
          When an exported issue is closed, reopened or moved there, its task follows here. "Sync now" on a
          task asks at any time; a webhook tells Atomize as it happens.
        </p>
        {(["github", "jira"] as const).map((kind) => {
          const hook = existing(kind);
          return (
            <div key={kind} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                {EXPORT_LABELS[kind]}:{" "}
                {list.isPending
                  ? "…"
                  : hook
                    ? hook.last_delivery_at
                      ? `last delivery ${new Date(hook.last_delivery_at).toLocaleString()}`
                      : "made, no delivery yet"
                    : "no webhook yet"}
              </span>
              <button
                type="button"
                className="btn btn-sm"
                disabled={create.isPending}
                onClick={() => create.mutate({ kind })}
              >
                {hook ? `Replace ${EXPORT_LABELS[kind]} webhook` : `Make a ${EXPORT_LABELS[kind]} webhook`}
              </button>
            </div>
          );
        })}
        <div className="flex flex-col gap-1 text-sm">
          <span>
            Trello:{" "}
            {list.isPending
              ? "…"
              : existing("trello")
                ? "made; exports to Trello register it on their board"
                : "no webhook yet"}
          </span>
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-60 flex-1 flex-col gap-1">
              <span className="text-xs text-base-content/70">
                Your Trello application secret (trello.com/power-ups/admin): Trello signs deliveries with it
              </span>
              <input
                type="password"
                autoComplete="off"
                className="input input-sm input-bordered w-full"
                value={trelloSecret}
                onChange={(e) => setTrelloSecret(e.target.value)}
              />
            </label>
            <button
              type="button"
              className="btn btn-sm"
              disabled={create.isPending || trelloSecret.trim().length < 8}
              onClick={() => create.mutate({ kind: "trello", secret: trelloSecret.trim() })}
            >
              {existing("trello") ? "Replace Trello webhook" : "Make a Trello webhook"}
            </button>
          </div>
        </div>
        {made && made.kind !== "trello" && (
          <div
            role="status"
            className="alert alert-info alert-soft flex flex-col items-start gap-2 text-sm"
            data-testid="webhook-made"
          >
            <p className="font-semibold">
              {EXPORT_LABELS[made.kind]} webhook: copy the secret now, it is not shown again.
            </p>
            <p>{WHERE[made.kind]}</p>
            <label className="w-full">
              <span className="text-xs text-base-content/70">URL</span>
              <input className="input input-sm input-bordered w-full font-mono" readOnly value={made.url} />
            </label>
            <label className="w-full">
              <span className="text-xs text-base-content/70">Secret</span>
              <input
                className="input input-sm input-bordered w-full font-mono"
                readOnly
                value={made.secret}
              />
            </label>
          </div>
        )}
      </div>
    </section>
  );
}
