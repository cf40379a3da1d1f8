// The four fakes the browser tests use (Google, GitHub, Trello, an OpenAI-compatible provider), in one
// process: one TypeScript compile instead of four. Each keeps its own port and environment
// (see playwright.config.ts); the last one started answers the readiness check.
await import("./run-google");
await import("./run-github");
await import("./run-trello");
await import("./run-openai");

export {};
