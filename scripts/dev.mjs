// `npm run dev`: the API server with reload on change (tsx watch) and Vite's dev server with hot module
// replacement for the client, which proxies /trpc, /api and /ws to the API server.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "8080";
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "development", PORT: port };
if (!process.env.PUBLIC_URL) env.PUBLIC_URL = "http://localhost:5173";

const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "--watch-preserve-output", "src/server/main.ts"], {
    env,
    stdio: "inherit",
  }),
  spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--port", "5173", "--strictPort"], {
    env,
    stdio: "inherit",
  }),
];
console.info(`\n  Atomize dev: open http://localhost:5173 (API on :${port})\n`);

let stopping = false;
const stop = (code = 0) => {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500);
};
for (const c of children) c.on("exit", (code) => stop(code ?? 0));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
