import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { PROCESS_CEILING_MS } from "../support/process";
import { freePort } from "../support/server";
import { waitUntil } from "../support/wait";

/**
 * The image, built from the Dockerfile and run here (issue 45): `npm run test:container`. The build is
 * tests/container/build-image.sh (buildah, on a stand-in base made from Debian and the registry's Node);
 * the container runs the image's own command as the image's own user, with a data volume, through podman
 * (with runc: rlimits below the sandbox's hard limits, the host's loopback as its network).
 */
const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
const podman = (...args: string[]) => run("podman", ["--runtime", "runc", ...args]);

const suffix = randomBytes(4).toString("hex");
const volume = `atomize-test-data-${suffix}`;
const names: string[] = [];
let image: string;
let port: number;
let buildSeconds: number;

function start(name: string): { base: string; readyMs: Promise<number> } {
  names.push(name);
  const t0 = performance.now();
  podman(
    "run",
    "--detach",
    "--name",
    name,
    "--network",
    "host",
    "--no-healthcheck",
    "--ulimit",
    "nofile=20000:20000",
    "--ulimit",
    "nproc=4096:4096",
    // Loopback only: the image listens on every address by default (HOST=0.0.0.0), and here the host's
    // network is the container's.
    "--env",
    "HOST=127.0.0.1",
    "--env",
    `PORT=${port}`,
    "--volume",
    `${volume}:/data`,
    image,
  );
  const base = `http://127.0.0.1:${port}`;
  const readyMs = waitUntil(
    async () => {
      try {
        return (await fetch(`${base}/readyz`)).status === 200;
      } catch {
        return false;
      }
    },
    {
      timeoutMs: PROCESS_CEILING_MS,
      intervalMs: 20,
      message: () => `/readyz of ${name}:\n${podman("logs", name)}`,
    },
  ).then(() => performance.now() - t0);
  return { base, readyMs };
}

function stop(name: string): number {
  podman("stop", "--time", "20", name);
  return Number(podman("inspect", name, "--format", "{{.State.ExitCode}}"));
}

beforeAll(async () => {
  const t0 = performance.now();
  const built = spawnSync("bash", ["tests/container/build-image.sh"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (built.status !== 0) throw new Error(`the image did not build:\n${built.stderr.slice(-6000)}`);
  image = built.stdout.trim().split("\n").at(-1)!;
  buildSeconds = (performance.now() - t0) / 1000;
  port = await freePort();
  podman("volume", "create", volume);
});

afterAll(() => {
  for (const name of names) spawnSync("podman", ["--runtime", "runc", "rm", "--force", name]);
  spawnSync("podman", ["volume", "rm", "--force", volume]);
});

describe("the image", () => {
  let user: Awaited<ReturnType<typeof registerUser>>;
  let projectId: string;

  it("runs its own command as a user that is not root, plans a project, and passes its own health check", async () => {
    const first = start(`atomize-test-a-${suffix}`);
    const readyMs = await first.readyMs;
    // buildah's view keeps the Docker config whole (podman's drops the health check).
    const config = (
      JSON.parse(run("buildah", ["inspect", "--type", "image", image])) as { Docker: { config: unknown } }
    ).Docker.config as {
      User: string;
      Cmd: string[];
      Healthcheck: { Test: string[] };
      Env: string[];
    };
    expect(config.User).toBe("node");
    expect(config.Cmd).toEqual(["node", "dist/server/main.js"]);
    expect(podman("exec", names[0]!, "sh", "-c", "id -u; awk '/^Uid:/ {print $2}' /proc/1/status")).toBe(
      "1000\n1000",
    );

    const client = new TestClient(first.base);
    user = await registerUser(client);
    client.bearer = user.access_token;
    const created = await client.post("/api/tasks", {
      description: "A recipe site: users post recipes, search them by ingredient, and save favourites.",
    });
    expect(created.status, created.text).toBe(201);
    projectId = created.json.id as string;
    const done = await waitForStatus(client, projectId, ["completed", "failed"], PROCESS_CEILING_MS);
    expect(done.status).toBe("completed");
    expect((await client.get(`/api/tasks/${projectId}/tree`)).json.children.length).toBeGreaterThan(0);

    // The HEALTHCHECK the Dockerfile declares, run as Docker would inside the container.
    const [form, ...check] = config.Healthcheck.Test;
    const health =
      form === "CMD-SHELL"
        ? spawnSync("podman", ["--runtime", "runc", "exec", names[0]!, "sh", "-c", check.join(" ")])
        : spawnSync("podman", ["--runtime", "runc", "exec", names[0]!, ...check]);
    expect(health.status, String(health.stderr)).toBe(0);

    const size = Number(podman("image", "inspect", image, "--format", "{{.Size}}"));
    console.info(
      `image ${image}: ${(size / 1e6).toFixed(0)} MB; built in ${buildSeconds.toFixed(0)} s; ready ${readyMs.toFixed(0)} ms after podman run on a new volume`,
    );
  });

  it("holds no dev dependencies, no sources beyond what runs, and no secrets", () => {
    // What npm installs for production (dependencies, theirs, and the peers they ask for: TypeScript for
    // tRPC), read from this checkout's lock; the image may hold nothing else.
    const production = new Set(
      run("npm", ["ls", "--omit=dev", "--all", "--parseable"])
        .split("\n")
        .map((p) => path.relative(path.resolve("node_modules"), p))
        .filter((p) => p && !p.startsWith("..") && !p.includes("node_modules")),
    );
    const devDependencies = Object.keys(
      (JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> })
        .devDependencies,
    ).filter((name) => !production.has(name));
    expect(devDependencies).toEqual(
      expect.arrayContaining(["vitest", "@playwright/test", "@biomejs/biome", "vite"]),
    );
    const inside = JSON.parse(
      podman(
        "exec",
        names[0]!,
        "node",
        "-e",
        `const fs = require("node:fs");
         const dev = ${JSON.stringify(devDependencies)};
         const envFiles = [];
         const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
           if (e.name === "node_modules") continue;
           const p = d + "/" + e.name;
           if (e.isDirectory()) walk(p); else if (/^\\.env|\\.pem$|\\.key$/.test(e.name)) envFiles.push(p); } };
         walk("/app");
         const top = fs.readdirSync("/app/node_modules").filter((n) => !n.startsWith("."))
           .flatMap((n) => n.startsWith("@") ? fs.readdirSync("/app/node_modules/" + n).map((m) => n + "/" + m) : [n]);
         console.log(JSON.stringify({
           app: fs.readdirSync("/app").sort(),
           packages: top,
           devPresent: dev.filter((n) => fs.existsSync("/app/node_modules/" + n)),
           typescriptSources: fs.readdirSync("/app/dist", { recursive: true }).filter((f) => /\\.tsx?$/.test(f) && !f.endsWith(".d.ts")),
           envFiles,
         }));`,
      ),
    ) as {
      app: string[];
      packages: string[];
      devPresent: string[];
      typescriptSources: string[];
      envFiles: string[];
    };
    expect(inside.app).toEqual(["dist", "drizzle", "node_modules", "package.json", "scripts"]);
    expect(inside.devPresent).toEqual([]);
    expect(inside.packages.length).toBeGreaterThan(50);
    expect(inside.packages.filter((p) => !production.has(p))).toEqual([]);
    expect(inside.typescriptSources).toEqual([]);
    expect(inside.envFiles).toEqual([]);
    const env = JSON.parse(podman("image", "inspect", image, "--format", "{{json .Config.Env}}")) as string[];
    expect(env.filter((e) => /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i.test(e.split("=")[0]!))).toEqual([]);
    // What the running server made secret (the credentials key) lives on the volume, not in the image.
    expect(podman("exec", names[0]!, "sh", "-c", "ls -A /data")).not.toBe("");
  });

  it("stops on SIGTERM, and a new container on the same volume has the plan", async () => {
    expect(stop(names[0]!)).toBe(0);
    const second = start(`atomize-test-b-${suffix}`);
    const readyMs = await second.readyMs;
    const client = new TestClient(second.base);
    const login = await client.post("/api/auth/login", { email: user.email, password: user.password });
    expect(login.status, login.text).toBe(200);
    const task = await client.get(`/api/tasks/${projectId}`);
    expect([task.status, task.json.status]).toEqual([200, "completed"]);
    console.info(
      `a new container on the existing volume answered /readyz ${readyMs.toFixed(0)} ms after podman run`,
    );
    expect(stop(names[1]!)).toBe(0);
  });
});
