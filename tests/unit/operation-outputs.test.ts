import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationGroups } from "../../src/server/operations/all";
import { linkOperations } from "../../src/server/operations/links";

/**
 * Every operation declares its answer (`output`): the API reference describes it, the CLI reads answers
 * with it, and with CHECK_OPERATION_OUTPUTS (the test servers) `invoke` parses every answer with it, so
 * a test that gets an answer its schema refuses fails with a 500 naming the operation.
 */
const operations = operationGroups.flatMap((g) =>
  Object.entries(g.operations).map(([name, op]) => ({ id: `${g.id}.${name}`, op })),
);

describe("the operations' answers", () => {
  it("are declared by every operation", () => {
    expect(operations.filter(({ op }) => !op.output).map(({ id }) => id)).toEqual([]);
    expect(operations.length).toBeGreaterThan(90);
    // The hand-written routes' operations (operations/links.ts) go through invoke too.
    expect(
      Object.entries(linkOperations)
        .filter(([, op]) => !op.output)
        .map(([name]) => name),
    ).toEqual([]);
  });

  it("are nothing for a route that answers 204", () => {
    const silent = operations.filter(({ op }) => op.rest?.some((r) => r.status === 204));
    expect(silent.length).toBeGreaterThan(0);
    for (const { id, op } of silent) expect(op.output?.safeParse(undefined).success, id).toBe(true);
  });

  it("describe JSON as it is sent: no transforms or defaults, so a client reads what the check parsed", () => {
    const reshaping = operations
      .filter(({ op }) => op.output && !op.rest?.some((r) => r.status === 204))
      .filter(({ op }) => {
        // The two sides differ in objects' additionalProperties alone (zod strips unknown keys on input).
        const side = (io: "input" | "output") =>
          JSON.stringify(z.toJSONSchema(op.output as z.ZodType, { io, unrepresentable: "throw" }), (k, v) =>
            k === "additionalProperties" ? undefined : v,
          );
        return side("input") !== side("output");
      })
      .map(({ id }) => id);
    expect(reshaping).toEqual([]);
  });
});
