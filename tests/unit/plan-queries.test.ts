/**
 * Issue 40, item 3: every `tasks` query is in one family the web app invalidates (src/client/lib/
 * plan-queries.ts). A query added to the router and to no family would go stale after every change, as the
 * Plan tab's charts did; this fails then.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AGENT_PLAN_QUERIES,
  LIST_QUERIES,
  PLAN_QUERIES,
  USAGE_QUERIES,
} from "../../src/client/lib/plan-queries";
import { appRouter } from "../../src/server/trpc/router";

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
const tasksQueries = Object.entries(procedures)
  .filter(([path, p]) => path.startsWith("tasks.") && p._def.type === "query")
  .map(([path]) => path.slice("tasks.".length))
  .sort();

describe("the web app's query families", () => {
  it("hold every tasks query, each once", () => {
    const families: readonly string[] = [...PLAN_QUERIES, ...LIST_QUERIES, ...USAGE_QUERIES];
    expect(tasksQueries.length).toBeGreaterThan(10);
    expect([...families].sort()).toEqual(tasksQueries);
  });

  it("hold every agent query the web app shows", () => {
    const files = readdirSync("src/client", { recursive: true, encoding: "utf8" }).filter((f) =>
      /\.tsx?$/.test(f),
    );
    const used = new Set(
      files.flatMap((f) =>
        [...readFileSync(join("src/client", f), "utf8").matchAll(/trpc\.agent\.(\w+)\.queryOptions/g)].map(
          (m) => m[1]!,
        ),
      ),
    );
    expect(used.size).toBeGreaterThan(0);
    expect([...used].sort()).toEqual([...AGENT_PLAN_QUERIES].sort());
  });

  it("count the Plan tab's charts and hours as the plan's", () => {
    expect(PLAN_QUERIES).toEqual(
      expect.arrayContaining(["actuals", "scopeChanges", "schedule", "requirements"]),
    );
  });
});
