// Runs the fake OpenAI-compatible model as its own process for the browser tests (see playwright.config.ts):
// a person connects it in Settings → AI model, as they would connect OpenAI or a local server.
import { startFakeOpenAI } from "./openai";

export const E2E_OPENAI_KEY = "sk-e2e-fake-model-0123456789abcd";

const fake = await startFakeOpenAI({
  port: Number(process.env.FAKE_OPENAI_PORT ?? 8185),
  apiKey: E2E_OPENAI_KEY,
});
console.info(`fake OpenAI-compatible API at ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
