import { z } from "zod";

/**
 * The JSON schema a model is sent: the subset that OpenAI's strict structured outputs, Azure OpenAI,
 * Ollama, vLLM and LM Studio all accept. Every object lists all its properties in `required` and sets
 * `additionalProperties: false`; a property the model may leave out is a union with null. Lengths, ranges,
 * counts, patterns and formats are not sent (OpenAI's strict mode refuses some of them, e.g. "'minLength'
 * is not permitted", and local servers ignore or mistranslate others): they stay in the zod schema the
 * answer is validated with, and are described in words in `description` so the model still knows them.
 */
export type PortableSchema = {
  type?: PortableType;
  description?: string;
  properties?: Record<string, PortableSchema>;
  required?: string[];
  additionalProperties?: false;
  items?: PortableSchema;
  enum?: EnumValue[];
  anyOf?: PortableSchema[];
};

type PortableType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
type EnumValue = string | number | boolean | null;

/** Every keyword a portable schema may contain. */
export const PORTABLE_KEYWORDS = [
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
] as const;

export type PortableFormat = {
  /** What the model is sent (JSON, no functions inside). */
  schema: PortableSchema;
  /**
   * The model's answer as the zod schema expects it: a null the portable schema asked for in place of an
   * optional (not nullable) property becomes an absent property again.
   */
  toZodInput(answer: unknown): unknown;
};

/** A zod schema that cannot be expressed in the portable subset (records, tuples, intersections...). */
export class PortableSchemaError extends Error {
  constructor(path: string, problem: string) {
    super(`Not portable at ${path || "/"}: ${problem}`);
    this.name = "PortableSchemaError";
  }
}

/** How to walk an answer back: per object, which properties were optional and only nullable for the model. */
type Shape = {
  properties?: Map<string, { shape: Shape; omitNull: boolean }>;
  items?: Shape;
  anyOf?: Shape[];
};
type Converted = { schema: PortableSchema; shape: Shape };

const NULL_SCHEMA: PortableSchema = { type: "null" };
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
/** Keywords with no portable meaning that would change which values are valid if we dropped them. */
const UNSUPPORTED = [
  "$ref",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "prefixItems",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
/** A bound worth telling the model (zod's .int() adds the safe-integer range, which says nothing). */
const bound = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined;
};

export function portableFormat(schema: z.ZodType): PortableFormat {
  // "input": the model's answer is what zod parses, so defaults and transforms apply after it.
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw", cycles: "throw" });
  } catch (e) {
    throw new PortableSchemaError("", e instanceof Error ? e.message : String(e));
  }
  if (!isRecord(json) || json.type !== "object")
    throw new PortableSchemaError("", "the root must be an object (OpenAI refuses any other root)");
  const { schema: portable, shape } = convert(json, "");
  return { schema: portable, toZodInput: (answer) => restore(answer, shape) };
}

/** Limits the portable schema cannot carry, in words for the model (zod still enforces them). */
function limitsInWords(node: Record<string, unknown>): string | null {
  const count = (min: number | undefined, max: number | undefined, unit: string): string | null => {
    const u = (n: number) => `${unit}${n === 1 ? "" : "s"}`;
    if (min !== undefined && max !== undefined)
      return min === max ? `exactly ${min} ${u(min)}` : `${min} to ${max} ${u(max)}`;
    if (min !== undefined && min > 0) return `at least ${min} ${u(min)}`;
    if (max !== undefined) return `at most ${max} ${u(max)}`;
    return null;
  };
  const [min, max, above, below] = [
    node.minimum,
    node.maximum,
    node.exclusiveMinimum,
    node.exclusiveMaximum,
  ].map(bound);
  const value =
    min !== undefined && max !== undefined
      ? `from ${min} to ${max}`
      : [
          min !== undefined ? `at least ${min}` : null,
          above !== undefined ? `greater than ${above}` : null,
          max !== undefined ? `at most ${max}` : null,
          below !== undefined ? `less than ${below}` : null,
        ]
          .filter(Boolean)
          .join(" and ") || null;
  const parts = [
    count(num(node.minLength), num(node.maxLength), "character"),
    count(num(node.minItems), num(node.maxItems), "item"),
    value,
    typeof node.format === "string" ? `format ${node.format}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? `Limits: ${parts.join(", ")}.` : null;
}

function descriptionOf(node: Record<string, unknown>): string | undefined {
  const text = [typeof node.description === "string" ? node.description : null, limitsInWords(node)]
    .filter(Boolean)
    .join(" ");
  return text || undefined;
}

function withDescription(schema: PortableSchema, description: string | undefined): PortableSchema {
  return description === undefined ? schema : { ...schema, description };
}

function acceptsNull(s: PortableSchema): boolean {
  return s.type === "null" || (s.enum?.includes(null) ?? false) || (s.anyOf?.some(acceptsNull) ?? false);
}

function typeOfValues(values: EnumValue[], path: string): PortableType {
  const types = new Set(
    values.map((v) =>
      v === null ? "null" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v,
    ),
  );
  types.delete("null");
  if (types.size === 2 && types.has("integer") && types.has("number")) return "number";
  const [only] = [...types];
  if (types.size !== 1 || !only || !SCALAR_TYPES.has(only))
    throw new PortableSchemaError(path, "an enum must hold values of one scalar type");
  return only as PortableType;
}

function convert(node: unknown, path: string): Converted {
  if (!isRecord(node)) throw new PortableSchemaError(path, "not a schema object");
  for (const keyword of UNSUPPORTED)
    if (keyword in node) throw new PortableSchemaError(path, `'${keyword}' has no portable equivalent`);
  const description = descriptionOf(node);

  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches))
    return union(
      branches.map((b, i) => convert(b, `${path}/anyOf/${i}`)),
      description,
    );

  // `type: ["string", "null"]` (zod's .optional().nullable() on a scalar) becomes a union with null.
  if (Array.isArray(node.type)) {
    const { type: types, description: own, ...rest } = node;
    return union(
      types.map((t, i) => convert(t === "null" ? { type: t } : { ...rest, type: t }, `${path}/type/${i}`)),
      typeof own === "string" ? own : undefined,
    );
  }

  if ("const" in node || Array.isArray(node.enum)) {
    const values = ("const" in node ? [node.const] : node.enum) as EnumValue[];
    if (values.some((v) => isRecord(v) || Array.isArray(v)))
      throw new PortableSchemaError(path, "enum values must be scalars");
    const type = typeof node.type === "string" ? node.type : typeOfValues(values, path);
    const typed: PortableType =
      type === "number" && values.every((v) => v === null || Number.isInteger(v))
        ? "integer"
        : (type as PortableType);
    return { schema: withDescription({ type: typed, enum: values }, description), shape: {} };
  }

  switch (node.type) {
    case "object":
      return object(node, path, description);
    case "array": {
      if (!isRecord(node.items)) throw new PortableSchemaError(path, "an array needs one `items` schema");
      const items = convert(node.items, `${path}/items`);
      return {
        schema: withDescription({ type: "array", items: items.schema }, description),
        shape: { items: items.shape },
      };
    }
    case "string":
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return { schema: withDescription({ type: node.type }, description), shape: {} };
    default:
      throw new PortableSchemaError(
        path,
        "every schema needs a type (OpenAI: \"schema must have a 'type' key\")",
      );
  }
}

function object(node: Record<string, unknown>, path: string, description: string | undefined): Converted {
  const props = isRecord(node.properties) ? node.properties : {};
  if (
    Object.keys(props).length === 0 &&
    node.additionalProperties !== undefined &&
    node.additionalProperties !== false
  )
    throw new PortableSchemaError(path, "records (free-form keys) cannot be strict; use an array of pairs");
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const properties: Record<string, PortableSchema> = {};
  const shapes = new Map<string, { shape: Shape; omitNull: boolean }>();
  for (const [key, sub] of Object.entries(props)) {
    const converted = convert(sub, `${path}/properties/${key}`);
    // Strict mode wants every property required; one the model may leave out is a union with null.
    const omitNull = !required.has(key) && !acceptsNull(converted.schema);
    properties[key] = omitNull
      ? union([converted, { schema: NULL_SCHEMA, shape: {} }]).schema
      : converted.schema;
    shapes.set(key, { shape: converted.shape, omitNull });
  }
  return {
    schema: withDescription(
      { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
      description,
    ),
    shape: { properties: shapes },
  };
}

/** A union: single-value enums of one type merge into one enum (story points 1|2|3|5|8|13). */
function union(branches: Converted[], description?: string): Converted {
  const flat: Converted[] = branches.flatMap((b) =>
    b.schema.anyOf && Object.keys(b.schema).length === 1
      ? b.schema.anyOf.map((schema, i) => ({ schema, shape: b.shape.anyOf?.[i] ?? {} }))
      : [b],
  );
  const enums = flat.filter((b) => b.schema.enum !== undefined && Object.keys(b.schema).length === 2);
  if (enums.length === flat.length && flat.length > 0) {
    const values = [...new Set(enums.flatMap((b) => b.schema.enum!))];
    return {
      schema: withDescription({ type: typeOfValues(values, ""), enum: values }, description),
      shape: {},
    };
  }
  if (flat.length === 1) {
    const [only] = flat as [Converted];
    return {
      schema: withDescription(only.schema, description ?? only.schema.description),
      shape: only.shape,
    };
  }
  return {
    schema: withDescription({ anyOf: flat.map((b) => b.schema) }, description),
    shape: { anyOf: flat.map((b) => b.shape) },
  };
}

function restore(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return shape.items ? value.map((v) => restore(v, shape.items!)) : value;
  if (!isRecord(value)) return value;
  if (shape.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const prop = shape.properties.get(key);
      if (prop?.omitNull && v === null) continue;
      out[key] = prop ? restore(v, prop.shape) : v;
    }
    return out;
  }
  // A union of objects: restore through the first branch that describes objects.
  const branch = shape.anyOf?.find((s) => s.properties !== undefined);
  return branch ? restore(value, branch) : value;
}
