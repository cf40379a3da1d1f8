import {
  CONCURRENCY_RANGE_MESSAGE,
  type ConnectionTestResult,
  type InstanceModelProviderView,
  type ModelProviderInput,
  type ModelProviderView,
  modelProviderInput,
  PROVIDER_CONCURRENCY,
} from "../../../shared/schemas/model-providers";
import { type FieldErrors, schemaFieldErrors } from "../../lib/field-errors";

/** The AI model tab's editable values; the key is typed in, never loaded from anywhere. */
export type ProviderForm = {
  baseUrl: string;
  apiKey: string;
  /** Clear the saved key on save (a local server needs none). */
  removeKey: boolean;
  model: string;
  concurrency: string;
};

export type ProviderField = "baseUrl" | "apiKey" | "model" | "concurrency";
export type ProviderErrors = FieldErrors<ProviderField>;

/** modelProviderInput's paths (the server's 422s too) to the form's fields. */
export const PROVIDER_FIELDS: Record<string, ProviderField> = {
  base_url: "baseUrl",
  api_key: "apiKey",
  model: "model",
  concurrency: "concurrency",
};

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The form's input ids, in the form's order: the first field with an error takes the focus. */
export function providerFieldIds(prefix: string): Record<ProviderField, string> {
  return {
    baseUrl: `${prefix}-base-url`,
    model: `${prefix}-model-name`,
    apiKey: `${prefix}-api-key`,
    concurrency: `${prefix}-concurrency`,
  };
}

/** What the form shows: read-only, the address and model the environment variables set. */
export function shownProviderForm(
  form: ProviderForm,
  readOnly: boolean,
  environment: InstanceModelProviderView["environment"] | undefined,
): ProviderForm {
  return readOnly && environment
    ? { ...form, baseUrl: environment.base_url, model: environment.model }
    : form;
}

export function formFromView(view: ModelProviderView | null | undefined): ProviderForm {
  return {
    baseUrl: view?.base_url ?? "",
    apiKey: "",
    removeKey: false,
    model: view?.model ?? "",
    concurrency: String(view?.concurrency ?? PROVIDER_CONCURRENCY.default),
  };
}

/** What Save and Test send: an empty key field keeps the saved key (the server's rule too). */
export function providerPayload(form: ProviderForm, withConcurrency: boolean): ModelProviderInput {
  const key = form.apiKey.trim();
  const concurrency = Number(form.concurrency.trim());
  return {
    base_url: form.baseUrl.trim(),
    model: form.model.trim(),
    ...(key ? { api_key: key } : form.removeKey ? { remove_api_key: true } : {}),
    ...(withConcurrency ? { concurrency: form.concurrency.trim() === "" ? Number.NaN : concurrency } : {}),
  };
}

/**
 * Checked with the same schema the server uses; the first message per field. A concurrency that is no
 * number at all (empty, or not a number) gets the range message rather than zod's type message.
 */
export function validateProviderForm(form: ProviderForm, withConcurrency: boolean): ProviderErrors {
  const payload = providerPayload(form, withConcurrency);
  const errors = schemaFieldErrors(modelProviderInput, payload, PROVIDER_FIELDS);
  if (errors.concurrency && Number.isNaN(payload.concurrency)) errors.concurrency = CONCURRENCY_RANGE_MESSAGE;
  return errors;
}

/** The key field's hint: whether a key is saved (its last four characters at most), never the key. */
export function keyStatusText(view: ModelProviderView | null | undefined): string {
  if (!view?.api_key_saved)
    return "No key saved. Leave it empty for servers that need none (a local Ollama).";
  if (view.api_key_unreadable)
    return "A key is saved but can no longer be read (the server's credentials key changed): enter it again.";
  return `A key is saved${view.api_key_hint ? ` (${view.api_key_hint})` : ""}. Leave the field empty to keep it; it is only sent to the base URL it was saved with.`;
}

/** One line for a connection test's outcome, in the provider's own words. */
export function testResultText(result: ConnectionTestResult): string {
  if (result.ok)
    return `Connected in ${(result.ms / 1000).toFixed(1)} s. The model answered: ${result.answer}`;
  return result.status === null ? result.message : `HTTP ${result.status}: ${result.message}`;
}

/** "2.0 GB" for Ollama's model sizes (bytes). */
export function formatModelSize(bytes: number | null): string | null {
  if (bytes === null) return null;
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  return `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}
