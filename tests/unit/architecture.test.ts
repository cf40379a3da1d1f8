import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXPORT_KINDS } from "../../src/shared/schemas/integrations";

/**
 * The one-way rule of the server's rooms (decisions 028 and 039), read from the import statements themselves:
 *
 *   adapters (trpc/, rest/, mcp/, realtime/, ssr/) -> operations/ (declarations and their machinery)
 *     -> http/ (the session as HTTP carries it, and what every HTTP adapter shares)
 *     -> services/ -> engine/ -> plan/ -> the base (db/, lib/, jobs/, integrations/, events/, ...)
 *
 * A file may import its own layer and any layer below, except that adapters reach the layers below
 * operations only through operations (invoke), and an adapter imports no other adapter (server.ts hands
 * one to another where they meet, as the tRPC sockets reach realtime/); nothing imports upwards. The composition roots (main.ts,
 * server.ts, app.ts, commands/) wire everything and are exempt. `deps.ts` is the one type every layer
 * receives: it may name any layer's types. The client imports server code only as types.
 */

const SERVER = "src/server";
const ROOTS = new Set(["main.ts", "server.ts", "app.ts"]);

type Layer = "root" | "adapter" | "http" | "operations" | "services" | "engine" | "plan" | "base";
const ADAPTERS = ["trpc", "rest", "mcp", "realtime", "ssr"];
const RANK: Record<Layer, number> = {
  root: 7,
  adapter: 6,
  operations: 5,
  http: 4,
  services: 3,
  engine: 2,
  plan: 1,
  base: 0,
};

function layerOf(file: string): Layer | null {
  if (!file.startsWith(`${SERVER}/`)) return file.startsWith("src/shared/") ? "base" : null;
  const rel = file.slice(SERVER.length + 1);
  const top = rel.split("/")[0]!;
  if (ROOTS.has(rel) || top === "commands") return "root";
  if (ADAPTERS.includes(top)) return "adapter";
  if (top === "http") return "http";
  if (top === "operations" || top === "services" || top === "engine" || top === "plan") return top;
  return "base";
}

const topOf = (file: string) => file.slice(SERVER.length + 1).split("/")[0];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

type Import = { from: string; to: string; typeOnly: boolean };

const IMPORT = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*["']([^"']+)["']/gm;
const BARE_IMPORT = /^\s*import\s+["']([^"']+)["']/gm;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.normalize(path.join(path.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return null;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const to = resolve(file, m[4]!);
    if (!to) continue;
    const clause = m[3]!.trim();
    // `import type {…}`, or every named specifier marked `type`.
    const named = clause.match(/^\{([\s\S]*)\}$/)?.[1];
    const specifiers = named
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const allTyped = specifiers?.every((s) => s.startsWith("type ")) ?? false;
    out.push({ from: file, to, typeOnly: Boolean(m[2]) || allTyped });
  }
  for (const m of text.matchAll(BARE_IMPORT)) {
    const to = resolve(file, m[1]!);
    if (to) out.push({ from: file, to, typeOnly: false });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    const to = resolve(file, m[1]!);
    if (to) out.push({ from: file, to, typeOnly: false });
  }
  return out;
}

/** Why an import breaks the rule, or null. */
function violation(i: Import): string | null {
  const from = layerOf(i.from);
  const to = layerOf(i.to);
  if (!from || !to || from === "root") return null;
  if (i.from === `${SERVER}/deps.ts` && i.typeOnly) return null;
  if (RANK[to] > RANK[from]) return `${from} imports ${to}`;
  if (from === "adapter" && (to === "services" || to === "engine" || to === "plan") && !i.typeOnly)
    return `an adapter reaches ${to} without going through operations`;
  if (from === "adapter" && to === "adapter" && topOf(i.from) !== topOf(i.to))
    return "an adapter imports another";
  return null;
}

describe("the server's rooms", () => {
  const files = sourceFiles(SERVER);
  const imports = files.flatMap(importsOf);

  it("reads the imports it judges", () => {
    expect(files.length).toBeGreaterThan(150);
    // Sanity: the rule sees the engine's imports of the plan, and the adapters' of operations.
    expect(imports.some((i) => layerOf(i.from) === "engine" && layerOf(i.to) === "plan")).toBe(true);
    expect(imports.some((i) => layerOf(i.from) === "adapter" && layerOf(i.to) === "operations")).toBe(true);
  });

  it("imports only downwards: adapters -> operations -> http -> services -> engine -> plan -> base", () => {
    const broken = imports.flatMap((i) => {
      const why = violation(i);
      return why ? [`${i.from} -> ${i.to}: ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it("would catch an import the wrong way", () => {
    expect(
      violation({ from: `${SERVER}/plan/rows.ts`, to: `${SERVER}/engine/jobs.ts`, typeOnly: false }),
    ).toBe("plan imports engine");
    expect(
      violation({
        from: `${SERVER}/engine/root.ts`,
        to: `${SERVER}/services/tasks/tasks.ts`,
        typeOnly: true,
      }),
    ).toBe("engine imports services");
    expect(
      violation({ from: `${SERVER}/rest/blog.ts`, to: `${SERVER}/services/blog/posts.ts`, typeOnly: false }),
    ).toBe("an adapter reaches services without going through operations");
    expect(
      violation({ from: `${SERVER}/operations/tasks.ts`, to: `${SERVER}/trpc/router.ts`, typeOnly: false }),
    ).toBe("operations imports adapter");
    expect(
      violation({ from: `${SERVER}/realtime/websocket.ts`, to: `${SERVER}/trpc/router.ts`, typeOnly: false }),
    ).toBe("an adapter imports another");
    expect(
      violation({
        from: `${SERVER}/http/session.ts`,
        to: `${SERVER}/operations/context.ts`,
        typeOnly: false,
      }),
    ).toBe("http imports operations");
  });
});

/**
 * A use case (something a user does: a function of `(deps, userId, …)`) lives in services/, where the
 * ownership checks are (issue 44); the engine and the plan below take rows or ids already checked. The
 * one function of that shape below services/ is the check itself (plan/owned.ts `getOwnedRow`).
 */
const USE_CASE = /^export (?:async )?function (\w+)\(\s*deps: Deps,\s*userId: string/gm;

function useCasesIn(dir: string): string[] {
  return sourceFiles(dir).flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(USE_CASE)].map((m) => `${f}: ${m[1]}`),
  );
}

describe("use cases", () => {
  it("live in services/, not in the engine or the plan", () => {
    expect(useCasesIn(`${SERVER}/services`).length).toBeGreaterThan(50);
    expect([...useCasesIn(`${SERVER}/engine`), ...useCasesIn(`${SERVER}/plan`)]).toEqual([
      `${SERVER}/plan/owned.ts: getOwnedRow`,
    ]);
  });
});

/**
 * One use case per file (issue 44): a file in services/ offers the code above it (the adapters, the
 * operations, the jobs) one function, the use case it is named for; what several use cases share is
 * imported by them, not by the code above. A namespace import (`import * as x`) would hide how many a
 * file offers, so it counts as a violation too.
 */
function servicesOffered(files: string[]): Map<string, Set<string>> {
  const offered = new Map<string, Set<string>>();
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const to = resolve(file, m[4]!);
      if (!to?.startsWith(`${SERVER}/services/`) || m[1] !== "import" || m[2]) continue;
      const clause = m[3]!.trim();
      const names = clause.startsWith("* as")
        ? [clause]
        : (clause.match(/\{([\s\S]*)\}/)?.[1] ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s && !s.startsWith("type "))
            .map((s) => s.split(/\s+as\s+/)[0]!);
      const set = offered.get(to) ?? new Set<string>();
      for (const n of names) set.add(n);
      offered.set(to, set);
    }
  }
  return offered;
}

const crowded = (offered: Map<string, Set<string>>) =>
  [...offered]
    .filter(([, names]) => names.size > 1 || [...names].some((n) => n.startsWith("* as")))
    .map(([f]) => f);

describe("one use case per file", () => {
  const above = sourceFiles(SERVER).filter((f) => !f.startsWith(`${SERVER}/services/`));

  it("each file in services/ offers the code above it one function", () => {
    const offered = servicesOffered(above);
    expect(offered.size).toBeGreaterThan(100);
    expect(crowded(offered)).toEqual([]);
  });

  it("would catch a file offering two, or a namespace import", () => {
    const offered = new Map([
      [`${SERVER}/services/teams/one.ts`, new Set(["createTeam"])],
      [`${SERVER}/services/teams/two.ts`, new Set(["createTeam", "listTeams"])],
      [`${SERVER}/services/teams/three.ts`, new Set(["* as teams"])],
    ]);
    expect(crowded(offered)).toEqual([
      `${SERVER}/services/teams/two.ts`,
      `${SERVER}/services/teams/three.ts`,
    ]);
  });
});

/**
 * The client by feature (issue 44): each folder of `src/client/features/` is a feature, and the task
 * page's parts are features of their own under `features/tasks/`: the tree, the side panel, the plan,
 * requirements, history, re-plan, the live progress and exports. A feature imports no other feature;
 * what several need lives below them (`components/`, `lib/`, `src/shared/`, and for the task page's parts
 * `features/tasks/shared/`, which imports none of them). Only a page composes features: the files at the
 * top of `features/tasks/` (the task page, the create page, the overview and subtasks tabs), and the
 * routes above them.
 */
const FEATURES = "src/client/features";
const TASK_PARTS = ["tree", "side-panel", "plan", "requirements", "history", "replan", "live", "exports"];

/** The feature a client file belongs to ("tasks/plan", "settings"), "tasks" for the task pages, or null. */
function featureOf(file: string): string | null {
  if (!file.startsWith(`${FEATURES}/`)) return null;
  const [feature, part, ...rest] = file.slice(FEATURES.length + 1).split("/");
  if (feature !== "tasks" || rest.length === 0) return feature!;
  return TASK_PARTS.includes(part!) || part === "shared" ? `tasks/${part}` : "tasks";
}

function clientViolation(i: Import): string | null {
  const from = featureOf(i.from);
  const to = featureOf(i.to);
  if (!from || !to || from === to || (from === "tasks" && to.startsWith("tasks/"))) return null;
  if (to === "tasks/shared" && from.startsWith("tasks/")) return null;
  return `${from} imports ${to}`;
}

describe("the client", () => {
  it("imports server code only as types", () => {
    const broken = sourceFiles("src/client")
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith(`${SERVER}/`) && !i.typeOnly)
      .map((i) => `${i.from} -> ${i.to}`);
    expect(broken).toEqual([]);
  });

  it("keeps features apart: no feature imports another, only pages compose them", () => {
    const files = sourceFiles(FEATURES);
    expect(new Set(files.map(featureOf))).toEqual(
      new Set([
        ...TASK_PARTS.map((p) => `tasks/${p}`),
        "tasks",
        "tasks/shared",
        ...readdirSync(FEATURES).filter((f) => f !== "tasks"),
      ]),
    );
    const broken = files
      .flatMap(importsOf)
      .map((i) => [i, clientViolation(i)] as const)
      .filter(([, why]) => why)
      .map(([i, why]) => `${i.from} -> ${i.to}: ${why}`);
    expect(broken).toEqual([]);
  });

  it("would catch a feature reaching into another", () => {
    const at = (file: string, to: string) =>
      clientViolation({ from: `${FEATURES}/${file}`, to: `${FEATURES}/${to}`, typeOnly: false });
    expect(at("settings/planner-summary.tsx", "tasks/shared/task-tree.ts")).toBe(
      "settings imports tasks/shared",
    );
    expect(at("tasks/plan/plan-tab.tsx", "tasks/tree/task-tree-view.tsx")).toBe(
      "tasks/plan imports tasks/tree",
    );
    expect(at("tasks/shared/task-tree.ts", "tasks/task-detail-page.tsx")).toBe("tasks/shared imports tasks");
    expect(at("tasks/task-detail-page.tsx", "tasks/plan/plan-tab.tsx")).toBeNull();
    expect(at("tasks/side-panel/notes-section.tsx", "tasks/shared/use-task-detail.ts")).toBeNull();
  });
});

/**
 * The trackers (decision 038): each one (JIRA, Trello, GitHub) is one folder under services/exports/
 * behind the `Tracker` interface, registered in exports/trackers.ts. The shared export code reaches a
 * tracker only through `deps.trackers[kind]`: it imports no tracker's folder and names no tracker, so a new
 * one needs no edit there; and no tracker imports another.
 */
describe("the trackers", () => {
  const EXPORTS = `${SERVER}/services/exports`;
  const folders = readdirSync(EXPORTS).filter((n) => statSync(path.join(EXPORTS, n)).isDirectory());
  const shared = sourceFiles(EXPORTS).filter(
    (f) => path.dirname(f) === EXPORTS && !f.endsWith("/trackers.ts"),
  );
  const folderOf = (file: string) =>
    file.startsWith(`${EXPORTS}/`)
      ? file
          .slice(EXPORTS.length + 1)
          .split("/")
          .slice(0, -1)[0]
      : undefined;

  /** Why a shared export file depends on one tracker, or null. */
  function namesATracker(file: string, text: string, imports: Import[]): string | null {
    const into = imports.find((i) => folderOf(i.to) !== undefined);
    if (into) return `${file} imports ${into.to}`;
    const literal = folders.find((k) => new RegExp(`["'\`]${k}["'\`]`).test(text));
    return literal ? `${file} names the tracker "${literal}"` : null;
  }

  it("has a folder for each tracker and the shared files beside them", () => {
    expect(folders.sort()).toEqual([...EXPORT_KINDS].sort());
    expect(shared.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(["exports.ts", "runner.ts", "sync.ts", "webhooks.ts", "tracker.ts"]),
    );
  });

  it("leaves the shared export code free of any one tracker", () => {
    const broken = shared.flatMap((f) => {
      const why = namesATracker(f, readFileSync(f, "utf8"), importsOf(f));
      return why ? [why] : [];
    });
    expect(broken).toEqual([]);
  });

  it("keeps each tracker out of the others' folders", () => {
    const broken = sourceFiles(EXPORTS)
      .flatMap(importsOf)
      .filter((i) => folderOf(i.from) && folderOf(i.to) && folderOf(i.from) !== folderOf(i.to))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(broken).toEqual([]);
  });

  it("would catch a tracker named in shared code", () => {
    const file = `${EXPORTS}/sync.ts`;
    expect(namesATracker(file, 'if (kind === "jira") {}', [])).toBe(`${file} names the tracker "jira"`);
    expect(
      namesATracker(file, "", [{ from: file, to: `${EXPORTS}/github/pull-requests.ts`, typeOnly: false }]),
    ).toBe(`${file} imports ${EXPORTS}/github/pull-requests.ts`);
  });
});
