import type { OllamaDetection } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { adminsOnly } from "./model-providers";

export function detectOllama(deps: Deps, user: { role: string }): Promise<OllamaDetection> {
  return Promise.resolve(adminsOnly(deps, user) ?? deps.ollama.detect());
}
