import { describe, expect, it } from "vitest";
import {
  formatModelSize,
  formFromView,
  keyStatusText,
  type ProviderForm,
  providerFieldIds,
  providerPayload,
  shownProviderForm,
  testResultText,
  validateProviderForm,
} from "./model-provider-form";

const form = (over: Partial<ProviderForm> = {}): ProviderForm => ({
  baseUrl: "https://api.openai.com/v1",
  apiKey: "",
  removeKey: false,
  model: "gpt-4o-mini",
  concurrency: "4",
  ...over,
});

const view = {
  configured: true,
  base_url: "http://127.0.0.1:11434/v1",
  model: "llama3.2:latest",
  concurrency: 3,
  api_key_saved: true,
  api_key_hint: "••••wxyz",
  api_key_unreadable: false,
  updated_at: "2026-11-23T10:00:00.000Z",
};

describe("the AI model form", () => {
  it("starts from what is saved, the key field always empty", () => {
    expect(formFromView(view)).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "",
      removeKey: false,
      model: "llama3.2:latest",
      concurrency: "3",
    });
    expect(formFromView(undefined)).toMatchObject({ baseUrl: "", model: "", concurrency: "4" });
  });

  it("sends a typed key, or asks to remove the saved one, or keeps it", () => {
    expect(providerPayload(form({ apiKey: " sk-new " }), false)).toEqual({
      base_url: "https://api.openai.com/v1",
      model: "gpt-4o-mini",
      api_key: "sk-new",
    });
    expect(providerPayload(form({ removeKey: true }), false)).toMatchObject({ remove_api_key: true });
    expect(providerPayload(form(), false)).not.toHaveProperty("api_key");
    expect(providerPayload(form({ concurrency: "8" }), true)).toMatchObject({ concurrency: 8 });
  });

  it("checks the fields with the server's schema", () => {
    expect(validateProviderForm(form(), true)).toEqual({});
    expect(validateProviderForm(form({ baseUrl: "ftp://x", model: " " }), false)).toEqual({
      baseUrl: "Base URL must be an http:// or https:// address",
      model: "Model name is required",
    });
    expect(validateProviderForm(form({ concurrency: "17" }), true)).toEqual({
      concurrency: "Concurrency must be between 1 and 16",
    });
    expect(validateProviderForm(form({ concurrency: "" }), true)).toEqual({
      concurrency: "Concurrency must be between 1 and 16",
    });
    // Concurrency is the instance's only.
    expect(validateProviderForm(form({ concurrency: "99" }), false)).toEqual({});
  });

  it("says whether a key is saved, never more than its last four characters", () => {
    expect(keyStatusText(view)).toBe(
      "A key is saved (••••wxyz). Leave the field empty to keep it; it is only sent to the base URL it was saved with.",
    );
    expect(keyStatusText({ ...view, api_key_hint: null })).toBe(
      "A key is saved. Leave the field empty to keep it; it is only sent to the base URL it was saved with.",
    );
    expect(keyStatusText({ ...view, api_key_saved: false })).toMatch(/^No key saved\./);
    expect(keyStatusText({ ...view, api_key_unreadable: true })).toMatch(/can no longer be read/);
  });

  it("names each field's input after the provider it belongs to", () => {
    expect(providerFieldIds("instance-model")).toEqual({
      baseUrl: "instance-model-base-url",
      model: "instance-model-model-name",
      apiKey: "instance-model-api-key",
      concurrency: "instance-model-concurrency",
    });
  });

  it("shows the environment's address and model only while the environment makes it read-only", () => {
    const environment = {
      base_url: "http://llm:8000/v1",
      model: "qwen",
      api_key_saved: false,
      concurrency: 2,
    };
    expect(shownProviderForm(form({ apiKey: "sk-typed" }), true, environment)).toEqual(
      form({ apiKey: "sk-typed", baseUrl: "http://llm:8000/v1", model: "qwen" }),
    );
    expect(shownProviderForm(form(), false, environment)).toEqual(form());
    expect(shownProviderForm(form(), true, null)).toEqual(form());
  });

  it("words a connection test's outcome", () => {
    expect(testResultText({ ok: true, answer: "ok", model: "gpt-4o-mini", ms: 1234 })).toBe(
      "Connected in 1.2 s. The model answered: ok",
    );
    expect(testResultText({ ok: false, status: 401, message: "Incorrect API key provided.", ms: 5 })).toBe(
      "HTTP 401: Incorrect API key provided.",
    );
    expect(testResultText({ ok: false, status: null, message: "Could not connect.", ms: 5 })).toBe(
      "Could not connect.",
    );
    expect(formatModelSize(2_019_393_189)).toBe("2.0 GB");
    expect(formatModelSize(274_302_450)).toBe("274 MB");
    expect(formatModelSize(null)).toBeNull();
  });
});
