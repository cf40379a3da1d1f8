import { asData, DATA_RULE } from "../../../lib/data-block";
import { indexOf } from "../../repository/likely-files";
import type { ComposeRequest, ProjectBrief, SplitRequest } from "../contract";

/** Prompts per stage. Plain text, no provider-specific syntax, so any OpenAI-compatible model follows them. */

export const SYSTEM_PROMPT = `You are Atomize, a senior software architect and delivery lead. You break software projects into
concrete, independently testable engineering tasks for a developer team. Be specific to the project's stack,
never vague ("implement features"), never repeat a parent task verbatim, and never invent requirements that
contradict the user's description. Complexity scores run from 1 (trivial, under an hour) to 10 (a large
multi-week effort); story points must be one of 1, 2, 3, 5, 8, 13 and track complexity. A task is atomic
when one developer can finish it in at most about two days (16 hours) as one pull request; estimate every
task in developer-hours (estimated_hours), subtasks included, and split anything bigger. Use only the
technologies the description names or the chosen stack; when none is named, stay technology-neutral. Answer with one JSON
object that matches the requested JSON schema and nothing else: no prose, no code fences. ${DATA_RULE}`;

/** The project as every prompt states it: the description, the chosen type and stack, the repository. */
export function briefText(brief: ProjectBrief): string {
  const lines = [`Project description:\n${asData("project description", brief.description)}`];
  if (brief.readingCorrected)
    lines.push(
      "The owner checked and corrected what was read of this description: plan exactly the stated requirements and kind of work below; the description is background, and what it says beyond them is not to be planned.",
    );
  if (brief.applicationType)
    lines.push(`Application type: ${brief.applicationType.label} (${brief.applicationType.description})`);
  if (brief.stack) {
    lines.push(
      `Tech stack: ${brief.stack.name}: frontend ${brief.stack.frontend_framework}, backend ${brief.stack.backend_language}, database ${brief.stack.database}. ${brief.stack.description}`,
    );
  }
  if (brief.additionalRequirements)
    lines.push(
      `Additional requirements:\n${asData("additional requirements", brief.additionalRequirements)}`,
    );
  if (brief.repositorySummary)
    lines.push(
      `Existing repository (ground the plan in it):\n${asData("repository summary", brief.repositorySummary)}`,
    );
  return lines.join("\n\n");
}

/** How each kind of work is planned: the shape the model is asked to follow (as the outline does). */
export const KIND_SHAPES: Record<ProjectBrief["kind"]["id"], string> = {
  product:
    "a new product: choose the stack only if the text names none, build the stated features, then check and release",
  feature:
    "a feature on an existing product: map the code it touches first, build it, then release it without breaking what exists; no new repository and no stack choice",
  bug: "a bug fix: reproduce it, write a failing test, find the cause, fix it, verify it where it was reported, release it with a note; no stack choice, no first release",
  performance:
    "performance work: measure a baseline, profile, change one thing at a time measured against the baseline, verify and guard against regressions",
  migration:
    "a migration or upgrade: inventory what moves, follow the stated steps in their order, rehearse and verify, then cut over with a way back; no gradual feature rollout for an upgrade",
  infrastructure:
    "infrastructure: inventory what runs, build the stated pieces, review the plan, apply to staging, then production with a rollback path",
  data: "data or machine-learning work: get and check the data, build in the stated order, validate against a baseline, then run it on a schedule and watch it",
  spike:
    "a research spike: write down the questions and the time box, investigate each, prototype only if asked, end with a written recommendation",
};

/** The reading of the text every plan is traced to: the kind of work, the requirements with their ids, the scope. */
function scopeText(brief: ProjectBrief, full: boolean): string {
  const { requirements, nonGoals, constraints, criteria } = brief.scope;
  const shown = full ? requirements : requirements.slice(0, 60);
  const lines = shown.map((r) => `- ${r.id}: ${r.text.replace(/\s+/g, " ").slice(0, full ? 400 : 160)}`);
  if (shown.length < requirements.length) lines.push(`- ... and ${requirements.length - shown.length} more`);
  const parts = [
    // The kind's reasons quote the text; they stay with the person who reads them, not in the instructions.
    `Kind of work: ${brief.kind.label}. Plan it as ${KIND_SHAPES[brief.kind.id]}.`,
  ];
  if (requirements.length)
    parts.push(
      `Stated requirements (cite their ids, exactly as "R1", in requirement_ids):\n${asData("requirements", lines.join("\n"))}`,
    );
  if (nonGoals.length)
    parts.push(
      `Out of scope (never plan these):\n${asData("out of scope", nonGoals.map((n) => `- ${n.slice(0, 200)}`).join("\n"))}`,
    );
  if (constraints.length)
    parts.push(
      `Rules the work must keep (acceptance criteria, not tasks):\n${asData("rules", constraints.map((c) => `- ${c.slice(0, 200)}`).join("\n"))}`,
    );
  if (criteria.length)
    parts.push(
      `Acceptance criteria as stated (checks, not tasks):\n${asData(
        "criteria",
        criteria
          .slice(0, 20)
          .map((c) => `- ${c.slice(0, 200)}`)
          .join("\n"),
      )}`,
    );
  return parts.length ? `${parts.join("\n\n")}\n\n` : "";
}

export function complexityPrompt(brief: ProjectBrief): string {
  return `${briefText(brief)}

${scopeText(brief, false)}Assess the complexity of the whole project: give complexity_score (1-10), story_points, and a one or two
sentence rationale naming what drives the effort.`;
}

export function splitPrompt(r: SplitRequest): string {
  const path = r.ancestors.length
    ? `Path from the project down to this task:\n${asData("path", r.ancestors.map((a, i) => `${"  ".repeat(i)}- ${a}`).join("\n"))}\n\n`
    : "";
  // One numbering across both lists, so a subtask can cite any work outside its own branch.
  const numbered = (items: string[] | undefined, from: number, heading: string) =>
    items?.length
      ? `${heading}\n${asData("tasks", items.map((d, i) => `${from + i}. ${d.replace(/\s+/g, " ").slice(0, 100)}`).join("\n"))}\n\n`
      : "";
  const around =
    numbered(
      r.siblings,
      1,
      "Sibling tasks, planned separately (do not repeat their work; cite their numbers in depends_on_elsewhere when a subtask needs one finished first):",
    ) +
    numbered(
      r.elsewhere,
      (r.siblings?.length ?? 0) + 1,
      "Already planned elsewhere in this project (titles only; do not plan this work again; cite their numbers in depends_on_elsewhere when a subtask needs one finished first):",
    );
  const replan = r.replan
    ? `This is a re-plan of the task: a person will review your answer as a change to its current subtasks.${
        r.replan.current.length
          ? ` Its current subtasks (keep the ones that still fit, worded exactly as here, so they are recognised):\n${asData("current subtasks", r.replan.current.map((c) => `- ${c.replace(/\s+/g, " ").slice(0, 160)}`).join("\n"))}`
          : ""
      }${r.replan.guidance ? `\nTheir guidance for the new plan (follow it where it is about the plan):\n${asData("guidance", r.replan.guidance)}` : ""}\n\n`
    : "";
  return `${briefText(r.brief)}

${scopeText(r.brief, r.depth === 0)}${path}${around}${replan}${nearFiles(r)}Task to split:\n${asData("task", `${r.task.description}${r.task.implementation_details ? `\nNotes: ${r.task.implementation_details}` : ""}`)}
${r.task.complexity_score !== null ? `Its complexity: ${r.task.complexity_score}/10.\n` : ""}
Depth: ${r.depth} of at most ${r.maxDepth}.
${splitInstructions(r.depth, r.maxSubtasks)}`;
}

/**
 * On a repository (issue 42): the paths nearest the task (its words, its path from the project, the
 * whole request), full where the brief's summary gives folders only, and how to answer `files`.
 */
function nearFiles(r: SplitRequest): string {
  return nearFilesText(r.brief, [r.task.description, ...r.ancestors.slice(1)].join("\n"), true);
}

/**
 * The paths nearest a task's text on the brief's repository, as a prompt block; `ask`: with how to
 * answer `files` (a model's schema has them; an agent's does not yet, and gets its files ranked).
 */
/** The share of the best match a path needs to be listed near a task. */
const NEAR_SHARE = 0.15;

export function nearFilesText(brief: ProjectBrief, text: string, ask: boolean): string {
  const repository = brief.repository;
  if (!repository) return "";
  const index = indexOf(repository.map);
  const focus = index.focusOf(brief.description);
  // A list to choose from, not a claim: wider than the files a leaf is given.
  const code = index.filesFor(text, { focus, limit: 15, floor: NEAR_SHARE }).map((f) => f.path);
  const tests = index.filesFor(text, { focus, tests: true, limit: 5, floor: NEAR_SHARE }).map((f) => f.path);
  const paths = [...code, ...tests];
  if (paths.length === 0) return "";
  const how = ask
    ? "\nFor each subtask also give files: the paths it most likely changes, from this list or the repository (confidence high, medium or low; new: true for a file it creates)."
    : "";
  return `Files of the repository most likely near this task (best first):\n${asData("files", paths.join("\n"))}${how}

`;
}

/** What a split is asked for, field by field: the same words for a model and a coding agent. */
export function splitInstructions(depth: number, maxSubtasks: number): string {
  const what =
    depth === 0
      ? "Plan the first level of the project: the main workstreams a team would run (setup, each major feature, quality, delivery). Together they must cover every stated requirement."
      : "Split this task into the concrete steps needed to complete it.";
  return `${what} Return at most ${maxSubtasks} subtasks (fewer is fine when fewer make sense), each with a specific
imperative description, complexity_score (never above the task being split), story_points,
implementation_details (1-3 sentences of concrete guidance: files, endpoints, tables, libraries),
acceptance_criteria (2-5 short, testable statements of when it is done), requirement_ids (the ids of
the stated requirements it serves; empty for cross-cutting work), estimated_hours (developer-hours,
its own subtasks included; at most 16 for a task meant to be done without further splitting) with
estimate_low_hours and estimate_high_hours (the optimistic and pessimistic ends around it), and
depends_on (the numbers, 1 for the first subtask of your list, of the subtasks that must be finished
before this one can start: setup before features, a data model before the API that uses it, an
integration before what calls it; empty when it can start at once; never a cycle), and
depends_on_elsewhere (the numbers of sibling tasks or work planned elsewhere that must be finished
first; empty when none).`;
}

function treeText(r: ComposeRequest): string {
  return asData(
    "plan",
    r.tasks
      .slice(0, 400)
      .map(
        (t) => `${"  ".repeat(Math.max(0, t.depth - 1))}- ${t.description}${t.is_atomic ? "" : " (group)"}`,
      )
      .join("\n"),
  );
}

export function contextPrompt(r: ComposeRequest): string {
  return `${briefText(r.brief)}

${scopeText(r.brief, false)}The decomposed plan:
${treeText(r)}

Write the project context: tech_stack (frontend, backend, database, deployment, description), 5-10
best_practices for this stack, epics (ids "E1", "E2", ... one per major workstream, priority 1 = highest),
and user_stories (ids "US1", ...; epic_id referencing an epic; actor, action, benefit; 2-5 testable
acceptance criteria; story_points; priority must_have / should_have / could_have / wont_have).`;
}

export function eventModelPrompt(r: ComposeRequest): string {
  return `${briefText(r.brief)}

${scopeText(r.brief, false)}The decomposed plan:
${treeText(r)}

Write an event model of the system: domain events (past tense, PascalCase), commands, read models,
user interactions, automations, swimlanes (one per main area, listing its events, commands and read
models by name), and chapters with sub_chapters and slices (command -> event -> read model flows). Name
only what the description and the plan state; the readable document is written from your structure.`;
}
