import { z } from "zod";
import { agentComposition, agentSplitAnswer } from "../../shared/schemas/agent-planning";
import { ATOMIC_HOURS } from "../../shared/schemas/plan";
import { asData, DATA_RULE } from "../lib/data-block";
import type { ProjectBrief } from "./planners/contract";
import { briefText, KIND_SHAPES, nearFilesText, splitInstructions } from "./planners/model/prompts";

/**
 * What a coding agent is told at each planning step (engine/agent.ts): the context the engine gives a
 * model for a node, in the model path's own words (planners/model/prompts.ts), but lean. The first step
 * carries the whole description and every stated requirement; later steps carry the node, its path,
 * its siblings, the nearest work planned elsewhere and a count of the rest, and the requirements the
 * node's branch cites, so a step stays near 2,000 tokens however large the plan grows.
 */

/** Titles of work elsewhere in the plan a step lists (nearest first); the rest are counted by branch. */
export const ELSEWHERE_SHOWN = 20;
const TITLE = 100;

/** The rules a model's system prompt states that an answer must keep. */
const RULES = `Rules: be specific to the project (never "implement features"), never repeat the task being split, never plan an out-of-scope item, and use only technologies the description names or the chosen stack. Complexity runs 1-10 and never above the task being split; story_points is one of 1, 2, 3, 5, 8, 13. A task is atomic when one developer finishes it in at most ${ATOMIC_HOURS} hours as one pull request: mark it "atomic": true, or false to split it further (absent: decided from its estimate and complexity). ${DATA_RULE}`;

/** One node of the plan as the brief shows it. */
export type BriefNode = { id: string; parentId: string | null; depth: number; description: string };

export type StepContext = {
  brief: ProjectBrief;
  step: number;
  node: BriefNode & {
    implementationDetails: string | null;
    complexityScore: number | null;
    requirementIds: string[];
  };
  /** Descriptions from the project down to the node's parent. */
  path: string[];
  /** Requirement ids the node and its ancestors cite. */
  cited: string[];
  siblings: BriefNode[];
  /** Work elsewhere shown by title (numbered after the siblings), and the rest counted by first-level branch. */
  elsewhere: BriefNode[];
  more: { branch: string; count: number }[];
  maxDepth: number;
  maxSubtasks: number;
};

const line = (text: string, max = TITLE) => text.replace(/\s+/g, " ").trim().slice(0, max);

function kindLine(brief: ProjectBrief): string {
  return `Kind of work: ${brief.kind.label}. Plan it as ${KIND_SHAPES[brief.kind.id]}.`;
}

function scopeLines(c: StepContext, first: boolean): string[] {
  const { requirements, nonGoals, constraints, criteria } = c.brief.scope;
  const out: string[] = [];
  const shown = first ? requirements : requirements.filter((r) => c.cited.includes(r.id));
  if (shown.length) {
    out.push(
      `${first ? "Stated requirements" : "Requirements this branch serves"} (cite ids exactly, as "R1", in requirement_ids):\n${asData(
        "requirements",
        shown.map((r) => `- ${r.id}: ${line(r.text, first ? 400 : 200)}`).join("\n"),
      )}`,
    );
  }
  const others = requirements.filter((r) => !shown.includes(r)).map((r) => r.id);
  if (others.length) out.push(`Other stated requirements (listed in the first step): ${others.join(", ")}.`);
  if (nonGoals.length)
    out.push(
      `Out of scope (never plan these):\n${asData("out of scope", nonGoals.map((n) => `- ${line(n, 160)}`).join("\n"))}`,
    );
  if (constraints.length)
    out.push(
      `Rules the work keeps (criteria, not tasks):\n${asData("rules", constraints.map((x) => `- ${line(x, 160)}`).join("\n"))}`,
    );
  if (first && criteria.length)
    out.push(
      `Acceptance criteria as stated:\n${asData(
        "criteria",
        criteria
          .slice(0, 20)
          .map((x) => `- ${line(x, 160)}`)
          .join("\n"),
      )}`,
    );
  return out;
}

/** The most of a repository's summary a step carries (the model's brief takes 6,000 characters). */
export const STEP_SUMMARY_MAX = 1800;

/**
 * A repository's summary as a step carries it: whole lines up to STEP_SUMMARY_MAX, without the list of
 * paths (the step lists the paths nearest its task in full), so the first step stays near 2,000 tokens.
 */
function stepSummary(summary: string): string {
  const out: string[] = [];
  let room = STEP_SUMMARY_MAX;
  for (const l of summary.split("\n")) {
    if (l.startsWith("Files: ")) continue;
    const kept = l.length > room ? `${l.slice(0, Math.max(0, room - 1))}…` : l;
    if (room < 40) break;
    out.push(kept);
    room -= kept.length + 1;
  }
  return out.join("\n");
}

/** The step's brief, as text. */
export function stepBrief(c: StepContext): string {
  const first = c.node.depth === 0;
  const parts: string[] = [];
  if (first) {
    const brief = c.brief.repositorySummary
      ? { ...c.brief, repositorySummary: stepSummary(c.brief.repositorySummary) }
      : c.brief;
    parts.push(`Planning step ${c.step}: plan the project's first level.\n\n${briefText(brief)}`);
  } else {
    const detected = c.brief.repository?.stack.sentence;
    const stack = c.brief.stack ? ` Stack: ${c.brief.stack.name}.` : detected ? ` ${detected}.` : "";
    parts.push(
      `Planning step ${c.step} (the whole description was in the first step; the path below starts at the project).${stack}`,
    );
  }
  parts.push(kindLine(c.brief), ...scopeLines(c, first));
  if (c.path.length)
    parts.push(
      `Path from the project down to this task:\n${asData("path", c.path.map((p, i) => `${"  ".repeat(i)}- ${line(p)}`).join("\n"))}`,
    );
  // Siblings (numbered from 1) and work elsewhere (numbered on): one list, one block.
  if (c.siblings.length || c.elsewhere.length) {
    const from = c.siblings.length + 1;
    const more = c.more.length
      ? `\n(and ${c.more.reduce((n, m) => n + m.count, 0)} more: ${c.more.map((m) => `${m.count} under "${line(m.branch, 60)}"`).join(", ")})`
      : "";
    const heading = [
      c.siblings.length
        ? `${c.siblings.length > 1 ? `1-${c.siblings.length}` : "1"}: sibling tasks, planned separately (do not repeat their work)`
        : "",
      c.elsewhere.length
        ? `${from}-${from + c.elsewhere.length - 1}: planned elsewhere in this project (do not plan it again)`
        : "",
    ]
      .filter(Boolean)
      .join("; ");
    parts.push(
      `Other work, numbered (${heading}; cite numbers in depends_on_elsewhere):\n${asData(
        "tasks",
        [
          ...c.siblings.map((s, i) => `${i + 1}. ${line(s.description)}`),
          ...c.elsewhere.map((e, i) => `${from + i}. ${line(e.description)}`),
        ].join("\n") + more,
      )}`,
    );
  }
  // On a repository (issue 42): the paths nearest the task, full (the brief's summary gives folders).
  const near = nearFilesText(c.brief, [c.node.description, ...c.path.slice(1)].join("\n"), true);
  if (near) parts.push(near.trim());
  if (!first) {
    parts.push(
      `Task to split:\n${asData("task", `${c.node.description}${c.node.implementationDetails ? `\nNotes: ${line(c.node.implementationDetails, 600)}` : ""}`)}${c.node.complexityScore !== null ? `\nIts complexity: ${c.node.complexityScore}/10.` : ""}`,
    );
  }
  parts.push(
    `Depth: ${c.node.depth} of at most ${c.maxDepth}.\n${splitInstructions(c.node.depth, c.maxSubtasks)}`,
  );
  parts.push(RULES);
  parts.push(
    first
      ? `Answer with submit_subtasks: node_id "${c.node.id}", subtasks, and assessment (complexity_score, story_points and a one-sentence rationale for the whole project), matching schema.`
      : `Answer with submit_subtasks: node_id "${c.node.id}" and subtasks, matching schema.`,
  );
  return parts.join("\n\n");
}

/** Keywords whose value maps names to schemas: the names are data (a property may be called "description"). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * A JSON Schema without its annotations: the brief explains every field once. Only the annotation
 * keyword goes; a property named "description" stays, with its place in `required` (issue 39).
 */
export function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== "description" && k !== "$schema")
      .map(([k, v]) => [
        k,
        SCHEMA_MAPS.has(k) && v && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, lean(sub)]))
          : lean(v),
      ]),
  );
}

const jsonSchemaOf = (schema: z.ZodType) =>
  lean(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;

/** The answer's JSON Schema: the first step's answer also assesses the project. */
export const STEP_SCHEMAS = {
  first: jsonSchemaOf(agentSplitAnswer.required({ assessment: true })),
  later: jsonSchemaOf(agentSplitAnswer.omit({ assessment: true })),
};

export const COMPOSITION_SCHEMA = jsonSchemaOf(agentComposition);

/**
 * A step's schema with the project's own bound on subtasks (its max_subtasks), which the brief states and
 * submit_subtasks keeps: the generic schema's 10 told an agent it could send more than it may (issue 40).
 */
export function stepSchemaFor(
  first: boolean,
  maxSubtasks: number,
  /** Whether the plan has a repository map: only then may a subtask name `files` (issue 42). */
  files = false,
): Record<string, unknown> {
  const base = first ? STEP_SCHEMAS.first : STEP_SCHEMAS.later;
  const properties = base.properties as Record<string, Record<string, unknown>>;
  const items = properties.subtasks!.items as Record<string, unknown>;
  const { files: fileSchema, ...fields } = items.properties as Record<string, unknown>;
  return {
    ...base,
    properties: {
      ...properties,
      subtasks: {
        ...properties.subtasks,
        maxItems: maxSubtasks,
        items: { ...items, properties: files ? { ...fields, files: fileSchema } : fields },
      },
    },
  };
}

/** What the composition step asks for, with the plan as planned (its first levels). */
export function compositionBrief(brief: ProjectBrief, nodes: BriefNode[]): string {
  const shown = nodes.filter((n) => n.depth >= 1 && n.depth <= 2).slice(0, 120);
  const tree = shown.map((n) => `${"  ".repeat(n.depth - 1)}- ${line(n.description, 80)}`).join("\n");
  return `Optional: the plan keeps the outline's epics, user stories and event model unless you replace them with submit_composition (project_id and the fields of schema).

${kindLine(brief)}

The plan's first two levels:
${asData("plan", tree)}${nodes.length > shown.length ? `\n(${nodes.length - shown.length} deeper tasks not shown)` : ""}

Write epics (ids "E1", "E2", ... one per major workstream, priority 1 = highest) and user_stories (ids "US1", ...; epic_id naming an epic; actor, action, benefit; 1-12 testable acceptance criteria; story_points; priority must_have / should_have / could_have / wont_have); optionally tech_stack and best_practices; and optionally an event_model (events in the past tense, commands, read models, user interactions, automations, swimlanes, chapters with sub_chapters of slices), naming only what the description and the plan state.`;
}
