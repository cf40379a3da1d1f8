import { describe, expect, it } from "vitest";
import type { OllamaDetection } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { detectOllama } from "./detect-ollama";
import { ollamaModels } from "./ollama-models";

const found: OllamaDetection = {
  status: "found",
  url: "http://127.0.0.1:11434",
  base_url: "http://127.0.0.1:11434/v1",
  models: [{ name: "llama3.2:3b", size: 2_000_000_000, parameter_size: "3.2B" } as never],
  message: null,
  checked_at: "2026-12-07T09:00:00.000Z",
};

function depsWith(ollamaUrlSet: boolean) {
  const probes = { latest: 0, detect: 0 };
  const deps = {
    config: { ollamaUrlSet },
    ollama: {
      latest: async () => {
        probes.latest++;
        return found;
      },
      detect: async () => {
        probes.detect++;
        return found;
      },
    },
  } as unknown as Deps;
  return { deps, probes };
}

describe("the local Ollama in Settings", () => {
  it("at the default address, is shown only to an admin; anyone else is told whom to ask and probes nothing", async () => {
    const { deps, probes } = depsWith(false);
    expect(await ollamaModels(deps, { role: "admin" })).toEqual(found);
    const user = await ollamaModels(deps, { role: "user" });
    expect(user).toMatchObject({ status: "disabled", models: [], base_url: null });
    expect(user.message).toMatch(/administrator.*OLLAMA_URL/);
    expect((await detectOllama(deps, { role: "user" })).status).toBe("disabled");
    expect(probes).toEqual({ latest: 1, detect: 0 });
  });

  it("set by the operator (OLLAMA_URL), is shown to everyone", async () => {
    const { deps } = depsWith(true);
    expect(await ollamaModels(deps, { role: "user" })).toEqual(found);
    expect(await detectOllama(deps, { role: "user" })).toEqual(found);
  });
});
