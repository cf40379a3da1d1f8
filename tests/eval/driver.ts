/**
 * An in-memory driver of a Planner that mirrors the DB-backed pipeline (src/server/engine/pipeline.ts)
 * stage by stage, so a plan can be scored without a database, a job queue or a server:
 * - complexity_scorer: assessComplexity on the brief;
 * - root_processor: the root split (depth 0, no ancestors), sliced to maxSubtasks, scores not capped;
 * - decomposer: every child that is not atomic (isAtomic, the pipeline's rule) is split, at most
 *   `concurrency` splits at a time, first queued first started; each split sees its ancestors, siblings and
 *   the rest of the outline (other titles, at most OUTLINE_LIMIT, ordered by depth and position, the limit
 *   applied before the outline is divided, as the pipeline's query does); children are sliced to maxSubtasks
 *   and their scores capped at the parent's. A split that throws leaves its node a leaf that "needs
 *   attention" and the rest goes on (decision 011); the root's stages and the composer fail the plan.
 * - composer: composeContext and composeEventModel in parallel on the flattened depth-first tree.
 */
import { performance } from "node:perf_hooks";
import { isAtomic } from "../../src/server/engine/atomicity";
import { briefOf } from "../../src/server/engine/brief";
import { findDuplicates } from "../../src/server/engine/dedupe";
import type { ComposeRequest, Planner, ProjectBrief, Usage } from "../../src/server/engine/planners/contract";
import { siblingDependencies } from "../../src/server/engine/sibling-dependencies";
import type { TaskRow } from "../../src/server/plan/rows";
import type { EventModelPlan, PlannedSubtask, ProjectContext } from "../../src/shared/schemas/plan";
import type { EvalCase } from "./case";

/** The pipeline's OUTLINE_LIMIT: titles of the plan so far that a split is shown. */
export const OUTLINE_LIMIT = 80;

export type DriverOptions = {
  maxDepth: number;
  maxSubtasks: number;
  threshold: number;
  /** Splits running at once (the job queue's LLM_CONCURRENCY). */
  concurrency: number;
  signal?: AbortSignal;
};

export const DEFAULT_DRIVER_OPTIONS: DriverOptions = {
  maxDepth: 4,
  maxSubtasks: 7,
  threshold: 0.7,
  concurrency: 4,
};

export type PlanNode = {
  id: string;
  parentId: string | null;
  depth: number;
  /** 1-based among its siblings, as stored. */
  position: number;
  description: string;
  /** The first line of the description: what a person sees in the tree. */
  title: string;
  implementation_details: string | null;
  complexity_score: number | null;
  story_points: number | null;
  isAtomic: boolean;
  /** Present when the planner returns them on its subtasks. */
  acceptance_criteria?: string[];
  requirement_ids?: string[];
  estimated_hours?: number | null;
  /** The siblings this node waits for (ids), as the pipeline stores the planner's proposals. */
  depends_on?: string[];
  /** Why this node's split failed (it stays a leaf), as the pipeline would flag it. */
  needsAttention?: string;
};

export type PlanRecord = {
  caseId: string;
  planner: string;
  model: string | null;
  wallMs: number;
  usage: Usage;
  /** The root first, then every node in depth-first order. */
  nodes: PlanNode[];
  context: ProjectContext | null;
  eventModel: EventModelPlan | null;
  /** Set when the root's stages or the composer failed: the plan is incomplete. */
  error: string | null;
  /** The kind of work the description was read as (the brief's reading), when the reader gives one. */
  workKind: string | null;
  /** What the plan states as out of scope (shown to the user as not planned). */
  nonGoals: string[];
};

/** The brief the pipeline builds for `evalCase`, through the real briefOf (new ProjectBrief fields flow in). */
export function briefForCase(evalCase: EvalCase): ProjectBrief {
  const row = {
    description: evalCase.description,
    options: {
      tech_preferences: {
        application_type: evalCase.application_type ?? null,
        tech_stack_id: evalCase.tech_stack_id ?? null,
        additional_requirements: evalCase.additional_requirements ?? null,
      },
    },
  } as unknown as TaskRow;
  return briefOf(row, evalCase.repository_summary ?? null);
}

/** Fields a planner may add to its subtasks (acceptance criteria, requirement ids, hours), when present. */
function extras(
  p: PlannedSubtask,
): Pick<PlanNode, "acceptance_criteria" | "requirement_ids" | "estimated_hours"> {
  const raw = p as unknown as Record<string, unknown>;
  const strings = (v: unknown) =>
    Array.isArray(v) && v.every((s) => typeof s === "string") ? (v as string[]) : undefined;
  const out: Pick<PlanNode, "acceptance_criteria" | "requirement_ids" | "estimated_hours"> = {};
  const criteria = strings(raw.acceptance_criteria);
  if (criteria) out.acceptance_criteria = criteria;
  const ids = strings(raw.requirement_ids);
  if (ids) out.requirement_ids = ids;
  if (typeof raw.estimated_hours === "number" || raw.estimated_hours === null)
    out.estimated_hours = raw.estimated_hours as number | null;
  return out;
}

function firstLine(text: string) {
  return (text.split("\n").find((l) => l.trim() !== "") ?? "").trim();
}

export async function planCase(
  planner: Planner,
  evalCase: EvalCase,
  options: Partial<DriverOptions> = {},
): Promise<PlanRecord> {
  const opts = { ...DEFAULT_DRIVER_OPTIONS, ...options };
  const brief = briefForCase(evalCase);
  const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const count = (u: Usage) => {
    usage.calls += u.calls;
    usage.promptTokens += u.promptTokens;
    usage.completionTokens += u.completionTokens;
  };
  const started = performance.now();
  const nodes: PlanNode[] = [];
  const record = (error: string | null, context: ProjectContext | null, model: EventModelPlan | null) => ({
    caseId: evalCase.id,
    planner: planner.name,
    model: planner.model,
    wallMs: performance.now() - started,
    usage,
    nodes: depthFirst(nodes),
    context,
    eventModel: model,
    error,
    workKind: (brief as { kind?: { id?: string } }).kind?.id ?? null,
    nonGoals: brief.scope.nonGoals,
  });

  let nextId = 0;
  const root: PlanNode = {
    id: `n${nextId++}`,
    parentId: null,
    depth: 0,
    position: 1,
    description: evalCase.description,
    title: firstLine(evalCase.description),
    implementation_details: null,
    complexity_score: null,
    story_points: null,
    isAtomic: false,
  };
  nodes.push(root);
  const byId = new Map([[root.id, root]]);

  /** Inserts a split's children, as insertChildren does; returns those to split next. */
  const insert = (parent: PlanNode, planned: PlannedSubtask[]): PlanNode[] => {
    const depth = parent.depth + 1;
    const made = planned.map((p, i) => {
      const node: PlanNode = {
        id: `n${nextId++}`,
        parentId: parent.id,
        depth,
        position: i + 1,
        description: p.description,
        title: firstLine(p.description),
        implementation_details: p.implementation_details,
        complexity_score: p.complexity_score,
        story_points: p.story_points,
        isAtomic: isAtomic(
          { depth, complexityScore: p.complexity_score, estimatedHours: p.estimated_hours },
          opts,
        ),
        ...extras(p),
      };
      nodes.push(node);
      byId.set(node.id, node);
      return node;
    });
    // The order the planner proposed among these siblings, kept as the pipeline keeps it.
    for (const [waiting, awaited] of siblingDependencies(planned)) {
      const node = made[waiting]!;
      node.depends_on = [...(node.depends_on ?? []), made[awaited]!.id];
    }
    return made;
  };

  try {
    const assessed = await planner.assessComplexity(brief, opts.signal);
    count(assessed.usage);
    root.complexity_score = assessed.value.complexity_score;
    root.story_points = assessed.value.story_points;
    root.implementation_details = assessed.value.rationale;

    const first = await planner.splitTask(
      {
        brief,
        task: {
          description: root.description,
          complexity_score: root.complexity_score,
          implementation_details: null,
        },
        ancestors: [],
        depth: 0,
        maxDepth: opts.maxDepth,
        maxSubtasks: opts.maxSubtasks,
      },
      opts.signal,
    );
    count(first.usage);
    const queue = insert(root, first.value.slice(0, opts.maxSubtasks)).filter((n) => !n.isAtomic);

    const splitNode = async (node: PlanNode) => {
      if (node.depth >= opts.maxDepth) return;
      const ancestors: string[] = [];
      for (
        let p = node.parentId ? byId.get(node.parentId) : undefined;
        p;
        p = p.parentId ? byId.get(p.parentId) : undefined
      )
        ancestors.unshift(p.description);
      const others = nodes
        .filter((n) => n.depth > 0 && n.id !== node.id)
        .sort((a, b) => a.depth - b.depth || a.position - b.position)
        .slice(0, OUTLINE_LIMIT);
      const siblings = others.filter((n) => n.parentId === node.parentId).map((n) => n.description);
      const elsewhere = others
        .filter((n) => n.parentId !== node.parentId && !ancestors.includes(n.description))
        .map((n) => n.description);
      let planned: PlannedSubtask[];
      try {
        const result = await planner.splitTask(
          {
            brief,
            task: {
              description: node.description,
              complexity_score: node.complexity_score,
              implementation_details: node.implementation_details,
            },
            ancestors,
            siblings,
            elsewhere,
            depth: node.depth,
            maxDepth: opts.maxDepth,
            maxSubtasks: opts.maxSubtasks,
          },
          opts.signal,
        );
        count(result.usage);
        planned = result.value;
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        node.needsAttention = err instanceof Error ? err.message : String(err);
        return;
      }
      if (planned.length === 0) {
        // The planner has nothing finer for this node: it is a leaf (as pipeline.ts does).
        node.isAtomic = true;
        return;
      }
      // A parent is never less complex than its children: cap scores at the parent's.
      const capped = planned
        .slice(0, opts.maxSubtasks)
        .map((p) => ({ ...p, complexity_score: Math.min(p.complexity_score, node.complexity_score ?? 10) }));
      queue.push(...insert(node, capped).filter((n) => !n.isAtomic));
    };

    // At most `concurrency` splits at a time, started in the order they were queued (the job queue's order).
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      let failed = false;
      const pump = () => {
        while (!failed && running < opts.concurrency && queue.length > 0) {
          const node = queue.shift()!;
          running++;
          splitNode(node).then(
            () => {
              running--;
              pump();
            },
            (err) => {
              failed = true;
              reject(err);
            },
          );
        }
        if (!failed && running === 0 && queue.length === 0) resolve();
      };
      pump();
    });
  } catch (err) {
    return record(`planning failed: ${err instanceof Error ? err.message : String(err)}`, null, null);
  }

  // The dedup pass, as pipeline.ts runs it before the composer.
  for (const merge of findDuplicates(
    depthFirst(nodes)
      .slice(1)
      .map((n) => ({
        id: n.id,
        parentId: n.parentId,
        description: n.description,
        acceptanceCriteria: n.acceptance_criteria ?? [],
        requirementIds: n.requirement_ids ?? [],
      })),
  )) {
    const kept = byId.get(merge.keep)!;
    kept.acceptance_criteria = merge.acceptanceCriteria;
    kept.requirement_ids = merge.requirementIds;
    const dropped = byId.get(merge.drop)!;
    nodes.splice(nodes.indexOf(dropped), 1);
    byId.delete(merge.drop);
    const parent = dropped.parentId ? byId.get(dropped.parentId) : undefined;
    if (parent && parent.depth > 0 && !nodes.some((n) => n.parentId === parent.id)) parent.isAtomic = true;
  }

  const flat = depthFirst(nodes).slice(1);
  const request: ComposeRequest = {
    brief,
    limits: { maxDepth: opts.maxDepth, maxSubtasks: opts.maxSubtasks },
    tasks: flat.map((n) => ({
      description: n.description,
      depth: n.depth,
      complexity_score: n.complexity_score,
      story_points: n.story_points,
      is_atomic: n.isAtomic,
    })),
  };
  try {
    const [context, model] = await Promise.all([
      planner.composeContext(request, opts.signal),
      planner.composeEventModel(request, opts.signal),
    ]);
    count(context.usage);
    count(model.usage);
    return record(null, context.value, model.value);
  } catch (err) {
    return record(`composer failed: ${err instanceof Error ? err.message : String(err)}`, null, null);
  }
}

/** The root, then its subtree depth-first, children in position order (the pipeline's depthFirst). */
function depthFirst(nodes: PlanNode[]): PlanNode[] {
  const byParent = new Map<string | null, PlanNode[]>();
  for (const n of nodes) {
    const list = byParent.get(n.parentId) ?? [];
    list.push(n);
    byParent.set(n.parentId, list);
  }
  const out: PlanNode[] = [];
  const visit = (n: PlanNode) => {
    out.push(n);
    for (const child of (byParent.get(n.id) ?? []).sort((a, b) => a.position - b.position)) visit(child);
  };
  for (const root of byParent.get(null) ?? []) visit(root);
  return out;
}
