import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { type AppProcess, spawnApp, waitForReady } from "../support/process";
import { freePort } from "../support/server";

/**
 * When whatever reads the process's output goes away (a parent that died, a log collector restarting),
 * every log write fails with EPIPE. The process must go on serving, quietly: not crash, and not spin
 * logging the failure of its own logging.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-output-"));
let app: AppProcess | undefined;
afterAll(() => {
  if (app?.child.exitCode === null) app.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** CPU time (user + system, in seconds) the process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

it("keeps serving, without spinning, once its stdout and stderr are closed", async () => {
  const port = await freePort();
  app = spawnApp({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "debug" });
  await waitForReady(app);
  app.child.stdout!.destroy();
  app.child.stderr!.destroy();
  const base = `http://127.0.0.1:${port}`;
  // Log lines at every level: requests (debug), a registration (info), refused logins (warn on lock).
  for (let i = 0; i < 5; i++) {
    await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `out.${i}@example.com`, password: "a perfectly fine passphrase" }),
    });
  }
  await sleep(500);
  const before = cpuSeconds(app.child.pid!);
  await sleep(3000);
  const used = cpuSeconds(app.child.pid!) - before;
  expect(app.child.exitCode).toBeNull();
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  // Idle, it uses a few hundredths of a second; a logging loop would use all of the 3 s.
  expect(used).toBeLessThan(1);
});
