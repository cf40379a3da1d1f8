import { describe, expect, it } from "vitest";
import {
  CSV_COLUMNS,
  csvField,
  defaultExportName,
  exportFileName,
  treeToCsv,
  treeToJson,
  treeToMarkdown,
} from "./export-formats";
import type { TaskTreeNode } from "./schemas/tasks";
import { descriptionFirstLine } from "./task-title";

function node(id: string, description: string, over: Partial<TaskTreeNode> = {}): TaskTreeNode {
  return {
    task_id: id,
    id,
    description,
    status: "pending",
    complexity_score: null,
    complexity: null,
    rejection_reason: null,
    failure_reason: null,
    needs_attention: false,
    acceptance_criteria: [],
    requirement_ids: [],
    estimated_hours: null,
    estimate_hours: null,
    depends_on: [],
    rollup: null,
    estimate_source: null,
    locked: [],
    edited_at: null,
    exported_at: null,
    remote_links: [],
    stated_scope: null,
    attention_reason: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    completed_at: null,
    depth: 0,
    position: 0,
    total_subtasks: 0,
    children_count: 0,
    parent_id: null,
    root_task_id: null,
    context: null,
    additional_context: null,
    metadata: null,
    story_points: null,
    implementation_details: null,
    is_atomic: false,
    predictions: null,
    tech_preferences: null,
    options: null,
    planner: null,
    model: null,
    warnings: [],
    children: [],
    ...over,
  };
}

/** Root → [A → [A1, A2], B]. */
function sampleTree(): TaskTreeNode {
  const a1 = node("a1", 'Write the "login" form, with validation', {
    parent_id: "a",
    complexity_score: 3,
    story_points: 2,
    is_atomic: true,
    status: "completed",
    estimated_hours: 6,
    estimate_hours: { low: 4, likely: 6, high: 11 },
    estimate_source: "rule",
    requirement_ids: ["R1", "R3"],
    acceptance_criteria: ["Wrong passwords are refused", "=SUM(A1) stays text"],
    started_at: "2026-01-05T09:00:00.000Z",
    completed_at: "2026-01-06T15:30:00.000Z",
    actual_hours: 9.5,
    actual_source: "working_time",
  });
  const a2 = node("a2", "Hook up the API\nsecond line, with a comma", {
    parent_id: "a",
    complexity_score: 4.25,
    story_points: 3,
    is_atomic: true,
    depends_on: ["a1"],
  });
  const a = node("a", "Authentication", { parent_id: "root", complexity_score: 6, children: [a1, a2] });
  const b = node("b", "=SUM(A1:A2) deploy", {
    parent_id: "root",
    story_points: 5,
    is_atomic: true,
    // A task outside the exported tree (a subtree export) is left out.
    depends_on: ["a", "elsewhere"],
  });
  return node("root", "Build a yoga studio booking site\nWith classes and payments", {
    complexity_score: 8,
    children: [a, b],
    context: {
      tech_stack: null,
      best_practices: [],
      epics: [{ id: "e1", title: "Accounts", description: "Sign up and sign in", priority: 1 }],
      user_stories: [
        {
          id: "s1",
          epic_id: "e1",
          actor: "member",
          action: "sign in",
          benefit: "I can book classes",
          acceptance_criteria: ["Wrong password shows an error"],
          story_points: 3,
          priority: "must_have",
        },
        {
          id: "s2",
          epic_id: null,
          actor: "owner",
          action: "see bookings",
          benefit: "",
          acceptance_criteria: [],
          story_points: null,
          priority: "should_have",
        },
      ],
    },
    metadata: {
      event_model_markdown: "# Event Model\n\n- BookingPlaced",
      extracted_events: [],
      commands: [],
      read_models: [],
      user_interactions: [],
      automations: [],
      swimlanes: [],
      chapters: [],
    },
  });
}

/** A minimal RFC 4180 parser, to check that what treeToCsv writes reads back the same. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe("exportFileName", () => {
  it("uses the first 30 characters of the first line", () => {
    expect(exportFileName("Build a yoga studio booking site with payments\nmore", "json")).toBe(
      "Build a yoga studio booking si-task-tree.json",
    );
    expect(exportFileName("Short", "md")).toBe("Short-task-tree.md");
    expect(exportFileName("Short", "csv")).toBe("Short-task-tree.csv");
  });

  it("skips blank leading lines and trims", () => {
    expect(exportFileName("\n\n   Todo app   \nsecond", "json")).toBe("Todo app-task-tree.json");
  });

  it("replaces characters file systems reject", () => {
    expect(exportFileName('a/b\\c:d*e?f"g<h>i|j', "json")).toBe("a_b_c_d_e_f_g_h_i_j-task-tree.json");
    expect(exportFileName("tab\there", "json")).toBe("tab here-task-tree.json");
  });

  it("never yields an empty, hidden or reserved name", () => {
    expect(exportFileName("", "json")).toBe("task-task-tree.json");
    expect(exportFileName("   \n  ", "csv")).toBe("task-task-tree.csv");
    expect(exportFileName("...", "json")).toBe("task-task-tree.json");
    expect(exportFileName(".env setup", "json")).toBe("env setup-task-tree.json");
    expect(exportFileName("CON", "json")).toBe("_CON-task-tree.json");
  });

  it("counts characters, not UTF-16 units", () => {
    const name = exportFileName(`${"🚀".repeat(40)}`, "json");
    expect(Array.from(name.replace("-task-tree.json", ""))).toHaveLength(30);
  });
});

describe("defaultExportName", () => {
  it("is 'Atomize ' + the first 30 characters of the first line", () => {
    expect(defaultExportName("Build a yoga studio booking site with payments\nx")).toBe(
      "Atomize Build a yoga studio booking si",
    );
    expect(defaultExportName("Todo")).toBe("Atomize Todo");
    expect(descriptionFirstLine("\r\n  first \r\n second")).toBe("first");
  });
});

describe("treeToJson", () => {
  it("round-trips the whole tree", () => {
    const tree = sampleTree();
    expect(JSON.parse(treeToJson(tree))).toEqual(tree);
  });
});

describe("csvField (RFC 4180)", () => {
  it("quotes commas, quotes and line breaks only", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(null)).toBe("");
    expect(csvField(3.5)).toBe("3.5");
    expect(csvField(false)).toBe("false");
  });
});

describe("treeToCsv", () => {
  it("writes a header and one row per task, parents first, with depth and path", () => {
    const csv = treeToCsv(sampleTree());
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const byId = Object.fromEntries(rows.slice(1).map((r) => [r[0], r]));
    expect(rows.slice(1).map((r) => r[0])).toEqual(["root", "a", "a1", "a2", "b"]);
    expect(byId.root).toEqual([
      "root",
      "",
      "0",
      "1",
      "Build a yoga studio booking site",
      "Build a yoga studio booking site\nWith classes and payments",
      "pending",
      "8",
      "",
      "false",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]);
    expect(byId.a1!.slice(0, 4)).toEqual(["a1", "a", "2", "1.1.1"]);
    expect(byId.a1![4]).toBe('Write the "login" form, with validation');
    expect(byId.a1!.slice(6)).toEqual([
      "completed",
      "3",
      "2",
      "true",
      "6",
      "rule",
      "R1 R3",
      "Wrong passwords are refused | =SUM(A1) stays text",
      "4",
      "11",
      "",
      "",
      "2026-01-05T09:00:00.000Z",
      "2026-01-06T15:30:00.000Z",
      "9.5",
      "working_time",
    ]);
    expect(byId.a2![3]).toBe("1.1.2");
    // What each task waits for, by id and by its place in the tree.
    const waits = CSV_COLUMNS.indexOf("depends_on");
    expect(byId.a2!.slice(waits, waits + 2)).toEqual(["a1", "1.1.1"]);
    expect(byId.b!.slice(waits, waits + 2)).toEqual(["a", "1.1"]);
    expect(byId.a2![5]).toBe("Hook up the API\nsecond line, with a comma");
    expect(byId.b![3]).toBe("1.2");
    // Every row has every column, whatever the quoting.
    for (const r of rows) expect(r).toHaveLength(CSV_COLUMNS.length);
  });

  it("keeps spreadsheet formulas inert", () => {
    const rows = parseCsv(treeToCsv(sampleTree()));
    const b = rows.find((r) => r[0] === "b")!;
    expect(b[4]).toBe("'=SUM(A1:A2) deploy");
  });

  it("quotes the raw text as RFC 4180 says", () => {
    const csv = treeToCsv(sampleTree());
    expect(csv).toContain('"Write the ""login"" form, with validation"');
    expect(csv).toContain('"Hook up the API\nsecond line, with a comma"');
  });
});

describe("treeToMarkdown", () => {
  const md = treeToMarkdown(sampleTree());

  it("starts with the root's first line as the heading", () => {
    expect(md.startsWith("# Build a yoga studio booking site\n")).toBe(true);
    expect(md).toContain("With classes and payments");
  });

  it("nests checklists by depth with complexity and story points", () => {
    const lines = md.split("\n");
    const at = (text: string) => lines.find((l) => l.includes(text))!;
    expect(at("**Authentication**")).toMatch(/^ {2}- \[ \] \*\*Authentication\*\* _\(complexity 6\/10/);
    expect(at("login")).toMatch(/^ {4}- \[x\] /);
    expect(at("login")).toContain(
      "complexity 3/10, 2 story points, about 6 h (estimated by rule), range 4-11 h, covers R1, R3, atomic, took 9.5 h (from start to done)",
    );
    const login = lines.findIndex((l) => l.includes("login"));
    expect(lines.slice(login + 1, login + 4)).toEqual([
      "      Acceptance criteria:",
      "      - Wrong passwords are refused",
      "      - =SUM(A1) stays text",
    ]);
    expect(at("Hook up the API")).toContain("complexity 4.3/10, 3 story points");
    // What a task waits for, by title, right under it (tasks outside the export are left out).
    const hook = lines.findIndex((l) => l.includes("Hook up the API"));
    expect(lines[hook + 1]).toBe('      Blocked by: Write the "login" form, with validation');
    expect(at("SUM(A1:A2) deploy")).toBeDefined();
    expect(lines[lines.findIndex((l) => l.includes("SUM(A1:A2) deploy")) + 1]).toBe(
      "    Blocked by: Authentication",
    );
    expect(at("second line")).toMatch(/^ {6}second line, with a comma$/);
    expect(md).toContain("- **Subtasks:** 4");
    expect(md).toContain("- **Story points (work items):** 10");
  });

  it("lists epics with their stories, unassigned stories, then the event model", () => {
    expect(md).toContain("### Accounts _(priority 1)_");
    expect(md).toContain("- As a member, I want sign in so that I can book classes _(3 SP, must have)_");
    expect(md).toContain("  - [ ] Wrong password shows an error");
    expect(md).toContain("### Unassigned stories");
    expect(md).toContain("- As a owner, I want see bookings _(should have)_");
    const eventModelAt = md.indexOf("## Event Model");
    expect(eventModelAt).toBeGreaterThan(md.indexOf("## Epics and User Stories"));
    expect(md.slice(eventModelAt)).toContain("- BookingPlaced");
  });

  it("escapes markup in task text", () => {
    const tree = node("r", "Use *stars* and [links](x)\n# not a heading", {
      children: [node("c", "<script>alert(1)</script>", { parent_id: "r" })],
    });
    const out = treeToMarkdown(tree);
    expect(out).toContain("# Use \\*stars\\* and \\[links\\](x)");
    expect(out).toContain("\\# not a heading");
    expect(out).toContain("\\<script\\>alert(1)\\</script\\>");
    expect(out).not.toContain("## Epics");
    expect(out).not.toContain("## Event Model");
  });

  it("handles a deep tree without recursion", () => {
    let deep = node("n0", "leaf");
    for (let i = 1; i < 2000; i++) deep = node(`n${i}`, `level ${i}`, { children: [deep] });
    expect(() => treeToMarkdown(deep)).not.toThrow();
    expect(parseCsv(treeToCsv(deep))).toHaveLength(2001);
  });
});

describe("treeToMarkdown's requirements", () => {
  const scope = (requirements: { id: string; text: string }[]) => ({
    requirements,
    non_goals: [],
    constraints: [],
    planned_as: { kind: "feature", label: "feature", because: [] },
  });

  it("lists each stated requirement with its status and the numbered tasks covering it, before the tree", () => {
    const tree = sampleTree();
    tree.stated_scope = scope([
      { id: "R1", text: "Members sign in with a *password*" },
      { id: "R2", text: "Owners deploy" },
      { id: "R3", text: "Wrong passwords are refused" },
      { id: "R4", text: "Payments" },
    ]);
    tree.children[0]!.requirement_ids = ["R1"];
    tree.children[0]!.children[1]!.requirement_ids = ["R1"];
    tree.children[1]!.requirement_ids = ["R2"];
    const md = treeToMarkdown(tree);
    const section = md.slice(md.indexOf("## Requirements"), md.indexOf("## Task Tree"));
    expect(section.split("\n")).toEqual([
      "## Requirements",
      "",
      "1 of 4 requirements done; 1 has no task.",
      "",
      "- [ ] **R1** Members sign in with a \\*password\\* _(in progress, 1 of 2 tasks done)_",
      '  - 1.1 Write the "login" form, with validation _(done)_',
      "  - 1.2 Hook up the API _(pending)_",
      "- [ ] **R2** Owners deploy _(not started)_",
      "  - 2 =SUM(A1:A2) deploy _(pending)_",
      "- [x] **R3** Wrong passwords are refused _(done)_",
      '  - 1.1 Write the "login" form, with validation _(done)_',
      "- [ ] **R4** Payments _(no tasks yet)_",
      "",
      "",
    ]);
    expect(md.indexOf("## Requirements")).toBeGreaterThan(md.indexOf("- **Subtasks:** 4"));
  });

  it("leaves the section out when the plan states no requirements", () => {
    const tree = sampleTree();
    tree.stated_scope = scope([]);
    expect(treeToMarkdown(tree)).toBe(treeToMarkdown(sampleTree()));
    expect(treeToMarkdown(tree)).not.toContain("## Requirements");
  });
});

describe("treeToMarkdown's states (issue 40)", () => {
  /** A planned project (its root "completed") with one of three leaves done, under a split group. */
  function planned() {
    const tree = sampleTree();
    tree.status = "completed";
    const a = tree.children[0]!;
    a.status = "completed"; // split, not done
    a.rollup = {
      story_points: 5,
      estimate_hours: { low: 0, likely: 0, high: 0 },
      leaves_done: 1,
      leaves_total: 2,
      leaves_unestimated: 0,
    };
    tree.rollup = {
      story_points: 10,
      estimate_hours: { low: 0, likely: 0, high: 0 },
      leaves_done: 1,
      leaves_total: 3,
      leaves_unestimated: 0,
    };
    return tree;
  }

  it("says the plan's state and the work's apart, and ticks a project or a group only when its work is done", () => {
    const md = treeToMarkdown(planned());
    expect(md).toContain("- **Plan:** planned");
    expect(md).toContain("- **Work:** in progress, 1 of 3 tasks done");
    expect(md).not.toMatch(/\*\*Status:\*\*/);
    expect(md).toMatch(/^- \[ \] \*\*Build a yoga studio booking site\*\*/m);
    expect(md).toMatch(/^ {2}- \[ \] \*\*Authentication\*\*.*in progress/m);
    expect(md).toMatch(/^ {4}- \[x\] \*\*Write the "login" form/m);
  });

  it("ticks them once every leaf is done", () => {
    const tree = planned();
    for (const leaf of [tree.children[0]!.children[1]!, tree.children[1]!]) leaf.status = "completed";
    tree.children[0]!.rollup!.leaves_done = 2;
    tree.rollup!.leaves_done = 3;
    const md = treeToMarkdown(tree);
    expect(md).toContain("- **Work:** done, 3 of 3 tasks done");
    expect(md).toMatch(/^- \[x\] \*\*Build a yoga studio booking site\*\*/m);
    expect(md).toMatch(/^ {2}- \[x\] \*\*Authentication\*\*/m);
  });
});
