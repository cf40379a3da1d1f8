#!/usr/bin/env node
/**
 * Writes tests/fakes/github-openapi.json: the operations the fake GitHub serves, taken from GitHub's
 * official OpenAPI description (the `@octokit/openapi` package, generated/api.github.com.deref.json), so
 * the fake can check every request Atomize's GitHub client sends against GitHub's own rules.
 *
 * The package is about 400 MB unpacked, so it is not a dependency: this script fetches the pinned version
 * with `npm pack` into a temporary folder, extracts the subset (about 100 KB) and deletes the rest.
 * Run it again after adding an operation to the fake or moving to a newer description:
 *
 *   node scripts/github-openapi-subset.mjs
 *
 * OpenAPI 3.0's `nullable: true` becomes JSON Schema's `type: [..., "null"]`, so a standard JSON Schema
 * validator (Ajv) reads the schemas as GitHub means them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const VERSION = "23.0.2";
const OPERATIONS = [
  "users/get-authenticated",
  "rate-limit/get",
  "repos/get",
  "repos/get-readme",
  "git/get-tree",
  "git/get-blob",
  "issues/list-for-repo",
  "issues/create",
  "issues/update",
  "issues/get",
  "issues/add-sub-issue",
  "issues/list-sub-issues",
  "issues/add-blocked-by-dependency",
  "issues/list-dependencies-blocked-by",
  "issues/remove-dependency-blocked-by",
  "issues/list-labels-for-repo",
  "issues/create-label",
  "issues/add-labels",
  "issues/remove-label",
  "pulls/list",
];

/** `names`: `schema` is a map of property names (a `properties` object), whose keys are never annotations. */
function jsonSchema(schema, names = false) {
  if (Array.isArray(schema)) return schema.map((s) => jsonSchema(s));
  if (!schema || typeof schema !== "object") return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!names && ["nullable", "example", "examples", "description", "title"].includes(k)) continue;
    out[k] = jsonSchema(v, !names && (k === "properties" || k === "patternProperties"));
  }
  if (names) return out;
  if (schema.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (out.enum) out.enum = [...out.enum, null];
    else if (out.oneOf || out.anyOf) out[out.oneOf ? "oneOf" : "anyOf"].push({ type: "null" });
  }
  return out;
}

const dir = mkdtempSync(path.join(tmpdir(), "octokit-openapi-"));
try {
  execFileSync("npm", ["pack", `@octokit/openapi@${VERSION}`, "--silent"], { cwd: dir, stdio: "pipe" });
  execFileSync(
    "tar",
    ["xzf", `octokit-openapi-${VERSION}.tgz`, "package/generated/api.github.com.deref.json"],
    {
      cwd: dir,
    },
  );
  const spec = JSON.parse(
    readFileSync(path.join(dir, "package/generated/api.github.com.deref.json"), "utf8"),
  );
  const operations = [];
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !OPERATIONS.includes(op.operationId)) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((param) => ({
        name: param.name,
        in: param.in,
        required: Boolean(param.required),
        schema: jsonSchema(param.schema ?? {}),
      }));
      const body = op.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: p,
        parameters,
        requestBody: body ? { required: Boolean(op.requestBody.required), schema: jsonSchema(body) } : null,
      });
    }
  }
  const missing = OPERATIONS.filter((id) => !operations.some((o) => o.operationId === id));
  if (missing.length) throw new Error(`not in the description: ${missing.join(", ")}`);
  operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
  const out = {
    source: `@octokit/openapi@${VERSION} generated/api.github.com.deref.json (GitHub's REST API description, ${spec.info?.version ?? "?"})`,
    generatedBy: "scripts/github-openapi-subset.mjs",
    operations,
  };
  writeFileSync(
    new URL("../tests/fakes/github-openapi.json", import.meta.url),
    `${JSON.stringify(out, null, 1)}\n`,
  );
  console.info(`wrote ${operations.length} operations from @octokit/openapi@${VERSION}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
