// Runs the fake Trello API as its own process for the browser tests (see playwright.config.ts).
import { startFakeTrello } from "./trello";

const fake = await startFakeTrello({ port: Number(process.env.FAKE_TRELLO_PORT ?? 8184) });
fake.addCredentials({ key: "e2e-trello-key", token: "e2e-trello-token", username: "e2e-dev" });
console.info(`fake Trello API at ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
