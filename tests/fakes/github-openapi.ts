/**
 * Checks a request against GitHub's official OpenAPI description: the operations the fake serves, taken
 * from the `@octokit/openapi` package by scripts/github-openapi-subset.mjs (github-openapi.json names the
 * version). A request is refused when it names no operation of the description, leaves out a required
 * parameter or body, passes a query parameter the operation does not have, or has a value or body the
 * operation's schema does not allow. The fake answers such a request 422 and records the problem, so a
 * test can also assert that none of its requests broke GitHub's rules.
 */
import { readFileSync } from "node:fs";
import AjvModule, { type ValidateFunction } from "ajv";

type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: object };
type Operation = {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  requestBody: { required: boolean; schema: object } | null;
};

const spec = JSON.parse(readFileSync(new URL("./github-openapi.json", import.meta.url), "utf8")) as {
  source: string;
  operations: Operation[];
};
export const GITHUB_OPENAPI_SOURCE = spec.source;

const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

const compiled = spec.operations.map((op) => {
  const names: string[] = [];
  const pattern = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    names.push(name);
    // A git ref or tree may hold slashes; every other parameter is one segment.
    return name === "tree_sha" ? "(.+)" : "([^/]+)";
  });
  const validators = new Map<string, ValidateFunction>();
  for (const p of op.parameters) validators.set(`${p.in}:${p.name}`, ajv.compile(p.schema));
  return {
    op,
    regex: new RegExp(`^${pattern}$`),
    names,
    validators,
    body: op.requestBody ? ajv.compile(op.requestBody.schema) : null,
  };
});

/** A query or path value as the schema's type reads it ("5" for an integer is 5). */
function typed(value: string, schema: { type?: unknown }): unknown {
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (t === "integer" || t === "number")
    return value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
  if (t === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

const errorsOf = (v: ValidateFunction) =>
  (v.errors ?? []).map((e) => `${e.instancePath || "(value)"} ${e.message}`).join("; ");

/**
 * The problems with a request under GitHub's description (empty when it conforms). `/repositories/{id}`
 * paths (GitHub's pagination links) are read as the `/repos/{owner}/{repo}` operation they stand for.
 */
export function openapiProblems(req: {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  hasBody: boolean;
}): string[] {
  const path = req.path.replace(/^\/repositories\/\d+/, "/repos/owner/repo");
  const entry = compiled.find((c) => c.op.method === req.method && c.regex.test(path));
  if (!entry) return [`${req.method} ${req.path} is no operation of GitHub's REST API description`];
  const { op } = entry;
  const problems: string[] = [];
  const match = entry.regex.exec(path)!;
  entry.names.forEach((name, i) => {
    const v = entry.validators.get(`path:${name}`);
    const schema = op.parameters.find((p) => p.in === "path" && p.name === name)?.schema ?? {};
    if (v && !v(typed(decodeURIComponent(match[i + 1]!), schema)))
      problems.push(`${op.operationId}: path parameter ${name} ${errorsOf(v)}`);
  });
  for (const key of new Set(req.query.keys())) {
    const param = op.parameters.find((p) => p.in === "query" && p.name === key);
    if (!param) {
      problems.push(`${op.operationId}: unknown query parameter '${key}'`);
      continue;
    }
    const v = entry.validators.get(`query:${key}`)!;
    for (const value of req.query.getAll(key))
      if (!v(typed(value, param.schema)))
        problems.push(`${op.operationId}: query parameter ${key} ${errorsOf(v)}`);
  }
  for (const p of op.parameters)
    if (p.in === "query" && p.required && !req.query.has(p.name))
      problems.push(`${op.operationId}: missing query parameter '${p.name}'`);
  if (!op.requestBody) {
    if (req.hasBody) problems.push(`${op.operationId}: takes no request body`);
  } else if (!req.hasBody) {
    if (op.requestBody.required) problems.push(`${op.operationId}: a request body is required`);
  } else if (!entry.body!(req.body)) {
    problems.push(`${op.operationId}: body ${errorsOf(entry.body!)}`);
  }
  return problems;
}
