import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROCESS_CEILING_MS } from "./process";
import { freePort } from "./server";
import { waitUntil } from "./wait";

/**
 * nginx in front of app processes on loopback, run with the proxy configuration the compose file ships
 * (deploy/nginx.conf) as it is, but for two things: its upstream servers are the given loopback ports,
 * and it listens on a free loopback port. A real nginx (Debian's nginx-light, which `.ci/run` installs),
 * not a stand-in, so the test proves the configuration people deploy: round-robin, skipping a process
 * that is gone, WebSocket upgrades.
 */
export type Nginx = { url: string; stop(): Promise<void>; log(): string };

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export function renderNginxConf(conf: string, upstreams: number[], port: number): string {
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join("\n");
  const out = conf
    .replace(/# upstream servers\n[\s\S]*?# end of upstream servers\n/, `# upstream servers\n${servers}\n`)
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`);
  if (!out.includes(`127.0.0.1:${upstreams[0]}`) || !out.includes(`listen 127.0.0.1:${port};`)) {
    throw new Error("deploy/nginx.conf lost its upstream markers or its listen line");
  }
  return out;
}

export async function startNginx(upstreams: number[]): Promise<Nginx> {
  if (spawnSync(NGINX, ["-v"]).error) {
    throw new Error(`nginx not found at ${NGINX}: apt-get install -y nginx-light (or set NGINX_PATH)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "atomize-nginx-"));
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, renderNginxConf(readFileSync("deploy/nginx.conf", "utf8"), upstreams, port));
  const globals = ["daemon off;", `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`].join(" ");
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-c", conf, "-g", globals], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const log = () => {
    try {
      return readFileSync(`${dir}/error.log`, "utf8");
    } catch {
      return "";
    }
  };
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited:\n${log()}`);
      try {
        return (await fetch(`${url}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    { timeoutMs: PROCESS_CEILING_MS, message: () => `nginx on ${url}:\n${log()}` },
  );
  return {
    url,
    log,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGQUIT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
