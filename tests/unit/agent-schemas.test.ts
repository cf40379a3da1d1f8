/**
 * Issue 39, item 3: every JSON Schema the server hands an agent is valid and self-consistent (strict ajv:
 * every required key defined, no unknown keyword), and the smallest answer made from the schema alone is
 * accepted by what submit_subtasks and submit_composition parse it with.
 */
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { COMPOSITION_SCHEMA, lean, STEP_SCHEMAS } from "../../src/server/engine/agent-brief";
import { agentComposition, agentSplitAnswer } from "../../src/shared/schemas/agent-planning";
import { instanceOf } from "../support/schema-instance";

const SCHEMAS = {
  "the first step": { schema: STEP_SCHEMAS.first, parses: agentSplitAnswer },
  "every later step": { schema: STEP_SCHEMAS.later, parses: agentSplitAnswer },
  "the composition": { schema: COMPOSITION_SCHEMA, parses: agentComposition },
};

const strictAjv = () => new Ajv({ strict: true, strictRequired: true, allErrors: true });

describe("the schemas an agent is handed", () => {
  for (const [name, { schema, parses }] of Object.entries(SCHEMAS)) {
    it(`${name}: compiles in strict mode, and its smallest instance is valid and accepted`, () => {
      const validate = strictAjv().compile(schema);
      const answer = instanceOf(schema);
      expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
      const parsed = parses.safeParse(answer);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    });
  }

  it("keeps a property named like an annotation, and drops only the annotation", () => {
    const leaned = lean({
      type: "object",
      description: "an annotation",
      properties: { description: { type: "string", description: "also an annotation" } },
      required: ["description"],
    });
    expect(leaned).toEqual({
      type: "object",
      properties: { description: { type: "string" } },
      required: ["description"],
    });
    // The fault it fixes: a required key with no definition is refused by a strict validator.
    expect(() => strictAjv().compile({ type: "object", properties: {}, required: ["description"] })).toThrow(
      /required/,
    );
  });
});

describe("a step's schema and refusals say what the project allows (issue 40)", () => {
  it("bounds subtasks by the project's max_subtasks, as the brief and submit_subtasks do", async () => {
    const { stepSchemaFor } = await import("../../src/server/engine/agent-brief");
    const later = stepSchemaFor(false, 4) as { properties: { subtasks: { maxItems: number } } };
    expect(later.properties.subtasks.maxItems).toBe(4);
    expect((stepSchemaFor(true, 7) as typeof later).properties.subtasks.maxItems).toBe(7);
    // The shared schema is left as it is.
    expect((STEP_SCHEMAS.later as typeof later).properties.subtasks.maxItems).toBe(10);
  });

  it("names the story points allowed, and never repeats a field's name", async () => {
    const { storyPoints } = await import("../../src/shared/schemas/plan");
    const { fieldLine } = await import("../../src/server/operations/validation");
    expect(storyPoints.safeParse(4).error?.issues[0]?.message).toBe(
      "story_points must be one of 1, 2, 3, 5, 8, 13",
    );
    expect(
      fieldLine({ field: "subtasks.0.description", message: "subtasks.0.description is required" }),
    ).toBe("subtasks.0.description is required");
    expect(
      fieldLine({
        field: "subtasks.1.story_points",
        message: "story_points must be one of 1, 2, 3, 5, 8, 13",
      }),
    ).toBe("subtasks.1.story_points: story_points must be one of 1, 2, 3, 5, 8, 13");
  });
});
