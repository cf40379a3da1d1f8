import { describe, expect, it } from "vitest";
import { findDuplicates } from "./dedupe";

const node = (
  id: string,
  parentId: string,
  description: string,
  ids: string[] = [],
  criteria = ["a", "b"],
) => ({
  id,
  parentId,
  description,
  requirementIds: ids,
  acceptanceCriteria: criteria,
});

describe("the dedup pass merges repeated leaves into the first one", () => {
  it("merges exact and near-identical leaves across branches, keeping the first and uniting ids and criteria", () => {
    const merges = findDuplicates([
      node("A", "root", "Payments"),
      node("A1", "A", "Model payments in PostgreSQL with Prisma", ["R2"], ["stored", "tested"]),
      node("B", "root", "Invoices"),
      node("B1", "B", "Model payments in PostgreSQL with Prisma.", ["R5"], ["migrated", "tested"]),
      node("B2", "B", "Model the payments in PostgreSQL using Prisma", ["R7"]),
      node("B3", "B", "Send invoice e-mails", ["R6"]),
    ]);
    expect(merges.map((m) => [m.keep, m.drop])).toEqual([
      ["A1", "B1"],
      ["A1", "B2"],
    ]);
    expect(merges.at(-1)?.requirementIds).toEqual(["R2", "R5", "R7"]);
    expect(merges.at(-1)?.acceptanceCriteria).toEqual(["stored", "tested", "migrated", "a", "b"]);
  });
  it("leaves groups, short titles and different work alone", () => {
    expect(
      findDuplicates([
        node("A", "root", "Set up CI"),
        node("A1", "A", "Write tests"),
        node("B", "root", "Set up CI"),
        node("B1", "B", "Write docs"),
        node("C1", "root", "Deploy the API to staging"),
        node("C2", "root", "Deploy the web app to production"),
      ]),
    ).toEqual([]);
  });

  it("compares titles, not what a description says below its title", () => {
    const said =
      'As stated: "Ideally with field mapping, a preview, error checking and a check for duplicates"';
    const merges = findDuplicates([
      {
        id: "a",
        parentId: "p",
        description: `R2: Field mapping\n\n${said}`,
        acceptanceCriteria: [],
        requirementIds: ["R2"],
      },
      {
        id: "b",
        parentId: "p",
        description: `R4: Error checking\n\n${said}`,
        acceptanceCriteria: [],
        requirementIds: ["R4"],
      },
      {
        id: "c",
        parentId: "p",
        description: "R4: Error checking",
        acceptanceCriteria: [],
        requirementIds: ["R5"],
      },
    ]);
    expect(merges.map((m) => m.drop)).toEqual(["c"]);
  });
});
