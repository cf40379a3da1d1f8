import type { OllamaDetection } from "../../../shared/schemas/model-providers";
import { Field } from "../../components/field";

/** Fills a provider form's address and model from a model the server's local Ollama has. */
export function OllamaPicker({
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
