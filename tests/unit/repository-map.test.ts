import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mapLocalRepository } from "../../src/cli/local-repository";
import { briefOfText, onRepository } from "../../src/server/engine/brief";
import { filesIn, indexRepository, withLikelyFiles } from "../../src/server/engine/repository/likely-files";
import { collisionsIn } from "../../src/server/plan/order";
import { detectStack } from "../../src/shared/repository-map/stack";
import { symbolsOf } from "../../src/shared/repository-map/symbols";
import { REPOSITORY_MAP_LIMITS, repositoryMap } from "../../src/shared/schemas/repository-map";
import { mapOf } from "../support/repository-map";

/** The repository map (issue 42): what a checkout gives, what it never holds, and what it is read for. */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function checkout(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), "atomize-map-"));
  dirs.push(root);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.join(root, path.dirname(p)), { recursive: true });
    writeFileSync(path.join(root, p), text);
  }
  return root;
}

describe("a map of a checkout", () => {
  it("lists what git would, reads manifests, README, symbols and tests, and keeps no contents", async () => {
    const secret = "DATABASE_PASSWORD=hunter2";
    const root = checkout({
      ".gitignore": "dist/\n*.log\n.env\n",
      ".env": secret,
      "app.log": "noise",
      "dist/bundle.js": "export const x = 1;",
      "node_modules/left-pad/index.js": "module.exports = 1;",
      "packages/web/.gitignore": "generated/\n",
      "packages/web/generated/api.ts": "export const generated = 1;",
      "packages/web/src/page.tsx": "export default function Page() { return null; }\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/refs/heads/main": "0123456789abcdef0123456789abcdef01234567\n",
      "package.json": JSON.stringify({
        engines: { node: ">=20" },
        scripts: { test: "jest", start: "node src/server.js" },
        dependencies: { express: "^4", "@prisma/client": "^5", pg: "^8" },
        devDependencies: { jest: "^29", prisma: "^5" },
      }),
      "README.md":
        "# Invoices\n\n[![ci](x.svg)](y)\n\nSmall invoicing API.\n\n```sh\nnpm start\n```\n\n## Running\n",
      CODEOWNERS: "src/routes/ @api-team\n",
      "src/routes/invoices.js": [
        "const express = require('express');",
        "const router = express.Router();",
        "router.get('/invoices', list);",
        "router.post('/invoices/:id/send', send);",
        "export function sendInvoice(invoice) {}",
        `const token = "${secret}";`,
      ].join("\n"),
      "src/db/schema.ts":
        'export const invoices = pgTable("invoices", {});\nexport interface Invoice { id: string }\n',
      "tests/invoices.test.js": "test('x', () => {});",
      "docs/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
    });
    const map = await mapLocalRepository(root);
    expect(repositoryMap.safeParse(map).success).toBe(true);
    const paths = map.files.map((f) => f.path);
    expect(paths).toEqual([
      ".gitignore",
      "CODEOWNERS",
      "README.md",
      "docs/logo.png",
      "package.json",
      "packages/web/.gitignore",
      "packages/web/src/page.tsx",
      "src/db/schema.ts",
      "src/routes/invoices.js",
      "tests/invoices.test.js",
    ]);
    expect(map.commit).toBe("0123456789abcdef0123456789abcdef01234567");
    expect(map.files.find((f) => f.path === "src/db/schema.ts")?.language).toBe("TypeScript");
    expect(map.manifests).toEqual([
      {
        path: "package.json",
        kind: "npm",
        dependencies: ["express", "@prisma/client", "pg", "jest", "prisma"],
        runtime: "node >=20",
        scripts: ["test", "start"],
      },
    ]);
    expect(map.readme).toEqual({
      path: "README.md",
      headings: ["Invoices", "Running"],
      intro: "Small invoicing API.",
    });
    expect(map.codeowners).toEqual([{ pattern: "src/routes/", owners: ["@api-team"] }]);
    expect(map.tests).toEqual(["tests"]);
    expect(map.symbols).toContainEqual({
      path: "src/routes/invoices.js",
      names: [
        { name: "GET /invoices", kind: "route" },
        { name: "POST /invoices/:id/send", kind: "route" },
        { name: "sendInvoice", kind: "function" },
      ],
    });
    expect(map.symbols).toContainEqual({
      path: "src/db/schema.ts",
      names: [
        { name: "invoices", kind: "table" },
        { name: "invoices", kind: "constant" },
        { name: "Invoice", kind: "type" },
      ],
    });
    // Nothing of a file's contents but names: not the secret, not a line of code.
    const json = JSON.stringify(map);
    expect(json).not.toContain("hunter2");
    expect(json).not.toContain("express.Router");
    expect(detectStack(map).sentence).toBe("Detected: Node 20, Express, PostgreSQL via Prisma, Jest");
  });

  it("refuses what is not a folder, and a map over its limits with a sentence", async () => {
    await expect(mapLocalRepository("/nonexistent/atomize")).rejects.toThrow("no such folder");
    const base = mapOf({ name: "x" });
    const files = Array.from({ length: REPOSITORY_MAP_LIMITS.paths + 1 }, (_, i) => ({
      path: `f${i}.ts`,
      size: 1,
      language: null,
    }));
    const tooMany = repositoryMap.safeParse({ ...base, files });
    expect(tooMany.error?.issues[0]?.message).toMatch(/^a map has at most 20000 paths/);
    const escaping = repositoryMap.safeParse({
      ...base,
      files: [{ path: "../etc/passwd", size: 1, language: null }],
    });
    expect(escaping.error?.issues[0]?.message).toBe("paths are relative to the repository, without ..");
  });
});

describe("symbols of other languages", () => {
  it("reads top-level declarations, routes and models", () => {
    expect(
      symbolsOf(
        '@app.get("/tasks")\nasync def list_tasks():\n    pass\nclass Task(Base):\n    pass\n',
        "Python",
        10,
      ),
    ).toEqual([
      { name: "GET /tasks", kind: "route" },
      { name: "list_tasks", kind: "function" },
      { name: "Task", kind: "model" },
    ]);
    expect(
      symbolsOf("package x\nfunc CreateBooking() {}\nfunc helper() {}\ntype Booking struct {}\n", "Go", 10),
    ).toEqual([
      { name: "CreateBooking", kind: "function" },
      { name: "Booking", kind: "class" },
    ]);
    expect(symbolsOf("create table if not exists loans (id int);", "SQL", 10)).toEqual([
      { name: "loans", kind: "table" },
    ]);
    // CommonJS: what module.exports and exports name (once each), a class where the file declares one.
    expect(
      symbolsOf(
        "class Ledger {}\nasync function listInvoices() {}\nfunction helper() {}\nmodule.exports = { listInvoices, Ledger };\nexports.sendInvoice = () => {};\nmodule.exports.voidInvoice = function () {};\n",
        "JavaScript",
        10,
      ),
    ).toEqual([
      { name: "Ledger", kind: "class" },
      { name: "listInvoices", kind: "function" },
      { name: "sendInvoice", kind: "function" },
      { name: "voidInvoice", kind: "function" },
    ]);
    expect(symbolsOf("const router = make();\nmodule.exports = router;\n", "JavaScript", 10)).toEqual([
      { name: "router", kind: "function" },
    ]);
    // A file the parser cannot read gives no symbols, not a crash.
    expect(symbolsOf("export function ok() {}\nexport const = ;", "TypeScript", 10)).toEqual([]);
  });
});

describe("the files a task touches", () => {
  it("ranks paths and symbols by a task's words, and flags leaves of one wave on one file", () => {
    const map = repositoryMap.parse(
      mapOf({
        name: "shop",
        files: [
          "src/routes/invoices.ts",
          "src/routes/customers.ts",
          "src/services/billing.ts",
          "tests/invoices.test.ts",
          "README.md",
        ].map((p) => ({ path: p, size: 10, language: p.endsWith(".md") ? "Markdown" : "TypeScript" })),
        symbols: [{ path: "src/services/billing.ts", names: [{ name: "computeDueDate", kind: "function" }] }],
        tests: ["tests"],
      }),
    );
    const index = indexRepository(map);
    // Two of the task's words in a symbol outrank one in a path; the whole request's match counts too.
    expect(index.filesFor("Invoices get a due date").map((f) => f.path)).toEqual(["src/services/billing.ts"]);
    const focus = index.focusOf("Invoices of customers get a due date");
    expect(Math.max(...focus.values())).toBe(1);
    expect(focus.get("src/routes/invoices.ts")).toBeGreaterThan(0);
    expect(focus.has("README.md")).toBe(false);
    expect(index.filesFor("Invoices get a due date")[0]?.confidence).toBe("high");
    expect(index.filesFor("Test the invoices", { tests: true }).map((f) => f.path)).toEqual([
      "tests/invoices.test.ts",
    ]);
    expect(index.filesFor("the the the")).toEqual([]);
    // An applied migration is history a change never edits (it adds a new one): never a likely file.
    const migrated = indexRepository(
      repositoryMap.parse(
        mapOf({
          name: "shop",
          files: ["db/migrations/20240101_create_invoices.sql", "src/invoices.ts"].map((p) => ({
            path: p,
            size: 10,
            language: p.endsWith(".sql") ? "SQL" : "TypeScript",
          })),
          symbols: [
            {
              path: "db/migrations/20240101_create_invoices.sql",
              names: [{ name: "invoices", kind: "table" }],
            },
          ],
        }),
      ),
    );
    expect(migrated.filesFor("Invoices get a due date", { limit: 5, floor: 0 }).map((f) => f.path)).toEqual([
      "src/invoices.ts",
    ]);
    // A planner's files are kept where the map has them, or as new files inside the repository.
    expect(
      filesIn(map, [
        { path: "src/routes/invoices.ts", confidence: "high", new: false },
        { path: "src/made-up.ts", confidence: "high", new: false },
        { path: "src/routes/refunds.ts", confidence: "medium", new: true },
        { path: "../outside.ts", confidence: "low", new: true },
      ]),
    ).toEqual([
      { path: "src/routes/invoices.ts", confidence: "high", new: false },
      { path: "src/routes/refunds.ts", confidence: "medium", new: true },
    ]);
    expect(filesIn(null, [{ path: "a.ts", confidence: "high", new: false }])).toBeUndefined();
    // A model's or an agent's subtask without files is given those its words rank highest.
    const [given, ranked] = withLikelyFiles(map, "Invoices get a due date", [
      {
        description: "Store it",
        implementation_details: "",
        files: [{ path: "src/routes/customers.ts", confidence: "low", new: false }],
      },
      { description: "Compute the due date", implementation_details: "in billing" },
    ]);
    expect(given?.files?.map((f) => f.path)).toEqual(["src/routes/customers.ts"]);
    expect(ranked?.files?.[0]?.path).toBe("src/services/billing.ts");
    const files = new Map([
      ["a", ["src/x.ts"]],
      ["b", ["src/x.ts", "src/y.ts"]],
      ["c", ["src/y.ts"]],
    ]);
    expect(collisionsIn([["a", "b"], ["c"]], files)).toEqual([
      { wave: 0, path: "src/x.ts", task_ids: ["a", "b"] },
    ]);
  });
});

describe("a brief on a repository", () => {
  it("reads the work as a change to that code, unless the text asks for a product beside it", () => {
    const map = mapOf({ name: "shop", files: [{ path: "src/app.ts", size: 1, language: "TypeScript" }] });
    const text = "A booking site where customers reserve tables and pay a deposit";
    expect(briefOfText(text).kind.id).toBe("product");
    const change = onRepository(briefOfText(text), map);
    expect(change.kind.id).toBe("feature");
    expect(change.kind.because[0]).toBe("it is a change to the repository it came with");
    expect(change.repository?.map).toBe(map);
    const beside = "Build a separate app where customers reserve tables and pay a deposit";
    expect(onRepository(briefOfText(beside), map).kind.id).toBe(briefOfText(beside).kind.id);
  });
});
