import { escapeHtml } from "../lib/escape-html";
import type { OpenApiDocument } from "./openapi-document";

/**
 * /api/docs: a readable reference rendered on the server from the OpenAPI document itself (no script,
 * nothing fetched from elsewhere), grouped by tag, each operation with its parameters, body and answers.
 */

type Op = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string }>;
};

function schemaBlock(label: string, schema: unknown) {
  return `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function operationHtml(method: string, path: string, op: Op) {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escapeHtml(p.name)}</code> <small>(${escapeHtml(p.in)}${p.required ? ", required" : ""})</small></li>`,
    )
    .join("");
  const body = op.requestBody
    ? Object.entries(op.requestBody.content)
        .map(([type, { schema }]) => schemaBlock(`Body (${type})`, schema))
        .join("")
    : "";
  const answers = Object.entries(op.responses)
    .map(([status, r]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(r.description)}</li>`)
    .join("");
  const who =
    op.security.length === 0 ? "public" : op.description?.startsWith("Admins") ? "admins" : "signed in";
  return `<section class="op" id="${escapeHtml(op.operationId)}">
<h3><span class="m m-${method}">${method.toUpperCase()}</span> <code>/api${escapeHtml(path)}</code> <small>${who}</small></h3>
<p>${escapeHtml(op.summary)}</p>
${params ? `<p>Parameters:</p><ul>${params}</ul>` : ""}${body}
<p>Answers:</p><ul>${answers}</ul></section>`;
}

export function referencePage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods) as [string, Op][]) {
      const tag = op.tags[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
    }
  }
  const sections = doc.tags
    .map(
      (t) => `<h2 id="tag-${escapeHtml(t.name.replace(/\s+/g, "-"))}">${escapeHtml(t.name)}</h2>
${t.description ? `<p>${escapeHtml(t.description)}</p>` : ""}${(byTag.get(t.name) ?? []).join("\n")}`,
    )
    .join("\n");
  const toc = doc.tags
    .map(
      (t) => `<li><a href="#tag-${escapeHtml(t.name.replace(/\s+/g, "-"))}">${escapeHtml(t.name)}</a></li>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<title>API reference | Atomize Project Manager</title>
<style>
body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111;background:#fff}
@media (prefers-color-scheme:dark){body{color:#eee;background:#111}a{color:#8cf}pre{background:#222!important}}
.op{border-top:1px solid #8884;padding:.5rem 0}h3{font-size:1rem;margin:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.m-get{color:#0a7}.m-post{color:#37c}.m-put,.m-patch{color:#c80}.m-delete{color:#c33}
pre{background:#f4f4f4;padding:.5rem;overflow:auto;font-size:.85rem}small{color:#888}
</style></head>
<body><header><h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p></header>
<nav aria-label="Sections"><ul>${toc}</ul></nav>
<main>${sections}</main></body></html>`;
}
