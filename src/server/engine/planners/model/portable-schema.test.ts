import { describe, expect, it } from "vitest";
import { z } from "zod";
import { findApplicationType, findStack } from "../../../../shared/catalogue";
import * as plan from "../../../../shared/schemas/plan";
import { briefOfText } from "../../brief";
import type { ComposeRequest, ProjectBrief } from "../contract";
import { createOfflinePlanner } from "../offline/offline-planner";
import {
  PORTABLE_KEYWORDS,
  type PortableSchema,
  PortableSchemaError,
  portableFormat,
} from "./portable-schema";

/** Every zod object schema that plan.ts exports (what a model is asked to produce). */
const objectSchemas = Object.entries(plan as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodObject] => entry[1] instanceof z.ZodObject,
);

/** Walks every sub-schema with its JSON path. */
function* nodes(s: PortableSchema, path = "#"): Generator<[string, PortableSchema]> {
  yield [path, s];
  for (const [k, v] of Object.entries(s.properties ?? {})) yield* nodes(v, `${path}/properties/${k}`);
  if (s.items) yield* nodes(s.items, `${path}/items`);
  for (const [i, v] of (s.anyOf ?? []).entries()) yield* nodes(v, `${path}/anyOf/${i}`);
}

/** A small validator of the portable subset: the problems of `value` against `s`, none when it conforms. */
function problems(s: PortableSchema, value: unknown, path = "$"): string[] {
  if (s.anyOf)
    return s.anyOf.some((b) => problems(b, value).length === 0) ? [] : [`${path}: no branch matches`];
  if (s.enum && !s.enum.includes(value as never)) return [`${path}: not one of ${JSON.stringify(s.enum)}`];
  const ok: Record<string, (v: unknown) => boolean> = {
    object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
    array: Array.isArray,
    string: (v) => typeof v === "string",
    number: (v) => typeof v === "number",
    integer: (v) => Number.isInteger(v),
    boolean: (v) => typeof v === "boolean",
    null: (v) => v === null,
  };
  if (!s.type || !ok[s.type]!(value)) return [`${path}: not ${s.type}`];
  if (s.type === "array")
    return (value as unknown[]).flatMap((v, i) => problems(s.items!, v, `${path}[${i}]`));
  if (s.type !== "object") return [];
  const obj = value as Record<string, unknown>;
  return [
    ...(s.required ?? []).filter((k) => !(k in obj)).map((k) => `${path}.${k}: missing`),
    ...Object.keys(obj)
      .filter((k) => !(k in (s.properties ?? {})))
      .map((k) => `${path}.${k}: not allowed`),
    ...Object.entries(s.properties ?? {}).flatMap(([k, sub]) =>
      k in obj ? problems(sub, obj[k], `${path}.${k}`) : [],
    ),
  ];
}

function brief(description: string, typeId: string | null, stackId: string | null): ProjectBrief {
  const type = typeId ? findApplicationType(typeId) : undefined;
  const stack = typeId && stackId ? findStack(typeId, stackId) : undefined;
  return briefOfText(description, {
    applicationType: type ? { id: type.id, label: type.label, description: type.description } : null,
    stack: stack ?? null,
  });
}

/** Realistic zod-valid values of every stage: the offline planner's, which it parses with the same schemas. */
async function samples(): Promise<Record<string, unknown[]>> {
  const planner = createOfflinePlanner();
  const briefs = [
    brief(
      "A marketplace web app where sellers list handmade goods, buyers pay with Stripe and chat in real time.",
      "web-application",
      "react-node-postgres",
    ),
    brief("A command line tool that renames photos by the date they were taken.", null, null),
  ];
  const out: Record<string, unknown[]> = {
    complexityAssessment: [],
    plannedSubtask: [],
    subtaskPlan: [],
    projectContext: [],
    eventModelPlan: [],
    eventModelStructure: [],
  };
  for (const b of briefs) {
    out.complexityAssessment!.push((await planner.assessComplexity(b)).value);
    const split = await planner.splitTask({
      brief: b,
      task: { description: b.description, complexity_score: 8, implementation_details: null },
      ancestors: [],
      depth: 0,
      maxDepth: 3,
      maxSubtasks: 10,
    });
    // Off a repository the outline names no files; the samples fill every optional field.
    const subtasks = split.value.map((v) => ({
      ...v,
      files: v.files ?? [{ path: "src/a.ts", confidence: "high" as const, new: false }],
    }));
    out.subtaskPlan!.push({ subtasks });
    out.plannedSubtask!.push(...subtasks);
    const request: ComposeRequest = {
      brief: b,
      tasks: split.value.map((s) => ({
        description: s.description,
        depth: 1,
        complexity_score: s.complexity_score,
        story_points: s.story_points,
        is_atomic: true,
      })),
    };
    out.projectContext!.push((await planner.composeContext(request)).value);
    const eventModel = (await planner.composeEventModel(request)).value;
    out.eventModelPlan!.push(eventModel);
    const { event_model_markdown: _markdown, ...structure } = eventModel;
    out.eventModelStructure!.push(structure);
  }
  // Edges: the longest strings and arrays zod allows, nulls where zod allows them.
  const story = {
    id: "US1",
    epic_id: null,
    actor: "a".repeat(200),
    action: "b".repeat(1000),
    benefit: "",
    acceptance_criteria: Array.from({ length: 12 }, (_, i) => `criterion ${i}`),
    story_points: 13,
    priority: "wont_have",
  };
  out.projectContext!.push({
    tech_stack: { frontend: "", backend: "", database: "", deployment: "", description: "" },
    best_practices: Array.from({ length: 20 }, () => "x".repeat(500)),
    epics: [{ id: "E1", title: "t", description: "", priority: 5 }],
    user_stories: Array.from({ length: 60 }, () => story),
  });
  out.subtaskPlan!.push({
    subtasks: Array.from({ length: 10 }, () => ({
      description: "d".repeat(2000),
      complexity_score: 10,
      story_points: 1,
      implementation_details: "i".repeat(4000),
      acceptance_criteria: Array.from({ length: 5 }, () => "a".repeat(500)),
      requirement_ids: Array.from({ length: 50 }, (_, i) => `R${i + 1}`),
      estimated_hours: 10_000,
      estimate_low_hours: 0,
      estimate_high_hours: 10_000,
      depends_on: Array.from({ length: 9 }, (_, i) => i + 1),
      depends_on_elsewhere: Array.from({ length: 10 }, (_, i) => 1000 - i),
      files: Array.from({ length: 10 }, (_, i) => ({
        path: `src/${"p".repeat(390)}${i}.ts`,
        confidence: "low" as const,
        new: true,
      })),
    })),
  });
  return out;
}

describe("portableFormat over every schema in plan.ts", () => {
  it("finds the stage schemas", () => {
    expect(objectSchemas.map(([name]) => name).sort()).toEqual(
      [
        "complexityAssessment",
        "eventModelPlan",
        "eventModelStructure",
        "plannedSubtask",
        "projectContext",
        "subtaskPlan",
      ].sort(),
    );
  });

  it.each(objectSchemas)("%s uses only the portable keywords", (_name, schema) => {
    const portable = portableFormat(schema).schema;
    const allowed = new Set<string>(PORTABLE_KEYWORDS);
    for (const [path, node] of nodes(portable)) {
      for (const keyword of Object.keys(node)) expect(allowed.has(keyword), `${path}: ${keyword}`).toBe(true);
      // OpenAI: "schema must have a 'type' key" unless it is a union.
      expect(node.type !== undefined || node.anyOf !== undefined, `${path} has a type`).toBe(true);
    }
    // The same, once more on the serialised form (no undefined or function hiding anywhere).
    const text = JSON.stringify(portable);
    for (const keyword of [
      "minLength",
      "maxLength",
      "minimum",
      "maximum",
      "minItems",
      "maxItems",
      "pattern",
      "format",
      "default",
      "const",
      "$schema",
    ])
      expect(text).not.toContain(`"${keyword}"`);
  });

  it.each(objectSchemas)("%s: every object is strict and requires all its properties", (_name, schema) => {
    const portable = portableFormat(schema).schema;
    expect(portable.type).toBe("object");
    let objects = 0;
    for (const [path, node] of nodes(portable)) {
      if (node.type !== "object") continue;
      objects++;
      expect(node.additionalProperties, path).toBe(false);
      expect(node.required, path).toEqual(Object.keys(node.properties ?? {}));
    }
    expect(objects).toBeGreaterThan(0);
  });

  it("accepts every zod-valid value, and the shape check refuses broken ones", async () => {
    const values = await samples();
    for (const [name, schema] of objectSchemas) {
      const format = portableFormat(schema);
      const list = values[name]!;
      expect(list.length, name).toBeGreaterThanOrEqual(2);
      for (const value of list) {
        expect(schema.safeParse(value).success, `${name} sample is zod-valid`).toBe(true);
        expect(problems(format.schema, value), name).toEqual([]);
        // The samples fill every optional field, so nothing is dropped on the way back.
        expect(format.toZodInput(value)).toEqual(value);
      }
      const first = list[0] as Record<string, unknown>;
      const [key] = Object.keys(first);
      expect(problems(format.schema, { ...first, extra: 1 }), `${name}: extra property`).not.toEqual([]);
      const { [key!]: _dropped, ...missing } = first;
      expect(problems(format.schema, missing), `${name}: missing property`).not.toEqual([]);
    }
  });

  it("keeps the limits zod enforces in words, and story points as one enum", () => {
    const subtask = portableFormat(plan.subtaskPlan).schema.properties!.subtasks!;
    expect(subtask.description).toBe("Limits: 1 to 10 items.");
    const item = subtask.items!.properties!;
    expect(item.description).toEqual({ type: "string", description: "Limits: 1 to 2000 characters." });
    expect(item.complexity_score).toEqual({ type: "integer", description: "Limits: from 1 to 10." });
    expect(item.story_points).toEqual({ type: "integer", enum: [1, 2, 3, 5, 8, 13] });
    const story = portableFormat(plan.projectContext).schema.properties!.user_stories!.items!.properties!;
    expect(story.epic_id).toEqual({
      anyOf: [{ type: "string", description: "Limits: at most 50 characters." }, { type: "null" }],
    });
    expect(story.priority).toEqual({
      type: "string",
      enum: ["must_have", "should_have", "could_have", "wont_have"],
    });
  });
});

describe("portableFormat beyond plan.ts", () => {
  const schema = z.object({
    note: z.string().max(20).optional(),
    maybe: z.number().int().positive().nullable(),
    both: z.string().optional().nullable(),
    level: z.string().default("info"),
    kind: z.literal("task"),
    email: z.string().email(),
    nested: z.object({ tags: z.array(z.enum(["a", "b"])).max(3) }).optional(),
  });

  it("makes optional properties required unions with null, consts one-value enums, and drops formats", () => {
    const { schema: portable } = portableFormat(schema);
    expect(portable.required).toEqual(["note", "maybe", "both", "level", "kind", "email", "nested"]);
    const p = portable.properties!;
    expect(p.note).toEqual({
      anyOf: [{ type: "string", description: "Limits: at most 20 characters." }, { type: "null" }],
    });
    expect(p.maybe).toEqual({
      anyOf: [{ type: "integer", description: "Limits: greater than 0." }, { type: "null" }],
    });
    expect(p.both).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(p.level).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(p.kind).toEqual({ type: "string", enum: ["task"] });
    expect(p.email).toEqual({ type: "string", description: "Limits: format email." });
    expect(p.nested!.anyOf![0]).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["tags"],
    });
  });

  it("turns the model's nulls for optional properties back into absent ones, so zod accepts the answer", () => {
    const format = portableFormat(schema);
    const answer = {
      note: null,
      maybe: null,
      both: null,
      level: null,
      kind: "task",
      email: "a@example.com",
      nested: { tags: ["a"] },
    };
    expect(problems(format.schema, answer)).toEqual([]);
    expect(schema.safeParse(answer).success).toBe(false);
    const input = format.toZodInput(answer);
    expect(input).toEqual({
      maybe: null,
      both: null,
      kind: "task",
      email: "a@example.com",
      nested: { tags: ["a"] },
    });
    expect(schema.parse(input)).toMatchObject({ level: "info", maybe: null });
  });

  it("refuses what strict mode cannot express instead of sending it", () => {
    const cases: z.ZodType[] = [
      z.array(z.string()),
      plan.storyPoints,
      z.object({ free: z.record(z.string(), z.number()) }),
      z.object({ pair: z.tuple([z.string(), z.number()]) }),
      z.object({ anything: z.unknown() }),
      z.object({ when: z.date() }),
    ];
    for (const [i, c] of cases.entries())
      expect(() => portableFormat(c), `case ${i}`).toThrow(PortableSchemaError);
  });
});
