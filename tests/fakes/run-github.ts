// Runs the fake GitHub API as its own process for the browser tests (see playwright.config.ts).
import { startFakeGitHub } from "./github";

const fake = await startFakeGitHub({ port: Number(process.env.FAKE_GITHUB_PORT ?? 8183) });
fake.addRepo({
  owner: "acme",
  name: "yoga",
  description: "Booking site for a yoga studio",
  readme: "# Yoga studio\n\nClass bookings with a React front end and a Node.js API on PostgreSQL.",
  files: ["package.json", "src/app.tsx", "server/index.ts", "server/db/schema.sql"],
});
fake.addRepo({ owner: "e2e-dev", name: "planner", readme: "# Planner", files: ["README.md"] });
fake.addToken({
  token: "ghp_e2e_connected",
  login: "e2e-dev",
  scopes: ["repo", "read:user"],
  publicRepos: 12,
});
// tests/e2e/sync.spec.ts: a repository the plan is exported to, then edited there as a person would.
fake.addRepo({ owner: "e2e-tracker", name: "plan", readme: "# Plan", files: ["README.md"] });
fake.addToken({ token: "ghp_e2e_tracker", login: "e2e-tracker", scopes: ["repo"] });
console.info(`fake GitHub API at ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
