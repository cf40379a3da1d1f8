#!/usr/bin/env node
// Reads every log line the test run captured (ATOMIZE_LOG_CAPTURE_DIR, see tests/support/server.ts) and
// fails when any of them holds a secret: query parameters, password hashes, session or refresh tokens,
// the test suite's passwords, or the third-party tokens its fakes accept.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node scripts/check-logs.mjs <capture folder>");
  process.exit(2);
}

const FORBIDDEN = [
  ["a failed query and its parameters", /Failed query:|params: /],
  ["an argon2 password hash", /\$argon2(id|i|d)\$/],
  ["a session or refresh token", /\b[a-z2-7]{24}\.[a-z2-7]{32}\b/],
  ["a bearer credential", /\bBearer [A-Za-z0-9._~+/-]{8,}/],
  ["a GitHub token", /\bgh[pousr]_[A-Za-z0-9_]{6,}/],
  ["an OpenAI-style key", /\bsk-[A-Za-z0-9_-]{6,}/],
  [
    "a password or token used by the tests",
    /correct horse battery|restart password|long enough pw|trpc password|cli password|trello-token-secret|atl-secret-token|e2e-trello-token/,
  ],
];

let lines = 0;
let problems = 0;
const files = readdirSync(dir).filter((f) => f.endsWith(".log"));
for (const file of files) {
  const text = readFileSync(path.join(dir, file), "utf8");
  for (const [i, line] of text.split("\n").entries()) {
    if (!line) continue;
    lines++;
    for (const [what, pattern] of FORBIDDEN) {
      if (pattern.test(line)) {
        problems++;
        if (problems <= 20) console.error(`${file}:${i + 1}: ${what}: ${line.slice(0, 300)}`);
      }
    }
  }
}
// An empty capture proves nothing: the run must have logged (requests, errors, jobs) for this to count.
if (lines < 1000) {
  console.error(
    `only ${lines} log lines were captured in ${dir}; is ATOMIZE_LOG_CAPTURE_DIR reaching the tests?`,
  );
  process.exit(1);
}
if (problems > 0) {
  console.error(`${problems} log lines hold secrets (of ${lines} lines in ${files.length} files)`);
  process.exit(1);
}
console.log(`logs: ${lines} lines in ${files.length} files, no secrets`);
