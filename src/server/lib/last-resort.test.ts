import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("last-resort handlers", () => {
  it("log an escaped exception and rejection, and the process goes on", () => {
    const script = `
      import { installLastResortHandlers } from "./src/server/lib/last-resort.ts";
      import { createLogger } from "./src/server/lib/logger.ts";
      installLastResortHandlers(createLogger("info"));
      setTimeout(() => { throw new Error("escaped from a timer"); }, 10);
      setTimeout(() => { Promise.reject(new Error("nobody awaited this")); }, 20);
      setTimeout(() => { console.log("still serving"); }, 200);
    `;
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(res.status).toBe(0);
    expect(res.stderr).toMatch(/"msg":"uncaught exception \(still serving\)".*escaped from a timer/);
    expect(res.stderr).toMatch(/"msg":"unhandled promise rejection \(still serving\)".*nobody awaited this/);
    expect(res.stdout).toContain("still serving");
  });
});
