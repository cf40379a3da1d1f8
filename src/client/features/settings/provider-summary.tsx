import type { ModelProviderApi } from "./use-model-provider";

/** A provider card's heading: its title, whether one is saved (or set by the environment), and what it is for. */
export function ProviderSummary({ provider }: { provider: ModelProviderApi }) {
  const { prefix, instance, readOnly, view, environment } = provider;
  const title = instance ? "Instance model" : "Your model";
  return (
    <>
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
            {environment.api_key_saved ? ", with a key" : ""}. They take precedence over this screen, so it is
            read-only; change them on the server.
          </span>
        </div>
      )}
    </>
  );
}
