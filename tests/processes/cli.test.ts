import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { treeToCsv, treeToJson, treeToMarkdown } from "../../src/shared/export-formats";
import type { TaskTreeNode } from "../../src/shared/schemas/tasks";
import { APP_BUNDLE_ENV } from "../support/app-bundle";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { PROCESS_CEILING_MS } from "../support/process";
import { mapOf } from "../support/repository-map";
import { freePort, startTestServer, type TestServer } from "../support/server";

/**
 * `atomize`, the command line (issue 14): the real bin/atomize.mjs in a child process, against a real
 * server, with its login kept in a folder of the test's own (ATOMIZE_CONFIG_DIR).
 */

const BIN = fileURLToPath(new URL("../../bin/atomize.mjs", import.meta.url));
/**
 * The same code bundled once per run (tests/support/app-bundle.ts, as `npm run build` does): most runs use
 * it, so they do not compile TypeScript at each start; the usage test runs the real launcher.
 */
const BUNDLED = process.env[APP_BUNDLE_ENV] ? path.join(process.env[APP_BUNDLE_ENV], "atomize.js") : BIN;

let server: TestServer;
let owner: TestClient;
let writeToken: string;
let readToken: string;
const dirs: string[] = [];

type Run = { code: number; stdout: string; stderr: string };

function configDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "atomize-cli-"));
  dirs.push(dir);
  return dir;
}

/** Runs the CLI with its login kept in `dir`; no run may ever print a token. */
async function atomize(
  args: string[],
  opts: { dir: string; stdin?: string; token?: string; launcher?: boolean },
): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ATOMIZE_CONFIG_DIR: opts.dir };
  delete env.ATOMIZE_URL;
  delete env.ATOMIZE_TOKEN;
  if (opts.token) env.ATOMIZE_TOKEN = opts.token;
  const run = await new Promise<Run>((resolve) => {
    const script = opts.launcher ? BIN : BUNDLED;
    const child = execFile(
      process.execPath,
      [script, ...args],
      { cwd: tmpdir(), env },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
    child.stdin!.end(opts.stdin ?? "");
  });
  for (const token of [writeToken, readToken]) {
    expect(run.stdout, `stdout of atomize ${args.join(" ")}`).not.toContain(token);
    expect(run.stderr, `stderr of atomize ${args.join(" ")}`).not.toContain(token);
  }
  return run;
}

/** A config folder logged in to the test server with the write token. */
async function loggedIn(): Promise<string> {
  const dir = configDir();
  const login = await atomize(["login", "--url", server.url], { dir, stdin: `${writeToken}\n` });
  expect(login.code, login.stderr).toBe(0);
  return dir;
}

async function makeToken(scope: "read" | "write") {
  const res = await owner.post("/api/tokens", { name: `cli ${scope}`, scope });
  expect(res.status).toBe(201);
  return res.json as { id: string; token: string };
}

/** A project planned by the offline planner: one level of a few subtasks. */
async function plannedProject(description: string): Promise<string> {
  const created = await owner.post("/api/tasks", { description, max_depth: 1, max_subtasks: 3 });
  expect(created.status).toBe(201);
  const done = await waitForStatus(owner, created.json.id, ["completed", "failed"]);
  expect(done.status).toBe("completed");
  return created.json.id;
}

const tree = async (id: string): Promise<TaskTreeNode> =>
  (await owner.get(`/api/tasks/${id}/tree`)).json as any;

let project: string;
let projectTree: TaskTreeNode;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = new TestClient(server.url);
  await registerUser(owner, { full_name: "Cli Person" });
  writeToken = (await makeToken("write")).token;
  readToken = (await makeToken("read")).token;
  project = await plannedProject("Build a plant watering reminder app\nwith a weekly schedule");
  projectTree = await tree(project);
  expect(projectTree.children.length).toBeGreaterThan(1);
  dir = await loggedIn();
});
afterAll(async () => {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("atomize login and logout", () => {
  it("reads the token from a pipe, checks it, and keeps it readable by its owner only", async () => {
    const d = configDir();
    const login = await atomize(["login", "--url", `${server.url}/`], { dir: d, stdin: `${writeToken}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${server.url} as Cli Person <`);
    const file = path.join(d, "config.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: server.url, token: writeToken });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Later commands use the stored login without being told the server or the token.
    expect((await atomize(["projects"], { dir: d })).code).toBe(0);

    const logout = await atomize(["logout"], { dir: d });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("Logged out");
    expect(existsSync(file)).toBe(false);
    const after = await atomize(["projects"], { dir: d });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("Not logged in: run `atomize login`");
  });

  it("creates its config folder for its owner only, and answers --json", async () => {
    const d = path.join(configDir(), "nested", "atomize");
    const login = await atomize(["login", "--url", server.url, "--json"], { dir: d, stdin: writeToken });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ url: server.url, user: { full_name: "Cli Person" } });
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(d, "config.json")).mode & 0o777).toBe(0o600);

    // A config file it did not write is named, and a new login replaces it.
    writeFileSync(path.join(d, "config.json"), "{ not json");
    const broken = await atomize(["projects"], { dir: d });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("config.json is not a login this tool wrote: run `atomize login` again.");
    const again = await atomize(["login", "--url", server.url], { dir: d, stdin: writeToken });
    expect(again.code, again.stderr).toBe(0);
    expect(statSync(path.join(d, "config.json")).mode & 0o777).toBe(0o600);
  });

  it("refuses a bad token with a clear message and stores nothing", async () => {
    const d = configDir();
    const bad = await atomize(["login", "--url", server.url], { dir: d, stdin: "atz_not-a-real-token\n" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("atomize: The token was refused (expired or revoked?)");
    expect(bad.stderr).not.toContain("atz_not-a-real-token");
    expect(existsSync(path.join(d, "config.json"))).toBe(false);

    const empty = await atomize(["login", "--url", server.url], { dir: d, stdin: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("No token given");
  });

  it("says so when a stored token is revoked, or the server cannot be reached", async () => {
    const made = await makeToken("read");
    const d = configDir();
    expect((await atomize(["login", "--url", server.url], { dir: d, stdin: made.token })).code).toBe(0);
    expect((await owner.request("DELETE", `/api/tokens/${made.id}`)).status).toBe(204);
    const refused = await atomize(["projects"], { dir: d });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The token was refused (expired or revoked?)");
    expect(refused.stderr).not.toContain(made.token);

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const down = await atomize(["projects", "--url", nowhere], { dir: configDir(), token: writeToken });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`Could not reach the Atomize server at ${nowhere}`);
  });

  it("never sends the stored token to another server than the one it was made for", async () => {
    const other = `http://127.0.0.1:${await freePort()}`;
    const res = await atomize(["projects", "--url", other], { dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Not logged in to ${other}`);
  });
});

describe("atomize projects and plan", () => {
  it("lists the projects, as text and as the API's JSON", async () => {
    const text = await atomize(["projects"], { dir });
    expect(text.code).toBe(0);
    const line = text.stdout.split("\n").find((l) => l.startsWith(project));
    expect(line).toContain("Build a plant watering reminder app");
    expect(line).toMatch(/ 0\/\d+ done /);
    // The plan's state and the work's apart (issue 40): planned, and none of it done, never "completed".
    expect(line).toMatch(/ planned +not started +0\//);
    expect(line).not.toContain("completed");
    expect(line).not.toContain("weekly schedule");

    const json = await atomize(["projects", "--json"], { dir });
    const listed = JSON.parse(json.stdout).projects.find((p: { id: string }) => p.id === project);
    expect(listed).toMatchObject({ status: "completed", plan_state: "planned", work_state: "not_started" });
  });

  it("shows the plan as an outline with the critical path and the forecast", async () => {
    const res = await atomize(["plan", project], { dir });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split("\n");
    expect(lines[0]).toMatch(/^\[ \] {3}Build a plant watering reminder app {2}\(0\/\d+ done, \d+ SP\) {2}/);
    expect(lines[0]!.endsWith(project)).toBe(true);
    for (const child of projectTree.children) {
      const line = lines.find((l) => l.endsWith(child.id));
      expect(line, child.id).toMatch(/^ {2}\[ \] [* ] \S/);
      expect(line).toContain(child.description.split("\n")[0]!.slice(0, 40));
    }
    // At least one task is on the critical path, marked with a star.
    expect(lines.some((l) => /^ {2}\[ \] \* /.test(l))).toBe(true);
    expect(res.stdout).toMatch(/\* Critical path: \d+ tasks?, [\d.]+ h of work one after another\./);
    expect(res.stdout).toMatch(/Forecast for 1 person: P50 [\d.]+ days?, P90 [\d.]+ days?/);

    const json = JSON.parse((await atomize(["plan", project, "--json"], { dir })).stdout);
    expect(json.tree.id).toBe(project);
    expect(json.schedule.task_id).toBe(project);
  });

  it("says whether the plan waits for an approval, and who did what on it (issue 41)", async () => {
    const side = await plannedProject("A recipe box\nwith shopping lists");
    expect((await atomize(["plan", side], { dir })).stdout).not.toContain("Approval:");
    expect((await owner.request("PATCH", `/api/tasks/${side}`, { requires_approval: true })).status).toBe(
      200,
    );
    const waiting = await atomize(["plan", side], { dir });
    expect(waiting.stdout).toContain(
      "Approval: It needs an approval before it is exported: not approved yet.",
    );
    expect(JSON.parse((await atomize(["plan", side, "--json"], { dir })).stdout).review.state).toBe(
      "waiting",
    );
    await owner.post(`/api/tasks/${side}/reviews`, { decision: "approve" });
    expect((await atomize(["plan", side], { dir })).stdout).toContain(
      "Approval: Approved: it may be exported.",
    );

    const activity = await atomize(["activity", side], { dir });
    expect(activity.code, activity.stderr).toBe(0);
    const lines = activity.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}Cli Person approved the plan$/);
    expect(lines[1]).toMatch(/ {2}Cli Person made the plan need an approval before export$/);
    const json = JSON.parse((await atomize(["activity", side, "--json"], { dir })).stdout);
    expect(json.entries[0]).toMatchObject({ kind: "review", actor: { name: "Cli Person" } });
  });

  it("names a task that is not there", async () => {
    const res = await atomize(["plan", "00000000-0000-0000-0000-000000000000"], { dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^atomize: .*not found/i);
  });
});

describe("atomize new on a checkout (issue 42)", () => {
  it("maps the code on this machine, sends the map and no file, and plans a change with named files", async () => {
    const repo = path.resolve("tests/fixtures/repositories/node-express-invoices");
    const request =
      "Let us set a payment due date when creating an invoice, 30 days after sending by default.\n- List the sent invoices that are past their due date";
    const made = await atomize(["new", request, "--repo", repo, "--json"], { dir });
    expect(made.code, made.stderr).toBe(0);
    const task = JSON.parse(made.stdout);
    expect(task.description).toBe(request);
    const done = await waitForStatus(owner, task.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    const planned = await tree(task.id);
    // The stack it found, first in the plan's reasoning; a change to that code, not a new product.
    expect(planned.implementation_details).toMatch(
      /^Detected: Node 20, Express, PostgreSQL via Prisma, Jest\./,
    );
    const leaves: any[] = [];
    const walk = (n: any) => (n.children.length ? n.children.forEach(walk) : leaves.push(n));
    walk(planned);
    expect(leaves.map((l) => l.description).join("\n")).not.toMatch(
      /choose the stack|set up the repository|first release/i,
    );
    const files = leaves.flatMap((l) => l.files as { path: string; new: boolean }[]);
    expect(files.map((f) => f.path)).toContain("prisma/schema.prisma");
    // Existing files are the repository's; a new one is the migration the due date needs.
    for (const f of files) expect(existsSync(path.join(repo, f.path)), f.path).toBe(!f.new);
    expect(files.filter((f) => f.new).map((f) => f.path)).toEqual([
      expect.stringMatching(/^prisma\/migrations\/YYYYMMDDHHMMSS_\w+\/migration\.sql$/),
    ]);
    // Text output says what was mapped.
    const text = await atomize(["new", "Add a note field to customers", "--repo", repo], { dir });
    expect(text.stdout).toMatch(/Mapped \d+ files of node-express-invoices\./);
    // Not a folder: a sentence, nothing created.
    const missing = await atomize(["new", "x", "--repo", path.join(repo, "nope")], { dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such folder");
  });

  it("refuses a malformed map over REST with a sentence", async () => {
    const bad = await owner.post("/api/tasks", {
      description: "A change",
      repository_map: mapOf({ name: "x", files: [{ path: "../x", size: 1, language: null }] }),
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain("paths are relative to the repository, without ..");
    expect(
      (await owner.post("/api/tasks", { description: "A change", repository_map: { version: 2 } })).status,
    ).toBe(422);
    // A map may take a request past 1 MB, up to the documented 5 MB; past that, a 413 with a sentence.
    const empty = mapOf({ name: "big" });
    const files = (n: number, width: number) =>
      Array.from({ length: n }, (_, i) => ({
        path: `src/${String(i).padStart(width, "0")}.ts`,
        size: 1,
        language: "TypeScript",
      }));
    const big = await owner.post("/api/tasks", {
      description: "A change to a big repository",
      repository_map: { ...empty, files: files(15_000, 60) },
    });
    expect(big.status, big.text.slice(0, 200)).toBe(201);
    const huge = await owner.post("/api/tasks", {
      description: "Too big",
      repository_map: { ...empty, files: files(20_000, 300) },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.detail).toBe(
      "Request body is too large (limit 5 MB with a repository map): map a part of the repository (--repo takes a folder)",
    );
    // Elsewhere the limit stays 1 MB.
    expect((await owner.post("/api/teams", { name: "x".repeat(1_100_000) })).status).toBe(413);
  });
});

describe("atomize create, reading and plan-now (issue 38)", () => {
  it("creates a project for review, prints and replaces its reading, then plans it", async () => {
    const d = configDir();
    const file = path.join(d, "shopping.md");
    writeFileSync(
      file,
      "# Shared shopping list\n\n- Users can create lists\n- Items can be ticked off\n- Lists work offline\n",
    );
    const created = await atomize(["create", file, "--review", "--token", writeToken, "--url", server.url], {
      dir: d,
    });
    expect(created.code, created.stderr).toBe(0);
    const id = /Created ([0-9a-f-]{36}): read, not planned yet/.exec(created.stdout)?.[1];
    expect(id, created.stdout).toBeDefined();
    expect(created.stdout).toContain(`atomize plan-now ${id}`);
    const auth = { dir: d, token: writeToken };
    const at = ["--url", server.url];

    const shown = await atomize(["reading", id!, ...at], auth);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Planned as: new product \(product\), because /);
    expect(shown.stdout).toMatch(/^R1 +work +Users can create lists$/m);
    expect(shown.stdout).toMatch(/^R3 +work +Lists work offline$/m);
    const json = JSON.parse((await atomize(["reading", id!, "--json", ...at], auth)).stdout);
    expect(json.items).toHaveLength(3);

    // The JSON file as a person edits it: a role changed, the kind chosen; a bad role is named.
    const edited = path.join(d, "reading.json");
    const items = json.items.map(({ text, role }: { text: string; role: string }) => ({ text, role }));
    items[2].role = "non_goal";
    writeFileSync(
      edited,
      JSON.stringify({ kind: "feature", items: [...items, { text: "x", role: "chore" }] }),
    );
    const refused = await atomize(["reading", id!, "--set", edited, ...at], auth);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("items.3.role: role must be one of work, context, non_goal");
    writeFileSync(edited, JSON.stringify({ kind: "feature", items }));
    const set = await atomize(["reading", id!, "--set", edited, ...at], auth);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /^Planned as: feature on an existing product \(feature\), because you chose it/,
    );
    expect(set.stdout).toMatch(/^#3 +non-goal +Lists work offline$/m);
    const notJson = await atomize(["reading", id!, "--set", file, ...at], auth);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("is not JSON");

    const planning = await atomize(["plan-now", id!, ...at], auth);
    expect(planning.code, planning.stderr).toBe(0);
    expect(planning.stdout).toContain(`atomize plan ${id}`);
    await waitForStatus(owner, id!, ["completed"], PROCESS_CEILING_MS);
    const again = await atomize(["plan-now", id!, ...at], auth);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/awaiting_review/);
    expect((await owner.get(`/api/tasks/${id}`)).json.stated_scope.planned_as.kind).toBe("feature");
  });

  it("creates a project from stdin and plans it at once without --review", async () => {
    const res = await atomize(["create", "-", "--json"], {
      dir,
      stdin: "A recipe box app with tags and search\n",
    });
    expect(res.code, res.stderr).toBe(0);
    const task = JSON.parse(res.stdout);
    expect(["pending", "processing", "completed"]).toContain(task.status);
    await waitForStatus(owner, task.id, ["completed"], PROCESS_CEILING_MS);
  });
});

describe("atomize next, start and done", () => {
  // Up to four processes per step: room on a loaded machine.
  it("walks a plan to the end: next, then done, until everything is done", async () => {
    const walk = await plannedProject("Write a changelog generator");
    const leaves = (await tree(walk)).children.map((c) => c.id);
    const completed: string[] = [];
    for (let step = 0; step <= leaves.length; step++) {
      const next = await atomize(["next", walk], { dir });
      expect(next.code, next.stderr).toBe(0);
      if (next.stdout.startsWith("Everything in")) break;
      expect(next.stdout).toMatch(/^\d+ tasks? (is|are) ready/m);
      const id = next.stdout.match(/^id: (\S+)$/m)![1]!;
      expect(leaves).toContain(id);
      expect(next.stdout).toMatch(/^Next: \S/);
      expect(next.stdout).toContain("Acceptance criteria:\n  - ");
      expect(next.stdout).toContain(`When it is done: atomize done ${id}`);
      if (step === 0) {
        // A started task stays in view; the next one is another ready task, if there is one.
        const started = await atomize(["start", id], { dir });
        expect(started.stdout).toMatch(/^Started: .+ {2}\S+\n$/);
        const again = await atomize(["next", walk], { dir });
        if (again.stdout.startsWith("Continue: ")) expect(again.stdout).toContain(`id: ${id}`);
        else expect(again.stdout).toContain(`Already in progress:\n  - `);
      }
      if (step === 0) {
        // Hours are a number of hours; the server keeps what the CLI sends.
        const wrong = await atomize(["done", id, "--hours", "a lot"], { dir });
        expect(wrong.code).toBe(2);
        expect(wrong.stderr).toContain("--hours must be a number of hours, 0 or more (got a lot).");
      }
      const done = await atomize(["done", id, ...(step === 0 ? ["--hours", "2.5"] : [])], { dir });
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain(`Done: `);
      if (step === 0) {
        expect(done.stdout).toContain("Took 2.5 h");
        expect((await tree(id)).actual_hours).toBe(2.5);
      }
      expect(done.stdout).toContain(`What now: atomize next ${walk}`);
      completed.push(id);
    }
    expect(completed.sort()).toEqual([...leaves].sort());
    const last = await atomize(["next", walk], { dir });
    expect(last.code).toBe(0);
    expect(last.stdout).toBe("Everything in this plan is done.\n");
    expect(JSON.parse((await atomize(["next", walk, "--json"], { dir })).stdout).task).toBeNull();
    const plan = await atomize(["plan", walk], { dir });
    expect(plan.stdout).toMatch(/^\[x\] {3}Write a changelog generator/);
    expect(plan.stdout).toContain("Nothing left to do.");
  });

  it("shows what the next task unblocks, and its JSON", async () => {
    const first = JSON.parse((await atomize(["next", project, "--json"], { dir })).stdout);
    const leaf = first.task;
    expect(projectTree.children.map((c) => c.id)).toContain(leaf.id);
    // Make another task wait for it (a ready task waits for nothing, so this closes no cycle).
    const after = projectTree.children.find((c) => c.id !== leaf.id && !c.depends_on.includes(leaf.id));
    if (after) {
      const added = await owner.post(`/api/tasks/${after.id}/dependencies`, { depends_on: leaf.id });
      expect(added.status).toBe(201);
    }
    const waiting = after ?? projectTree.children.find((c) => c.id !== leaf.id)!;

    const res = await atomize(["next", project], { dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`id: ${leaf.id}`);
    expect(res.stdout).toContain(`Unblocks:\n  - `);
    expect(res.stdout).toContain(waiting.id);
    const json = JSON.parse((await atomize(["next", project, "--json"], { dir })).stdout);
    expect(json.task.id).toBe(leaf.id);
    expect(json.task.depends_on).toEqual([]);
    expect(json.task.blocks.map((t: { id: string }) => t.id)).toContain(waiting.id);
    if (after) {
      const removed = await owner.request("DELETE", `/api/tasks/${after.id}/dependencies/${leaf.id}`);
      expect(removed.status).toBe(204);
    }
  });

  it("refuses a read-only token's done with the server's reason", async () => {
    const leaf = projectTree.children[0]!;
    const res = await atomize(["done", leaf.id, "--url", server.url], { dir: configDir(), token: readToken });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("atomize: This API token is read-only: make a write token to change anything.\n");
    expect((await owner.get(`/api/tasks/${leaf.id}`)).json.status).not.toBe("completed");
  });
});

describe("atomize export", () => {
  it.each([
    ["md", treeToMarkdown],
    ["csv", treeToCsv],
    ["json", treeToJson],
  ] as const)("--format %s writes what the app's download writes", async (format, convert) => {
    const expected = convert(await tree(project));
    const res = await atomize(["export", project, "--format", format], { dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(expected);

    const file = path.join(configDir(), `plan.${format}`);
    const toFile = await atomize(["export", project, "--format", format, "--output", file], { dir });
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe("");
    expect(readFileSync(file, "utf8")).toBe(expected);
  });
});

describe("text others wrote", () => {
  // It retitles the window (OSC), clears the screen (CSI), sets red by the 8-bit CSI, resets the terminal
  // (ESC c) and sends a DCS query.
  const HOSTILE = "Water \x1b]0;pwned\x07the \x1b[2Jplants now\x9b31m done\x1bc.\x1bP+q544e\x1b\\";
  // A carriage return would let the rest print over the line (a title ends at one, so it is here).
  const CRITERION = `${HOSTILE}\r Fake: all done`;
  const CLEAN = "Water the plants now done.";
  const controls = (text: string) =>
    [...text].filter((ch) => {
      const c = ch.charCodeAt(0);
      return (c < 0x20 && ch !== "\n") || (c >= 0x7f && c < 0xa0);
    });

  it("reaches the terminal without its escape sequences, and --json byte for byte", async () => {
    const id = await plannedProject(`${HOSTILE}\nevery morning`);
    const leaves = (await tree(id)).children;
    for (const leaf of leaves) {
      const patched = await owner.request("PATCH", `/api/tasks/${leaf.id}`, {
        description: `${HOSTILE}\n${HOSTILE}`,
        implementation_details: HOSTILE,
        acceptance_criteria: [CRITERION],
      });
      expect(patched.status, patched.text).toBe(200);
    }

    for (const args of [["projects"], ["plan", id], ["next", id], ["start", leaves[0]!.id]]) {
      const res = await atomize(args, { dir });
      expect(res.code, res.stderr).toBe(0);
      expect(controls(res.stdout), `atomize ${args.join(" ")}`).toEqual([]);
      expect(res.stdout).toContain(CLEAN);
    }
    const next = await atomize(["next", id], { dir });
    expect(next.stdout).toContain(`Description:\n  ${CLEAN}\n`);
    expect(next.stdout).toContain(`Acceptance criteria:\n  - ${CLEAN} Fake: all done\n`);

    for (const [args, api] of [
      [["next", id, "--json"], `/api/tasks/${id}/next`],
      [["projects", "--json"], "/api/projects?limit=100"],
    ] as const) {
      const res = await atomize([...args], { dir });
      expect(res.stdout).toBe(`${JSON.stringify((await owner.get(api)).json, null, 2)}\n`);
    }
    const json = JSON.parse((await atomize(["next", id, "--json"], { dir })).stdout);
    expect(json.task.description).toBe(`${HOSTILE}\n${HOSTILE}`);
    expect(json.task.acceptance_criteria).toEqual([CRITERION]);

    // What the command line says about its own input is cleaned too.
    const usage = await atomize([HOSTILE], { dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain(`Unknown command: ${CLEAN}`);
    expect(controls(usage.stderr)).toEqual([]);
  });
});

describe("usage errors", () => {
  it.each([
    [["frobnicate"], "Unknown command: frobnicate"],
    [["projects", "--frob"], "Unknown option '--frob'"],
    [["plan"], "Missing the id: atomize plan <id>"],
    [["plan", "a", "b"], "Unexpected argument: b"],
    [["plan", "a", "--format", "md"], "--format is not an option of `atomize plan`"],
    [["export", "a", "--format", "pdf"], "--format must be md, csv or json"],
    [["export", "a"], "Which format?"],
    [["export", "a", "--json", "--format", "md"], "--json exports JSON; leave out --format."],
    [["projects", "--url", "ftp://example.com"], "The server URL must start with http:// or https://"],
  ])("atomize %j exits 2", async (args, message) => {
    const res = await atomize(args, { dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`atomize: ${message}`);
    expect(res.stderr).toContain("Run `atomize help` for usage.");
    expect(res.stdout).toBe("");
  });

  it("prints the usage and the version", async () => {
    for (const args of [[], ["help"], ["--help"], ["plan", "-h"]]) {
      const res = await atomize(args, { dir, launcher: true });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("Usage: atomize <command> [options]");
      for (const command of ["create <file|->", "reading <id>", "plan-now <id>"])
        expect(res.stdout).toContain(command);
    }
    const version = await atomize(["--version"], { dir, launcher: true });
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(version.stdout).toBe(`${pkg.version}\n`);
  });
});
