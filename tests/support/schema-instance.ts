/**
 * The smallest instance a JSON Schema allows, made from the schema alone: what an agent that fills the
 * schema as given, and nothing more, would answer (issue 39). Required properties only, the fewest
 * items, the shortest strings, the lowest numbers, the first of several choices. It covers the keywords
 * the server's schemas use (z.toJSONSchema output) and throws on any other, so a new keyword is noticed.
 */
type Schema = Record<string, unknown>;

const KNOWN = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "default",
  "format",
  "pattern",
  "propertyNames",
]);

export function instanceOf(schema: Schema, root: Schema = schema, path = "$"): unknown {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`${path}: no rule for the keyword "${key}"`);
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace(/^#\/\$defs\//, "");
    const target = (root.$defs as Record<string, Schema> | undefined)?.[name];
    if (!target) throw new Error(`${path}: unresolved ${schema.$ref}`);
    return instanceOf(target, root, path);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (choices) return instanceOf(choices[0]!, root, `${path}|0`);
  if (Array.isArray(schema.allOf))
    return Object.assign(
      {},
      ...(schema.allOf as Schema[]).map((s, i) => instanceOf(s, root, `${path}&${i}`)),
    );
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) {
        const property = properties[name];
        if (!property) throw new Error(`${path}: "${name}" is required but not defined`);
        out[name] = instanceOf(property, root, `${path}.${name}`);
      }
      return out;
    }
    case "array": {
      const count = Math.max(Number(schema.minItems ?? 0), 0);
      return Array.from({ length: count }, (_, i) =>
        instanceOf((schema.items ?? {}) as Schema, root, `${path}[${i}]`),
      );
    }
    case "string":
      if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      if (schema.pattern !== undefined) throw new Error(`${path}: a pattern the generator cannot fill`);
      return "x".repeat(Math.max(Number(schema.minLength ?? 1), 1));
    case "integer":
    case "number": {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      if (min === undefined) return 1;
      const base = Number(min) + (schema.exclusiveMinimum !== undefined ? 1 : 0);
      return type === "integer" ? Math.ceil(base) : base;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      throw new Error(`${path}: no type`);
  }
}
