import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/** scripts/check-logs.mjs is the test that greps a whole run's logs: it must be able to fail. */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(lines: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "atomize-logs-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "a.log"), `${lines.join("\n")}\n`);
  return spawnSync(process.execPath, ["scripts/check-logs.mjs", dir], { encoding: "utf8" });
}

const clean = Array.from({ length: 1200 }, (_, i) =>
  JSON.stringify({ level: "debug", msg: "request", path: `/api/tasks/${i}`, status: 200 }),
);

describe("check-logs", () => {
  it("passes a clean capture", () => {
    expect(run(clean).status).toBe(0);
  });

  it.each([
    ["a failed query with its parameters", "Failed query: insert into users\\nparams: a@b.c,x"],
    ["a password hash", "$argon2id$v=19$m=19456,t=2,p=1$abc$def"],
    ["a session token", "abcdefghijklmnopqrstuvwx.abcdefghijklmnopqrstuvwxyz234567"],
    ["a test password", "login failed for correct horse battery"],
    ["a GitHub token", "ghp_connected"],
  ])("fails on %s", (_what, secret) => {
    const res = run([...clean, JSON.stringify({ level: "error", msg: "oops", detail: secret })]);
    expect(res.status).toBe(1);
  });

  it("fails when almost nothing was captured", () => {
    expect(run(clean.slice(0, 10)).status).toBe(1);
  });
});
