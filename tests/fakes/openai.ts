/**
 * A local, in-process fake of an OpenAI-compatible Chat Completions server, on the fake-server
 * kit (kit.ts).
 *
 * It speaks the wire format the `openai` SDK (and therefore `@langchain/openai`'s `ChatOpenAI`)
 * expects: `POST /v1/chat/completions` (non-streaming) and `GET /v1/models`, Bearer auth, OpenAI's
 * error bodies / status codes / rate-limit headers, and `usage` on every completion.
 *
 * Answers are synthesised from the JSON schema the client sends, so they validate against it:
 * - `response_format: { type: "json_schema", json_schema: { name, schema } }`: the JSON goes in
 *   `message.content`;
 * - `tools` + `tool_choice` (function calling): the JSON goes in
 *   `message.tool_calls[0].function.arguments`, `finish_reason: "tool_calls"`;
 * - anything else ("plain", including `response_format: { type: "json_object" }`): a short text
 *   (or a small JSON object for json_object).
 * The generator reads full JSON Schema (bounds, formats, $ref, allOf) and the portable subset alike
 * (`anyOf` with `{ type: "null" }` yields the non-null branch, `enum` its first value or the story
 * points nearest the sibling complexity score).
 *
 * Subtask plans (an array property named `subtasks`) follow `setPlanShape()`, the
 * "at most N subtasks" phrase and the `Depth: d of at most m` line of the last user message.
 *
 * Strict schemas are judged as OpenAI judges them. A request whose `response_format.json_schema` or
 * any function tool has `strict: true` is refused with a 400 when its schema breaks a rule of the
 * Structured Outputs guide, "Supported schemas" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
 * now served at https://developers.openai.com/api/docs/guides/structured-outputs; read through copies
 * of the page quoted in public repositories, 2024-2026):
 * - the root is an object, not `anyOf` -> "schema must be a JSON Schema of 'type: "object"', got
 *   'type: "None"'.";
 * - every object sets `additionalProperties: false` ("additionalProperties: false must always be set in
 *   objects") -> "In context=(...), 'additionalProperties' is required to be supplied and to be false.";
 * - every property is listed in `required` ("all fields must be required"; an optional field is a union
 *   with null) -> "... 'required' is required to be supplied and to be an array including every key in
 *   properties. Missing 'x'." (or "Extra required key 'x' supplied.");
 * - a schema without `type` (and not a union or `$ref`) -> "In context=(...), schema must have a 'type'
 *   key." (observed for bare `enum`/`const`);
 * - any keyword outside the supported subset -> "In context=(...), '<keyword>' is not permitted.".
 *   Supported everywhere: type, description, properties, required, additionalProperties, items, enum,
 *   const, anyOf, $ref/$defs/definitions (plus title and a root $schema, observed accepted). The guide
 *   lists allOf, not, dependentRequired, dependentSchemas, if/then/else as unsupported, and "for
 *   fine-tuned models" also minLength, maxLength, pattern, format, minimum, maximum, multipleOf,
 *   patternProperties, minItems, maxItems; its 2024 version refused those (and unevaluatedProperties,
 *   propertyNames, minProperties, maxProperties, unevaluatedItems, contains, minContains, maxContains,
 *   uniqueItems) for every model. The default rules ("fine-tuned") are that strictest reading, so a
 *   schema the fake accepts is accepted by every model; `strictSchemaRules: "base-model"` also allows
 *   pattern, format, multipleOf, minimum/maximum/exclusive*, minItems and maxItems, which today's guide
 *   lists as supported. minLength/maxLength are in neither list and are refused either way (reported
 *   refused after the guide changed: jina-ai/node-DeepResearch#79, 2025; "'uniqueItems' is not
 *   permitted": mastra-ai/mastra#23321; openai/openai-node#1988 warns that string .min()/.max() of
 *   zod emit keywords strict mode can reject);
 * - limits: "up to 5000 object properties total, with up to 10 levels of nesting" (earlier: 100 and 5)
 *   -> "N levels of nesting exceeds limit of 10." / "N parameters exceeds limit of 5000." (wording
 *   quoted from the API in public repositories); "total string length of all property names,
 *   definition names, enum values, and const values cannot exceed 120,000 characters"; "up to 1000 enum
 *   values across all enum properties"; a string enum of more than 250 values holds at most 15,000
 *   characters (wording of these three not observed; ours). How OpenAI counts levels is undocumented:
 *   we count every schema on the deepest path through properties/items, root and leaf included, which
 *   fails closed.
 * Error bodies: `{ error: { message: "Invalid schema for response_format '<name>': <problem>", type:
 * "invalid_request_error", param: "response_format", code: null } }` (observed on api.openai.com and
 * Azure: dottxt-ai/outlines#844, moeru-ai/xsai#202; the Responses API reports code
 * "invalid_json_schema" and param "text.format.schema", mavam/pi-web-providers#14), and for a strict
 * function tool "Invalid schema for function '<name>': <problem>", param
 * "tools[<i>].function.parameters", code "invalid_function_parameters" (makenotion/notion-mcp-server#117
 * quotes the message and code with param "tools[8].parameters", the flat tool shape; for Chat Completions'
 * nested `function` we name the nested path). oneOf is refused as outside the supported list (the guide
 * names anyOf only).
 * Checked depth-first in property order, a schema's own keywords first; OpenAI reports one problem too,
 * but which one first when there are several is not documented.
 * Reasoning models (o-series, gpt-5 except gpt-5-chat) refuse `max_tokens` ("Unsupported parameter:
 * 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.") and a
 * temperature other than 1, as reported in public repositories.
 *
 * Failure modes (`setMode`) apply to chat completions only; `times` limits them to the next N
 * chat requests. Not emulated: streaming (400), `n > 1`, logprobs, the json_schema name rule
 * (`^[a-zA-Z0-9_-]{1,64}$`), "$ref cannot have keywords", and the generator ignores `pattern`.
 */
import { randomBytes } from "node:crypto";
import { type FakeRequest, type FakeServer, jsonReply, type Reply, Router, startFakeServer } from "./kit";

export type FakeOpenAIMode =
  | "ok"
  | "rate_limit" // 429 + Retry-After: 1 + OpenAI error body
  | "server_error" // 500
  | "timeout" // never answers until close (or until the client gives up)
  | "malformed_json" // content (or tool arguments) is not JSON
  | "truncated" // JSON cut in half, finish_reason "length"
  | "schema_violation" // valid JSON that violates the schema (first required field missing)
  | "unauthorized" // 401 invalid_api_key whatever the key
  // The answer's JSON wrapped the way local models (Ollama, vLLM, LM Studio) often wrap it:
  | "fenced_json" // in a ```json fence
  | "fenced" // in a bare ``` fence
  | "think" // after a <think>...</think> block
  | "prose" // between sentences of prose
  // Refusals with OpenAI's own error bodies:
  | "context_length_exceeded" // 400 context_length_exceeded
  | "model_not_found"; // 404 model_not_found

export type FakeChatRequest = {
  model: string;
  /** Content parts are flattened to their text; a null content (assistant tool call) becomes "". */
  messages: { role: string; content: string }[];
  /** `json_schema.name` or the called function's name. */
  schemaName: string | null;
  /** `json_schema.schema` or the called function's `parameters`; null for "plain". */
  schema: unknown;
  method: "json_schema" | "tools" | "plain";
  /** The schema was sent with `strict: true` (`json_schema.strict` or the called function's `strict`). */
  strict: boolean;
  /** `max_completion_tokens` or `max_tokens`; null when the request sets no output cap. */
  maxTokens: number | null;
  /** The request body as received. */
  body: Record<string, unknown>;
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
};

export type FakePlanShape = {
  subtasks?: number | ((depth: number) => number);
  /** `index` is 0-based. */
  complexity?: (depth: number, index: number) => number;
};

export type FakeOpenAI = {
  /** e.g. `http://127.0.0.1:PORT/v1` (the baseURL to configure). */
  url: string;
  /** The only accepted key (Bearer); others -> 401 like OpenAI. */
  apiKey: string;
  /** Added before every answer, errors included (default 0, or `latencyMs`). */
  setLatency(ms: number): void;
  /** `times`: apply to the next N chat requests only, then back to "ok" (default: until changed). */
  setMode(mode: FakeOpenAIMode, opts?: { times?: number }): void;
  /** Custom JSON value for a request; `undefined` = use the generator. Failure modes still apply to it. */
  setResponder(fn: ((req: FakeChatRequest) => unknown | undefined) | null): void;
  /** Knobs of the default generator for subtask plans (merged into the current shape). */
  setPlanShape(shape: FakePlanShape): void;
  /** Every chat request received (valid JSON with `messages`), in order, whatever its outcome. */
  requests: FakeChatRequest[];
  /** Totals over the completions answered with 200 (the `usage` OpenAI would bill). */
  usage: { requests: number; promptTokens: number; completionTokens: number };
  /** Chat requests currently received and not yet answered. */
  inFlight(): number;
  /** The highest `inFlight()` observed since start / the last reset(). */
  maxInFlight: number;
  /** Back to the initial state: mode ok, initial latency, no responder, default plan shape, empty logs. */
  reset(): void;
  /** The kit underneath: its full request log (every path) and failure modes. */
  server: FakeServer;
  /** Destroys open sockets (including held "timeout" requests) and timers. */
  close(): Promise<void>;
};

const DEFAULT_API_KEY = "sk-fake-atomize-0123456789abcdef";
const FALLBACK_MODEL = "fake-gpt";
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const RATE_LIMIT_RPM = 500;
const DEFAULT_SUBTASKS = 3;
const DEFAULT_ARRAY_ITEMS = 2;
const MAX_REF_HOPS = 12;

const defaultComplexity = (depth: number, index: number): number => Math.max(1, 9 - 2 * depth - (index % 2));

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

type Schema = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const randomId = (chars: number): string =>
  randomBytes(chars).toString("base64url").replace(/[-_]/g, "x").slice(0, chars);
const tokens = (chars: number): number => Math.ceil(chars / 4);

function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Value";
}

const slugify = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase() || "item";

function singular(name: string): string {
  if (/ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|us)$/i.test(name)) return name;
  if (/s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** Flattens OpenAI message content (string | parts[] | null) to text. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (isRecord(part) ? (str(part.text) ?? str(part.refusal) ?? "") : ""))
      .join("");
  return "";
}

// ---------------------------------------------------------------------------------------------
// The schema-driven generator
// ---------------------------------------------------------------------------------------------

type GenContext = {
  root: unknown;
  depth: number;
  maxSubtasksPhrase: number | null;
  subtasks: number | ((depth: number) => number);
  complexity: (depth: number, index: number) => number;
  /** First 40 chars of the task the prompt is about. */
  task: string;
  counters: Map<string, number>;
  /** How many items were named per label ("Event" -> 2), so later string lists can reference them. */
  named: Map<string, number>;
  /** The number of the index-th subtask title for this prompt's task: the same task, the same titles. */
  titleNumber: (index: number) => number;
};

/** Where a value is being generated: its property name, the array it belongs to, its index there. */
type Site = {
  prop: string | null;
  arrayProp: string | null;
  index: number | null;
  /** Inside an item of an array property named `subtasks`. */
  subtaskIndex: number | null;
  /** Already-generated sibling properties (for story_points that follow complexity_score). */
  siblings: Record<string, unknown> | null;
};

const ROOT_SITE: Site = { prop: null, arrayProp: null, index: null, subtaskIndex: null, siblings: null };

function promptFacts(messages: FakeChatRequest["messages"]): {
  depth: number;
  maxSubtasksPhrase: number | null;
  task: string;
  taskLine: string;
} {
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const depthMatch = /Depth:\s*(\d+)\s+of\s+at\s+most\s+(\d+)/i.exec(lastUser);
  const phrase = /at\s+most\s+(\d+)\s+subtasks?\b/i.exec(lastUser);
  // Atomize's split prompt names the node on the line after "Task to split:" (inside its data marker).
  const labelled =
    /^\s*task to split:\s*\n(?:\s*<<<DATA[^\n]*>>>\s*\n)?\s*(.+)$/im.exec(lastUser)?.[1] ??
    /^\s*(?:task(?:\s+description)?|description|project)\s*:\s*(.+)$/im.exec(lastUser)?.[1];
  const firstLine = lastUser
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !/^Depth:/i.test(l));
  const taskLine = (labelled ?? firstLine ?? "the request").trim();
  const task = taskLine.slice(0, 40).trim() || "the request";
  return {
    depth: depthMatch ? Number(depthMatch[1]) : 0,
    maxSubtasksPhrase: phrase ? Number(phrase[1]) : null,
    task,
    taskLine,
  };
}

function resolveRef(ref: string, root: unknown): Schema | undefined {
  if (ref === "#") return isRecord(root) ? root : undefined;
  if (!ref.startsWith("#/")) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return isRecord(cur) ? cur : undefined;
}

/** Follows `$ref`s (sibling keywords win) and merges `allOf`. */
function normalize(schema: unknown, root: unknown, hops = 0): Schema {
  if (!isRecord(schema)) return {};
  let s: Schema = schema;
  const ref = str(s.$ref);
  if (ref !== undefined && hops < MAX_REF_HOPS) {
    const { $ref: _ignored, ...rest } = s;
    s = { ...normalize(resolveRef(ref, root), root, hops + 1), ...rest };
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    let merged: Schema = { ...rest };
    for (const part of allOf) {
      const p = normalize(part, root, hops + 1);
      merged = {
        ...p,
        ...merged,
        properties: {
          ...(isRecord(p.properties) ? p.properties : {}),
          ...(isRecord(merged.properties) ? merged.properties : {}),
        },
        required: [
          ...(Array.isArray(p.required) ? p.required : []),
          ...(Array.isArray(merged.required) ? merged.required : []),
        ],
      };
    }
    s = merged;
  }
  return s;
}

const isNullSchema = (s: Schema): boolean => s.type === "null" || (s.const === null && s.type === undefined);

function schemaType(s: Schema): string {
  const t = s.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") as string | undefined) ?? "null";
  if (isRecord(s.properties) || isRecord(s.additionalProperties)) return "object";
  if (s.items !== undefined || Array.isArray(s.prefixItems)) return "array";
  return "string";
}

/** Among scalar options, the one nearest the sibling complexity score (story points), else the first. */
function pickOption(options: unknown[], site: Site): unknown {
  const complexity = num(site.siblings?.complexity_score);
  if (
    complexity !== undefined &&
    site.prop !== null &&
    /point|estimate/i.test(site.prop) &&
    options.every((o) => typeof o === "number")
  ) {
    const target = complexity;
    return (options as number[]).reduce((best, o) =>
      Math.abs(o - target) < Math.abs(best - target) ? o : best,
    );
  }
  return options[0];
}

function generate(schemaIn: unknown, ctx: GenContext, site: Site, hops = 0): unknown {
  if (schemaIn === true || schemaIn === undefined) return makeString({}, ctx, site);
  const s = normalize(schemaIn, ctx.root);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const nonNull = s.enum.filter((v) => v !== null);
    return pickOption(nonNull.length > 0 ? nonNull : s.enum, site);
  }
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (alternatives) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const options = alternatives.map((a) => normalize(a, ctx.root));
    const nonNull = options.filter((o) => !isNullSchema(o));
    if (nonNull.length === 0) return null;
    // A union of literals (e.g. story points 1|2|3|5|8|13) is an enum.
    if (nonNull.every((o) => "const" in o))
      return pickOption(
        nonNull.map((o) => o.const),
        site,
      );
    return generate({ ...rest, ...nonNull[0] }, ctx, site, hops + 1);
  }
  switch (schemaType(s)) {
    case "object":
      return makeObject(s, ctx, site, hops);
    case "array":
      return makeArray(s, ctx, site, hops);
    case "integer":
    case "number":
      return makeNumber(s, ctx, site);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return makeString(s, ctx, site);
  }
}

function makeObject(s: Schema, ctx: GenContext, site: Site, hops: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = isRecord(s.properties) ? s.properties : {};
  for (const [key, sub] of Object.entries(props)) {
    out[key] = generate(
      sub,
      ctx,
      {
        prop: key,
        arrayProp: site.arrayProp,
        index: site.index,
        subtaskIndex: site.subtaskIndex,
        siblings: out,
      },
      hops + 1,
    );
  }
  for (const key of Array.isArray(s.required) ? s.required : []) {
    if (typeof key === "string" && !(key in out))
      out[key] = generate(
        isRecord(s.additionalProperties) ? s.additionalProperties : {},
        ctx,
        { ...site, prop: key, siblings: out },
        hops + 1,
      );
  }
  return out;
}

function makeArray(s: Schema, ctx: GenContext, site: Site, hops: number): unknown[] {
  const minItems = num(s.minItems) ?? 0;
  const maxItems = num(s.maxItems) ?? Number.POSITIVE_INFINITY;
  const isPlan = site.prop === "subtasks";
  let want: number;
  if (isPlan) {
    want = typeof ctx.subtasks === "function" ? ctx.subtasks(ctx.depth) : ctx.subtasks;
    if (ctx.maxSubtasksPhrase !== null) want = Math.min(want, ctx.maxSubtasksPhrase);
  } else {
    // Deep recursion through $refs: the smallest valid array.
    want = hops > MAX_REF_HOPS * 2 ? 0 : DEFAULT_ARRAY_ITEMS;
  }
  const count = Math.max(minItems, Math.min(maxItems, Math.max(0, Math.floor(want))));
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const items: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : s.items;
    items.push(
      generate(
        itemSchema,
        ctx,
        {
          prop: site.prop,
          arrayProp: site.prop,
          index: i,
          subtaskIndex: isPlan ? i : site.subtaskIndex,
          siblings: null,
        },
        hops + 1,
      ),
    );
  }
  return items;
}

function makeNumber(s: Schema, ctx: GenContext, site: Site): number {
  const integer = schemaType(s) === "integer";
  const step = integer ? 1 : 0.5;
  let min = num(s.minimum) ?? Number.NEGATIVE_INFINITY;
  let max = num(s.maximum) ?? Number.POSITIVE_INFINITY;
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  if (exMin !== undefined) min = Math.max(min, exMin + step);
  if (exMax !== undefined) max = Math.min(max, exMax - step);
  let value: number;
  if (site.prop !== null && /complexity/i.test(site.prop))
    value = ctx.complexity(ctx.depth, site.subtaskIndex ?? 0);
  else value = 1 + (site.index ?? 0);
  if (integer) value = Math.round(value);
  const multipleOf = num(s.multipleOf);
  if (multipleOf !== undefined && multipleOf > 0) value = Math.ceil(value / multipleOf) * multipleOf;
  value = Math.min(max, Math.max(min, value));
  if (integer) value = Number.isFinite(min) && value < min ? Math.ceil(min) : Math.floor(value);
  return value;
}

/**
 * What a generated subtask is about: a verb, an adjective and a noun, a different triple for each title
 * (each task split gets a block of TITLE_BLOCK numbers; 12 x 10 x 24 triples before one repeats), so
 * generated plans hold no duplicates of their own. Two titles differ in at least one of their few words,
 * which keeps them apart for the planner's near-duplicate merge (token-set Jaccard >= 0.8) too.
 */
const TITLE_BLOCK = 10;
const VERBS = [
  "build",
  "test",
  "design",
  "document",
  "deploy",
  "monitor",
  "secure",
  "migrate",
  "review",
  "profile",
  "cache",
  "index",
];
const ADJECTIVES = [
  "shared",
  "public",
  "internal",
  "nightly",
  "cached",
  "signed",
  "versioned",
  "batched",
  "live",
  "archived",
];
const NOUNS = [
  "schema",
  "endpoint",
  "screen",
  "queue",
  "importer",
  "exporter",
  "report",
  "webhook",
  "scheduler",
  "parser",
  "mailer",
  "dashboard",
  "login",
  "search",
  "billing",
  "upload",
  "backup",
  "audit",
  "settings",
  "invites",
  "comments",
  "tags",
  "feeds",
  "alerts",
];
function workTitle(n: number): string {
  const verb = VERBS[n % VERBS.length];
  const adjective = ADJECTIVES[Math.floor(n / VERBS.length) % ADJECTIVES.length];
  const noun = NOUNS[Math.floor(n / (VERBS.length * ADJECTIVES.length)) % NOUNS.length];
  return `${verb} the ${adjective} ${noun}`;
}

function nextCount(ctx: GenContext, key: string): number {
  const n = (ctx.counters.get(key) ?? 0) + 1;
  ctx.counters.set(key, n);
  return n;
}

const LONG_TEXT = /description|details|rationale|markdown|summary|explanation|benefit|action|content|text/i;

function makeString(s: Schema, ctx: GenContext, site: Site): string {
  const prop = site.prop ?? "value";
  const format = str(s.format);
  let text: string;
  if (format === "date-time") text = "2024-01-01T00:00:00.000Z";
  else if (format === "date") text = "2024-01-01";
  else if (format === "time") text = "12:00:00";
  else if (format === "email") text = `${prop.replace(/\W/g, "")}${nextCount(ctx, `@${prop}`)}@example.com`;
  else if (format === "uri" || format === "url")
    text = `https://example.com/${encodeURIComponent(prop)}/${nextCount(ctx, `/${prop}`)}`;
  else if (format === "uuid")
    text = `00000000-0000-4000-8000-${String(nextCount(ctx, `#${prop}`)).padStart(12, "0")}`;
  else if (site.subtaskIndex !== null && prop === "description")
    text = `Subtask ${site.subtaskIndex + 1} at depth ${ctx.depth}: ${workTitle(ctx.titleNumber(site.subtaskIndex))}`;
  else if (site.subtaskIndex !== null && prop === "implementation_details")
    text = `Implement step ${site.subtaskIndex + 1} of "${ctx.task}" (depth ${ctx.depth}): write the code, then cover it with tests.`;
  else if (/^id$/i.test(prop)) {
    // `id` of an item: "epic-1", "user-story-2".
    const slug = slugify(site.arrayProp !== null ? singular(site.arrayProp) : "item");
    text = `${slug}-${nextCount(ctx, `id:${slug}`)}`;
  } else if (/_id$/i.test(prop)) {
    // A foreign key (`epic_id`) points at the first generated item of that kind.
    text = `${slugify(prop.replace(/_id$/i, ""))}-1`;
  } else {
    // "name"/"title" items take their label from the array they are in ("events" -> "Event 3").
    const naming = site.arrayProp !== null && /^(name|title|label)$/i.test(prop);
    const bareItem = site.arrayProp !== null && site.prop === site.arrayProp;
    const label = humanize(naming || bareItem ? singular(site.arrayProp!) : prop);
    const named = ctx.named.get(label) ?? 0;
    if (bareItem && named > 0 && site.index !== null) {
      // A list of plain strings named like earlier named items (swimlane.events): reference them.
      text = `${label} ${(site.index % named) + 1}`;
    } else {
      const n = nextCount(ctx, label);
      if (naming) ctx.named.set(label, n);
      text = `${label} ${n}`;
      if (LONG_TEXT.test(prop)) text += ` for: ${ctx.task}`;
    }
  }
  const minLength = num(s.minLength) ?? 0;
  const maxLength = num(s.maxLength) ?? Number.POSITIVE_INFINITY;
  if (text.length > maxLength)
    text = text.slice(0, maxLength).trimEnd() || "x".repeat(Math.min(1, maxLength));
  if (text.length < minLength) text = text.padEnd(minLength, ".");
  return text;
}

/** The answer as a local model tends to dress it (the JSON itself is unchanged). */
function wrapAnswer(text: string, mode: FakeOpenAIMode, record: FakeChatRequest): string {
  const what = record.schemaName ?? "answer";
  switch (mode) {
    case "fenced_json":
      return `\`\`\`json\n${text}\n\`\`\``;
    case "fenced":
      return `\`\`\`\n${text}\n\`\`\``;
    case "think":
      return `<think>\nThe user wants the ${what}. A first draft such as {"draft": true} is not it; the schema asks for more.\n</think>\n\n${text}`;
    case "prose":
      return `Sure! Here is the ${what} you asked for (as {JSON}):\n\n${text}\n\nLet me know if you want any {changes}.`;
    default:
      return text;
  }
}

/** A value that is valid JSON but breaks the schema: drops the first required field (or mistypes one). */
function violate(value: unknown, schema: unknown): unknown {
  const s = normalize(schema, schema);
  if (isRecord(value)) {
    const required = Array.isArray(s.required)
      ? s.required.filter((r): r is string => typeof r === "string")
      : [];
    const copy = { ...value };
    const victim = required.find((r) => r in copy);
    if (victim !== undefined) {
      delete copy[victim];
      return copy;
    }
    const first = Object.keys(copy)[0];
    if (first !== undefined) {
      copy[first] = typeof copy[first] === "number" ? "not a number" : 12345;
      return copy;
    }
    return "not an object";
  }
  if (typeof value === "number") return "not a number";
  return 12345;
}

// ---------------------------------------------------------------------------------------------
// OpenAI's strict-mode schema rules (see the header for sources)
// ---------------------------------------------------------------------------------------------

/**
 * Which reading of the documented keyword list applies. "fine-tuned" (the default, the strictest
 * documented one, and what every model and snapshot accepts): no string, number or array bounds, no
 * pattern, no format. "base-model": today's guide also lets non-fine-tuned models use pattern, format,
 * multipleOf, minimum/maximum (and exclusive), minItems and maxItems. minLength/maxLength are in neither
 * list and are refused under both.
 */
export type StrictSchemaRules = "fine-tuned" | "base-model";

/** Keywords a strict schema may use under every reading (`title` and `$schema` are observed accepted). */
const STRICT_KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "$schema",
]);
const BASE_MODEL_KEYWORDS = new Set([
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

/** The documented size limits of one strict schema. */
export const STRICT_LIMITS = {
  nestingLevels: 10,
  objectProperties: 5000,
  enumValues: 1000,
  stringChars: 120_000,
  /** A single string enum with more than this many values ... */
  bigEnumValues: 250,
  /** ... may hold at most this many characters in all. */
  bigEnumChars: 15_000,
} as const;

/** OpenAI names a place in the schema as a Python tuple: `()`, `('properties', 'tags', 'items')`. */
function pythonTuple(path: string[]): string {
  const items = path.map((p) => `'${p}'`);
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

const typeIncludes = (s: Record<string, unknown>, t: string): boolean =>
  s.type === t || (Array.isArray(s.type) && s.type.includes(t));

/**
 * The reason OpenAI would refuse `schema` sent with `strict: true`, in its words (without the
 * "Invalid schema for ...: " prefix), or null when it would accept it. Structural rules are checked
 * depth-first in property order, a schema's own keywords before its children; the limits after that.
 */
export function strictSchemaProblem(schema: unknown, rules: StrictSchemaRules = "fine-tuned"): string | null {
  if (!isRecord(schema) || schema.type !== "object") {
    const got = isRecord(schema) && schema.type !== undefined ? JSON.stringify(schema.type) : '"None"';
    return `schema must be a JSON Schema of 'type: "object"', got 'type: ${got}'.`;
  }
  const totals = { properties: 0, enumValues: 0, stringChars: 0 };
  let bigEnum: string | null = null;

  const walk = (node: unknown, path: string[]): string | null => {
    const at = `In context=${pythonTuple(path)}, `;
    if (!isRecord(node)) return `${at}schema must have a 'type' key.`;
    for (const key of Object.keys(node)) {
      if (key === "$schema" && path.length > 0) return `${at}'${key}' is not permitted.`;
      if (!STRICT_KEYWORDS.has(key) && !(rules === "base-model" && BASE_MODEL_KEYWORDS.has(key)))
        return `${at}'${key}' is not permitted.`;
    }
    if (node.type === undefined && node.anyOf === undefined && node.$ref === undefined)
      return `${at}schema must have a 'type' key.`;
    const values = [...(Array.isArray(node.enum) ? node.enum : []), ...("const" in node ? [node.const] : [])];
    totals.enumValues += Array.isArray(node.enum) ? node.enum.length : 0;
    const chars = values.reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0);
    totals.stringChars += chars;
    if (
      bigEnum === null &&
      Array.isArray(node.enum) &&
      node.enum.length > STRICT_LIMITS.bigEnumValues &&
      chars > STRICT_LIMITS.bigEnumChars
    )
      bigEnum = `${at}${node.enum.length} enum values with a total string length of ${chars} exceeds limit of ${STRICT_LIMITS.bigEnumChars}.`;
    if (typeIncludes(node, "object")) {
      if (node.additionalProperties !== false)
        return `${at}'additionalProperties' is required to be supplied and to be false.`;
      const props = isRecord(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : null;
      const requiredRule = `${at}'required' is required to be supplied and to be an array including every key in properties.`;
      const missing = props.find((p) => !required?.includes(p));
      if (missing !== undefined) return `${requiredRule} Missing '${missing}'.`;
      if (required === null) return requiredRule;
      const extra = required.find((r) => !props.includes(String(r)));
      if (extra !== undefined) return `${requiredRule} Extra required key '${String(extra)}' supplied.`;
      totals.properties += props.length;
      for (const p of props) {
        totals.stringChars += p.length;
        const problem = walk((node.properties as Record<string, unknown>)[p], [...path, "properties", p]);
        if (problem) return problem;
      }
    }
    if (node.items !== undefined) {
      const problem = walk(node.items, [...path, "items"]);
      if (problem) return problem;
    }
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf)) return `${at}'anyOf' must be an array.`;
      for (const [i, branch] of node.anyOf.entries()) {
        const problem = walk(branch, [...path, "anyOf", String(i)]);
        if (problem) return problem;
      }
    }
    for (const defsKey of ["$defs", "definitions"]) {
      const defs = node[defsKey];
      if (!isRecord(defs)) continue;
      for (const [name, def] of Object.entries(defs)) {
        totals.stringChars += name.length;
        const problem = walk(def, [...path, defsKey, name]);
        if (problem) return problem;
      }
    }
    return null;
  };

  const structural = walk(schema, []);
  if (structural) return structural;
  const levels = nestingLevels(schema);
  if (levels > STRICT_LIMITS.nestingLevels)
    return `${levels} levels of nesting exceeds limit of ${STRICT_LIMITS.nestingLevels}.`;
  if (totals.properties > STRICT_LIMITS.objectProperties)
    return `${totals.properties} parameters exceeds limit of ${STRICT_LIMITS.objectProperties}.`;
  if (totals.enumValues > STRICT_LIMITS.enumValues)
    return `${totals.enumValues} enum values exceeds limit of ${STRICT_LIMITS.enumValues}.`;
  if (totals.stringChars > STRICT_LIMITS.stringChars)
    return `Total string length of property names, definition names, enum values and const values (${totals.stringChars}) exceeds limit of ${STRICT_LIMITS.stringChars}.`;
  return bigEnum;
}

/**
 * Levels of nesting, counted fail-closed (OpenAI does not document how it counts): every schema on the
 * deepest path through `properties` and `items` is a level, the root and the leaf included; the branches
 * of an `anyOf` are on their parent's level; `$ref`s are not followed.
 */
function nestingLevels(node: unknown): number {
  if (!isRecord(node)) return 1;
  const children = [
    ...(isRecord(node.properties) ? Object.values(node.properties) : []),
    ...(node.items !== undefined ? [node.items] : []),
  ];
  const below = Math.max(0, ...children.map(nestingLevels));
  const branches = Array.isArray(node.anyOf) ? node.anyOf.map(nestingLevels) : [];
  return Math.max(1 + below, ...branches);
}

/** The models that take `max_completion_tokens` and only the default temperature (o-series, gpt-5). */
const isReasoningModel = (model: string): boolean =>
  /^o\d/.test(model) || (model.startsWith("gpt-5") && !model.startsWith("gpt-5-chat"));

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

const apiError = (
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
) => ({
  error: { message, type, param, code },
});

const COULD_NOT_PARSE = apiError(
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
  "invalid_request_error",
);

/** An answer the body reader gives up with (too large, not JSON), held until the key has been checked. */
class Unreadable extends Error {
  constructor(
    readonly status: number,
    readonly body: OpenAIErrorBody,
  ) {
    super(body.error.message);
  }
}

function maskKey(key: string): string {
  if (key.length <= 8) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(Math.min(20, key.length - 7))}${key.slice(-4)}`;
}

export async function startFakeOpenAI(
  opts: {
    apiKey?: string;
    host?: string;
    port?: number;
    latencyMs?: number;
    /** How strict schemas are judged (default "fine-tuned", the strictest documented reading). */
    strictSchemaRules?: StrictSchemaRules;
  } = {},
): Promise<FakeOpenAI> {
  const strictSchemaRules = opts.strictSchemaRules ?? "fine-tuned";
  const apiKey = opts.apiKey ?? DEFAULT_API_KEY;
  const initialLatency = Math.max(0, opts.latencyMs ?? 0);

  let latency = initialLatency;
  let mode: FakeOpenAIMode = "ok";
  let modeRemaining: number | null = null;
  let responder: ((req: FakeChatRequest) => unknown | undefined) | null = null;
  let planShape: Required<FakePlanShape> = { subtasks: DEFAULT_SUBTASKS, complexity: defaultComplexity };
  const requests: FakeChatRequest[] = [];
  const usage = { requests: 0, promptTokens: 0, completionTokens: 0 };
  const models = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  const takeMode = (): FakeOpenAIMode => {
    const current = mode;
    if (modeRemaining !== null) {
      modeRemaining--;
      if (modeRemaining <= 0) {
        mode = "ok";
        modeRemaining = null;
      }
    }
    return current;
  };

  function rateLimitHeaders(exhausted: boolean): Record<string, string> {
    return {
      "x-ratelimit-limit-requests": String(RATE_LIMIT_RPM),
      "x-ratelimit-limit-tokens": "30000000",
      "x-ratelimit-remaining-requests": exhausted ? "0" : String(RATE_LIMIT_RPM - 1),
      "x-ratelimit-remaining-tokens": exhausted ? "0" : "29999000",
      "x-ratelimit-reset-requests": exhausted ? "1s" : "120ms",
      "x-ratelimit-reset-tokens": exhausted ? "1s" : "2ms",
    };
  }

  /** JSON as OpenAI sends it. */
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
    jsonReply(status, body, { "content-type": "application/json", ...headers });

  function authError(req: FakeRequest): OpenAIErrorBody | null {
    const header = req.headers.authorization ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match)
      return apiError(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
      );
    const given = match[1]!.trim();
    if (given !== apiKey) return invalidKey(given);
    return null;
  }

  const invalidKey = (given: string): OpenAIErrorBody =>
    apiError(
      `Incorrect API key provided: ${maskKey(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      "invalid_request_error",
      "invalid_api_key",
    );

  /** Reads what we need from a chat body; null when it has no `messages` array. */
  function toRecord(body: unknown): FakeChatRequest | null {
    if (!isRecord(body) || !Array.isArray(body.messages)) return null;
    const messages = body.messages.map((m) => ({
      role: isRecord(m) ? (str(m.role) ?? "") : "",
      content: isRecord(m) ? contentText(m.content) : "",
    }));
    const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
    const toolChoice = body.tool_choice;
    const rf = isRecord(body.response_format) ? body.response_format : null;
    let method: FakeChatRequest["method"] = "plain";
    let schemaName: string | null = null;
    let schema: unknown = null;
    let strict = false;
    const functionTools = tools
      .map((t) => (isRecord(t.function) ? t.function : null))
      .filter((f): f is Record<string, unknown> => f !== null);
    if (functionTools.length > 0 && toolChoice !== "none") {
      const wanted =
        isRecord(toolChoice) && isRecord(toolChoice.function) ? str(toolChoice.function.name) : undefined;
      const fn = functionTools.find((f) => f.name === wanted) ?? functionTools[0]!;
      method = "tools";
      schemaName = str(fn.name) ?? null;
      schema = fn.parameters ?? { type: "object", properties: {} };
      strict = fn.strict === true;
    } else if (rf?.type === "json_schema" && isRecord(rf.json_schema)) {
      method = "json_schema";
      schemaName = str(rf.json_schema.name) ?? null;
      schema = rf.json_schema.schema ?? {};
      strict = rf.json_schema.strict === true;
    }
    return {
      model: str(body.model) ?? "",
      messages,
      schemaName,
      schema,
      method,
      strict,
      maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens) ?? null,
      body,
      receivedAt: Date.now(),
    };
  }

  // Each task split gets its own block of title numbers (kept for its next identical prompt).
  const titleBlocks = new Map<string, number>();
  const titleBlock = (key: string) => {
    if (!titleBlocks.has(key)) titleBlocks.set(key, titleBlocks.size * TITLE_BLOCK);
    return titleBlocks.get(key)!;
  };
  function generatedValue(record: FakeChatRequest): unknown {
    const facts = promptFacts(record.messages);
    const ctx: GenContext = {
      root: record.schema,
      depth: facts.depth,
      maxSubtasksPhrase: facts.maxSubtasksPhrase,
      subtasks: planShape.subtasks,
      complexity: planShape.complexity,
      task: facts.task,
      titleNumber: (index) => titleBlock(`${facts.depth}:${facts.taskLine}`) + index,
      counters: new Map(),
      named: new Map(),
    };
    return generate(record.schema, ctx, ROOT_SITE);
  }

  function completionBody(
    record: FakeChatRequest,
    body: Record<string, unknown>,
    answerMode: FakeOpenAIMode,
  ): Record<string, unknown> {
    const custom = responder ? responder(record) : undefined;
    let text: string;
    if (record.method === "plain") {
      const facts = promptFacts(record.messages);
      const jsonObject = isRecord(body.response_format) && body.response_format.type === "json_object";
      if (custom !== undefined) text = typeof custom === "string" ? custom : JSON.stringify(custom);
      else if (jsonObject) text = JSON.stringify({ answer: `Fake answer to: ${facts.task}` });
      else text = `Fake answer to: ${facts.task}`;
    } else {
      let value = custom !== undefined ? custom : generatedValue(record);
      if (answerMode === "schema_violation") value = violate(value, record.schema);
      text = JSON.stringify(value);
    }
    let finishReason = record.method === "tools" ? "tool_calls" : "stop";
    if (answerMode === "malformed_json")
      text = `Sure! Here is the ${record.schemaName ?? "answer"} you asked for: {${record.schemaName ?? "result"}: [oops`;
    if (answerMode === "truncated") {
      text = text.slice(0, Math.floor(text.length / 2));
      finishReason = "length";
    }
    text = wrapAnswer(text, answerMode, record);

    const message: Record<string, unknown> =
      record.method === "tools"
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: `call_${randomId(24)}`,
                type: "function",
                function: { name: record.schemaName ?? "extract", arguments: text },
              },
            ],
            refusal: null,
            annotations: [],
          }
        : { role: "assistant", content: text, refusal: null, annotations: [] };

    const promptTokens = tokens(record.messages.reduce((n, m) => n + m.content.length, 0));
    const completionTokens = tokens(text.length);
    usage.requests++;
    usage.promptTokens += promptTokens;
    usage.completionTokens += completionTokens;
    return {
      id: `chatcmpl-${randomId(29)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: record.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: "default",
      system_fingerprint: "fp_fake0openai",
    };
  }

  /**
   * What OpenAI refuses before any generation: parameters the model does not take, and a schema sent
   * with `strict: true` that breaks the strict-mode rules (every strict function tool, then the
   * response format).
   */
  function requestRefusal(body: Record<string, unknown>, model: string): OpenAIErrorBody | null {
    if (isReasoningModel(model)) {
      if (body.max_tokens !== undefined)
        return apiError(
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          "invalid_request_error",
          "unsupported_parameter",
          "max_tokens",
        );
      if (body.temperature !== undefined && body.temperature !== 1)
        return apiError(
          `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
          "invalid_request_error",
          "unsupported_value",
          "temperature",
        );
    }
    const tools = Array.isArray(body.tools) ? body.tools : [];
    for (const [i, tool] of tools.entries()) {
      const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : null;
      if (fn?.strict !== true) continue;
      const problem = strictSchemaProblem(fn.parameters, strictSchemaRules);
      if (problem)
        return apiError(
          `Invalid schema for function '${str(fn.name) ?? ""}': ${problem}`,
          "invalid_request_error",
          "invalid_function_parameters",
          `tools[${i}].function.parameters`,
        );
    }
    const rf = isRecord(body.response_format) ? body.response_format : null;
    if (rf?.type === "json_schema" && isRecord(rf.json_schema) && rf.json_schema.strict === true) {
      const problem = strictSchemaProblem(rf.json_schema.schema, strictSchemaRules);
      if (problem)
        return apiError(
          `Invalid schema for response_format '${str(rf.json_schema.name) ?? ""}': ${problem}`,
          "invalid_request_error",
          null,
          "response_format",
        );
    }
    return null;
  }

  async function handleChat(req: FakeRequest): Promise<Reply | undefined> {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    void req.closed.then(() => {
      inFlight--;
    });

    let body: unknown;
    let unreadable: Unreadable | null = null;
    try {
      body = req.json();
    } catch (e) {
      if (!(e instanceof Unreadable)) throw e;
      unreadable = e;
    }
    const record = unreadable ? null : toRecord(body);
    if (record) {
      requests.push(record);
      if (record.model) models.add(record.model);
    }

    const answer = async (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      await server.delay(latency);
      return json(status, payload, { ...rateLimitHeaders(false), ...headers });
    };

    const auth = authError(req);
    if (auth) return answer(401, auth);
    if (unreadable) return answer(unreadable.status, unreadable.body);
    if (!isRecord(body)) return answer(400, COULD_NOT_PARSE);
    if (typeof body.model !== "string" || body.model === "")
      return answer(400, apiError("you must provide a model parameter", "invalid_request_error"));
    if (!record)
      return answer(
        400,
        apiError(
          "Missing required parameter: 'messages'.",
          "invalid_request_error",
          "missing_required_parameter",
          "messages",
        ),
      );
    if (body.stream === true)
      return answer(
        400,
        apiError("streaming not supported by the fake", "invalid_request_error", null, "stream"),
      );
    const refusal = requestRefusal(body, record.model);
    if (refusal) return answer(400, refusal);

    const answerMode = takeMode();
    switch (answerMode) {
      case "unauthorized":
        return answer(401, invalidKey(apiKey));
      case "rate_limit":
        return answer(
          429,
          apiError(
            `Rate limit reached for ${record.model} in organization org-fake on requests per min (RPM): Limit ${RATE_LIMIT_RPM}, Used ${RATE_LIMIT_RPM}, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
            "requests",
            "rate_limit_exceeded",
          ),
          { ...rateLimitHeaders(true), "retry-after": "1" },
        );
      case "server_error":
        return answer(
          500,
          apiError(
            "The server had an error while processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if the error persists.",
            "server_error",
          ),
        );
      case "timeout":
        // Hold the socket: nothing is sent until the client gives up or close() destroys it.
        return undefined;
      case "context_length_exceeded":
        return answer(
          400,
          apiError(
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
            "invalid_request_error",
            "context_length_exceeded",
            "messages",
          ),
        );
      case "model_not_found":
        return answer(
          404,
          apiError(
            `The model \`${record.model}\` does not exist or you do not have access to it.`,
            "invalid_request_error",
            "model_not_found",
          ),
        );
      default: {
        let payload: Record<string, unknown>;
        try {
          payload = completionBody(record, body, answerMode);
        } catch (e) {
          return answer(
            500,
            apiError(
              `The fake's responder threw: ${e instanceof Error ? e.message : String(e)}`,
              "server_error",
            ),
          );
        }
        return answer(200, payload);
      }
    }
  }

  const routes = new Router().post("/v1/chat/completions", handleChat).get("/v1/models", (req) => {
    const auth = authError(req);
    if (auth) return json(401, auth);
    const created = Math.floor(Date.now() / 1000);
    const ids = [...new Set([...models, FALLBACK_MODEL])];
    return json(200, {
      object: "list",
      data: ids.map((id) => ({ id, object: "model", created, owned_by: "system" })),
    });
  });
  const server: FakeServer = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    trailingSlash: "ignore",
    bodyLimit: MAX_BODY_BYTES,
    notFound: (req) =>
      json(404, apiError(`Invalid URL (${req.method} ${req.path})`, "invalid_request_error")),
    tooLarge: () =>
      new Unreadable(
        413,
        apiError(`Request body too large. Max size: ${MAX_BODY_BYTES} bytes.`, "invalid_request_error"),
      ),
    malformedJson: () => new Unreadable(400, COULD_NOT_PARSE),
    onError: (e) =>
      json(
        500,
        apiError(`Fake OpenAI failure: ${e instanceof Error ? e.message : String(e)}`, "server_error"),
      ),
    replyHeaders: (req) => ({
      "x-request-id": `req_${randomBytes(16).toString("hex")}`,
      "openai-version": "2020-10-01",
      "openai-organization": "org-fake",
      "openai-processing-ms": String(Date.now() - req.log.at),
    }),
  });

  const fake: FakeOpenAI = {
    url: `${server.url}/v1`,
    apiKey,
    setLatency(ms) {
      latency = Math.max(0, ms);
    },
    setMode(next, modeOpts) {
      mode = next;
      const times = modeOpts?.times;
      modeRemaining = times === undefined ? null : Math.max(0, Math.floor(times));
      if (modeRemaining === 0) {
        mode = "ok";
        modeRemaining = null;
      }
    },
    setResponder(fn) {
      responder = fn;
    },
    setPlanShape(shape) {
      planShape = {
        subtasks: shape.subtasks ?? planShape.subtasks,
        complexity: shape.complexity ?? planShape.complexity,
      };
    },
    requests,
    get usage() {
      return usage;
    },
    inFlight: () => inFlight,
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      latency = initialLatency;
      mode = "ok";
      modeRemaining = null;
      responder = null;
      planShape = { subtasks: DEFAULT_SUBTASKS, complexity: defaultComplexity };
      requests.length = 0;
      usage.requests = 0;
      usage.promptTokens = 0;
      usage.completionTokens = 0;
      models.clear();
      maxInFlight = inFlight;
    },
    server,
    close: server.close,
  };
  return fake;
}
