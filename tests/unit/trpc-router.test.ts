import { describe, expect, it } from "vitest";
import { operationRegistry } from "../../src/server/operations/all";
import { appRouter } from "../../src/server/trpc/router";

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;

describe("the tRPC router", () => {
  it("serves every declared operation at its group's path, as a query or a mutation as declared", () => {
    const declared = Object.entries(operationRegistry).flatMap(([id, g]) =>
      Object.entries(g.operations).map(([name, op]) => [`${id}.${name}`, op.type] as const),
    );
    expect(declared.length).toBeGreaterThan(100);
    const served = declared.map(([path]) => [path, procedures[path]?._def.type] as const);
    expect(served).toEqual(declared);
  });
});
