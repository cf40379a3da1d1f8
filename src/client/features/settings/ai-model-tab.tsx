import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  type ConnectionTestResult,
  type InstanceModelProviderView,
  type ModelProviderInput,
  type ModelProviderView,
  type OllamaDetection,
  PROVIDER_CONCURRENCY,
} from "../../../shared/schemas/model-providers";
import { ConfirmModal } from "../../components/confirm-modal";
import { Field } from "../../components/field";
import { useToast } from "../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { focusFirstError, serverFieldErrors } from "../../lib/field-errors";
import { useTRPC, useTRPCClient } from "../../lib/trpc";
import { plannerChoiceText } from "../tasks/planner-text";
import {
  formatModelSize,
  formFromView,
  keyStatusText,
  OPENAI_BASE_URL,
  PROVIDER_FIELDS,
  type ProviderErrors,
  type ProviderField,
  type ProviderForm,
  providerPayload,
  testResultText,
  validateProviderForm,
} from "./model-provider-form";

type Scope = "mine" | "instance";

function Loading({ label }: { label: string }) {
  return (
    <div className="flex min-h-24 items-center justify-center">
      <span className="loading loading-spinner" role="status" aria-label={label} />
    </div>
  );
}

/** "Your tasks are planned by ..." at the top of the tab. */
function PlannerSummary() {
  const trpc = useTRPC();
  const choice = useQuery(trpc.modelProviders.plannerForMe.queryOptions());
  return (
    <section
      aria-labelledby="planner-summary-title"
      className="rounded-box border border-base-300 bg-base-100 p-4 text-sm"
    >
      <h2 id="planner-summary-title" className="font-semibold">
        Who plans your tasks
      </h2>
      {choice.isPending ? (
        <span className="loading loading-dots loading-sm" role="status" aria-label="Loading" />
      ) : choice.isError ? (
        <p className="mt-1 text-error">{getErrorMessage(choice.error)}</p>
      ) : (
        <>
          <p className="mt-1" data-testid="planner-for-me">
            {plannerChoiceText(choice.data)}
          </p>
          {choice.data.problem && <p className="mt-1 text-warning">{choice.data.problem}</p>}
          <p className="mt-1 text-base-content/60">
            Your own model comes first, then one set by the server's environment, then the instance's model an
            admin saved. With none, you get an outline made from your description, without AI.
          </p>
        </>
      )}
    </section>
  );
}

/** The local Ollama the server found at start (never used until someone saves one of its models). */
function OllamaCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const detection = useQuery(trpc.modelProviders.ollama.queryOptions(undefined, { staleTime: 60_000 }));
  const again = useMutation(
    trpc.modelProviders.detectOllama.mutationOptions({
      retry: false,
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.modelProviders.ollama.queryKey(), next);
        if (next.status === "found")
          toast.success(
            `Found ${next.models.length} local Ollama ${next.models.length === 1 ? "model" : "models"}`,
          );
        else toast.info(next.message ?? "No local Ollama found");
      },
      onError: (err) => toast.error(getErrorMessage(err)),
    }),
  );
  const data = detection.data;
  if (data?.status === "disabled") return null;
  return (
    <section aria-labelledby="ollama-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="ollama-title" className="card-title text-lg">
            Local Ollama
          </h2>
          {data && (
            <span className={`badge ${data.status === "found" ? "badge-success" : "badge-ghost"}`}>
              {data.status === "found" ? "Found" : "Not found"}
            </span>
          )}
        </div>
        {detection.isPending ? (
          <Loading label="Looking for a local Ollama" />
        ) : detection.isError ? (
          <p role="alert" className="text-sm text-error">
            {getErrorMessage(detection.error)}
          </p>
        ) : (
          <>
            <p className="text-sm text-base-content/70">
              {detection.data.status === "found" && detection.data.models.length > 0
                ? `Ollama answers at ${detection.data.url} on the server. Pick one of its models in your model or the instance's to fill in the address and the model name; nothing is used until you save.`
                : detection.data.message}
            </p>
            {detection.data.models.length > 0 && (
              <ul className="flex flex-col gap-1 text-sm" aria-label="Models found in Ollama">
                {detection.data.models.map((m) => (
                  <li key={m.name} className="flex flex-wrap gap-x-3 rounded-box bg-base-100 px-3 py-1.5">
                    <span className="font-mono break-all">{m.name}</span>
                    <span className="text-base-content/60">
                      {[m.parameter_size, formatModelSize(m.size)].filter(Boolean).join(" · ")}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        <div>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => again.mutate()}
            disabled={again.isPending}
          >
            {again.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Look again
          </button>
        </div>
      </div>
    </section>
  );
}

function OllamaPicker({
  idPrefix,
  detection,
  onPick,
  disabled,
}: {
  idPrefix: string;
  detection: OllamaDetection | undefined;
  onPick: (baseUrl: string, model: string) => void;
  disabled: boolean;
}) {
  if (detection?.status !== "found" || detection.models.length === 0 || !detection.base_url) return null;
  const baseUrl = detection.base_url;
  return (
    <Field
      as="select"
      id={`${idPrefix}-ollama`}
      label="Use a local Ollama model"
      value=""
      disabled={disabled}
      onChange={(e) => {
        if (e.target.value) onPick(baseUrl, e.target.value);
      }}
    >
      <option value="">Pick a model found on the server...</option>
      {detection.models.map((m) => (
        <option key={m.name} value={m.name}>
          {m.name}
        </option>
      ))}
    </Field>
  );
}

function TestResult({ result, id }: { result: ConnectionTestResult | null; id: string }) {
  return (
    <div id={id} role="status" aria-live="polite">
      {result && (
        <div
          className={`alert alert-soft items-start text-sm ${result.ok ? "alert-success" : "alert-error"}`}
          data-testid="connection-test-result"
        >
          <div className="min-w-0">
            <p className="font-semibold">{result.ok ? "The model answered" : "The connection failed"}</p>
            <p className="mt-1 break-words">{testResultText(result)}</p>
            {result.ok && result.model && (
              <p className="mt-1 text-base-content/70">Model reported by the provider: {result.model}</p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** One provider's form: the caller's own, or (admins) the instance's. */
function ProviderSection({
  scope,
  view,
  environment,
}: {
  scope: Scope;
  view: ModelProviderView;
  environment?: InstanceModelProviderView["environment"];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const prefix = `${scope}-model`;
  const instance = scope === "instance";
  const readOnly = instance && Boolean(environment);
  const ollama = useQuery(trpc.modelProviders.ollama.queryOptions(undefined, { staleTime: 60_000 }));

  const [form, setForm] = useState<ProviderForm>(() => formFromView(view));
  const [errors, setErrors] = useState<ProviderErrors>({});
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  // A saved provider (another tab, a removal) resets the form to what the server holds.
  useEffect(() => {
    setForm(formFromView(view));
  }, [view]);

  const api = useTRPCClient().modelProviders;
  const save = useMutation({
    mutationFn: (input: ModelProviderInput): Promise<ModelProviderView> =>
      instance ? api.saveInstance.mutate(input) : api.saveMine.mutate(input),
    retry: false,
  });
  const remove = useMutation({
    mutationFn: (): Promise<ModelProviderView> =>
      instance ? api.removeInstance.mutate() : api.removeMine.mutate(),
    retry: false,
  });
  const test = useMutation({
    mutationFn: (input: ModelProviderInput) =>
      instance ? api.testInstance.mutate(input) : api.testMine.mutate(input),
    retry: false,
  });
  const busy = save.isPending || remove.isPending || test.isPending;
  const viewKey = (instance ? trpc.modelProviders.instance : trpc.modelProviders.mine).queryKey();

  const stored = (next: ModelProviderView) => {
    queryClient.setQueryData(viewKey, next);
    void queryClient.invalidateQueries({ queryKey: trpc.modelProviders.plannerForMe.queryKey() });
  };

  const set = (field: keyof ProviderForm, value: string | boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (field in errors) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  // In the form's order: the first field with an error takes the focus.
  const fieldIds: Record<ProviderField, string> = {
    baseUrl: `${prefix}-base-url`,
    model: `${prefix}-model-name`,
    apiKey: `${prefix}-api-key`,
    concurrency: `${prefix}-concurrency`,
  };
  const showErrors = (next: ProviderErrors): boolean => {
    setErrors(next);
    return focusFirstError(next, fieldIds);
  };
  const checked = (): boolean => !showErrors(validateProviderForm(form, instance));
  const serverErrors = (err: unknown) => showErrors(serverFieldErrors(err, PROVIDER_FIELDS));

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || readOnly || !checked()) return;
    try {
      const next = await save.mutateAsync(providerPayload(form, instance));
      stored(next);
      setForm(formFromView(next));
      toast.success(instance ? "Instance model saved" : "Your model saved");
    } catch (err) {
      serverErrors(err);
      toast.error(errorDetailOf(err) ?? "Failed to save the model settings. Please try again.");
    }
  };

  const onTest = async () => {
    if (busy || !checked()) return;
    setResult(null);
    try {
      setResult(await test.mutateAsync(providerPayload(form, false)));
    } catch (err) {
      serverErrors(err);
      toast.error(getErrorMessage(err));
    }
  };

  const onRemove = async () => {
    try {
      const next = await remove.mutateAsync();
      stored(next);
      setResult(null);
      toast.success(instance ? "Instance model removed" : "Your model removed");
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      setConfirmRemove(false);
    }
  };

  const title = instance ? "Instance model" : "Your model";
  const shown =
    readOnly && environment ? { ...form, baseUrl: environment.base_url, model: environment.model } : form;

  return (
    <section aria-labelledby={`${prefix}-title`} className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${prefix}-title`} className="card-title text-lg">
            {title}
          </h2>
          <span className={`badge ${view.configured || readOnly ? "badge-success" : "badge-ghost"}`}>
            {readOnly ? "Set by the environment" : view.configured ? "Saved" : "Not set"}
          </span>
        </div>
        <p className="text-sm text-base-content/70">
          {instance
            ? "The model everyone on this instance plans with, unless they saved their own."
            : "Plan your own tasks with a model of your choice: OpenAI, Azure OpenAI, a local Ollama, vLLM, LM Studio or any other OpenAI-compatible API."}{" "}
          The API key is stored encrypted and never shown again.
        </p>
        {readOnly && environment && (
          <div role="note" className="alert alert-info alert-soft text-sm">
            <span>
              Environment variables (OPENAI_BASE_URL / OPENAI_API_KEY) set this instance's model:{" "}
              <span className="font-medium break-all">{environment.model}</span> at{" "}
              <span className="font-medium break-all">{environment.base_url}</span>
              {environment.api_key_saved ? ", with a key" : ""}. They take precedence over this screen, so it
              is read-only; change them on the server.
            </span>
          </div>
        )}

        <form noValidate onSubmit={onSave} className="flex flex-col gap-3" aria-busy={busy}>
          <fieldset disabled={readOnly} className="flex flex-col gap-3">
            <OllamaPicker
              idPrefix={prefix}
              detection={ollama.data}
              disabled={busy}
              onPick={(baseUrl, model) => {
                setForm((f) => ({ ...f, baseUrl, model }));
                setErrors({});
                setResult(null);
              }}
            />
            <div className="grid gap-3 md:grid-cols-2">
              <Field
                id={fieldIds.baseUrl}
                label="Base URL"
                required
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder={OPENAI_BASE_URL}
                value={shown.baseUrl}
                error={errors.baseUrl}
                onChange={(e) => set("baseUrl", e.target.value)}
                hint="The address of an OpenAI-compatible API, ending in /v1 for most servers."
              />
              <Field
                id={fieldIds.model}
                label="Model"
                required
                autoComplete="off"
                spellCheck={false}
                placeholder="gpt-4o-mini"
                value={shown.model}
                error={errors.model}
                onChange={(e) => set("model", e.target.value)}
              />
              <Field
                id={fieldIds.apiKey}
                label="API key"
                type="password"
                autoComplete="new-password"
                spellCheck={false}
                placeholder={view.api_key_saved ? "•••••••• (saved)" : "sk-..."}
                value={form.apiKey}
                error={errors.apiKey}
                disabled={form.removeKey}
                onChange={(e) => set("apiKey", e.target.value)}
                hint={<span data-testid={`${prefix}-key-status`}>{keyStatusText(view)}</span>}
              />
              {instance && (
                <Field
                  id={fieldIds.concurrency}
                  label="Concurrent requests"
                  type="number"
                  inputMode="numeric"
                  min={PROVIDER_CONCURRENCY.min}
                  max={PROVIDER_CONCURRENCY.max}
                  value={form.concurrency}
                  error={errors.concurrency}
                  onChange={(e) => set("concurrency", e.target.value)}
                  hint={`How many calls this server makes to the model at once (${PROVIDER_CONCURRENCY.min} to ${PROVIDER_CONCURRENCY.max}).`}
                />
              )}
            </div>
            {view.api_key_saved && (
              <label className="flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={form.removeKey}
                  onChange={(e) => {
                    setForm((f) => ({ ...f, removeKey: e.target.checked, apiKey: "" }));
                  }}
                />
                Remove the saved key when saving (for servers that need none)
              </label>
            )}
          </fieldset>

          <TestResult result={result} id={`${prefix}-test-result`} />

          {!readOnly && (
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
              {view.configured && (
                <button
                  type="button"
                  className="btn btn-outline btn-error sm:mr-auto"
                  onClick={() => setConfirmRemove(true)}
                  disabled={busy}
                >
                  Remove
                </button>
              )}
              <button type="button" className="btn" onClick={() => void onTest()} disabled={busy}>
                {test.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                {test.isPending ? "Testing..." : "Test connection"}
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {save.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                {save.isPending ? "Saving..." : "Save"}
              </button>
            </div>
          )}
        </form>
      </div>

      <ConfirmModal
        open={confirmRemove}
        title={`Remove ${instance ? "the instance model" : "your model"}`}
        message={
          instance
            ? "Remove the instance's model and its key? Users without a model of their own then get outlines from their descriptions, without AI."
            : "Remove your model and its key? Your next tasks are planned by the instance's model, or outlined without AI if there is none."
        }
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => void onRemove()}
        onClose={() => setConfirmRemove(false)}
      />
    </section>
  );
}

function MineSection() {
  const trpc = useTRPC();
  const mine = useQuery(trpc.modelProviders.mine.queryOptions());
  if (mine.isPending) return <Loading label="Loading your model" />;
  if (mine.isError)
    return (
      <div role="alert" className="alert alert-error">
        <span>{getErrorMessage(mine.error)}</span>
        <button type="button" className="btn btn-sm" onClick={() => void mine.refetch()}>
          Retry
        </button>
      </div>
    );
  return <ProviderSection scope="mine" view={mine.data} />;
}

function InstanceSection() {
  const trpc = useTRPC();
  const instance = useQuery(trpc.modelProviders.instance.queryOptions());
  if (instance.isPending) return <Loading label="Loading the instance model" />;
  if (instance.isError)
    return (
      <div role="alert" className="alert alert-error">
        <span>{getErrorMessage(instance.error)}</span>
        <button type="button" className="btn btn-sm" onClick={() => void instance.refetch()}>
          Retry
        </button>
      </div>
    );
  return <ProviderSection scope="instance" view={instance.data} environment={instance.data.environment} />;
}

/** Settings → AI model: who plans, your own model, the instance's (admins), and a local Ollama. */
export function AiModelTab() {
  const { isAdmin } = useAuth();
  return (
    <div className="flex flex-col gap-4">
      <PlannerSummary />
      <MineSection />
      {isAdmin && <InstanceSection />}
      <OllamaCard />
    </div>
  );
}
