import { PROVIDER_CONCURRENCY } from "../../../shared/schemas/model-providers";
import { Field } from "../../components/field";
import { keyStatusText, OPENAI_BASE_URL } from "./model-provider-form";
import { OllamaPicker } from "./ollama-picker";
import type { ModelProviderApi } from "./use-model-provider";

/** The provider form's fields: base URL, model, key (and its removal), and the instance's concurrency. */
export function ProviderFields({ provider }: { provider: ModelProviderApi }) {
  const { prefix, instance, readOnly, view, form, shown, errors, fieldIds, busy, set } = provider;
  return (
    <fieldset disabled={readOnly} className="flex flex-col gap-3">
      <OllamaPicker
        idPrefix={prefix}
        detection={provider.ollama}
        disabled={busy}
        onPick={provider.pickOllama}
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
            onChange={(e) => provider.setRemoveKey(e.target.checked)}
          />
          Remove the saved key when saving (for servers that need none)
        </label>
      )}
    </fieldset>
  );
}
