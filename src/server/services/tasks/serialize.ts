import type { LockReason } from "../../../shared/schemas/replan";
import {
  type Chapter,
  type Epic,
  type EventModelMetadata,
  type RemoteLink,
  type StoredTaskOptions,
  type Swimlane,
  TASK_DEFAULTS,
  type Task,
  type TaskContext,
  type TaskStatus,
  type TechStackContext,
  type UserStory,
} from "../../../shared/schemas/tasks";
import type { epics, eventModels, userStories } from "../../db/schema/index";
import { briefOf, optionsOf } from "../../engine/brief";
import { estimateOf, type TaskRow } from "../../plan/rows";

export type EpicRow = typeof epics.$inferSelect;
export type StoryRow = typeof userStories.$inferSelect;
export type EventModelRow = typeof eventModels.$inferSelect;

/** What a root task carries beyond its row: epics, stories and the event model. */
export type RootExtras = { epics: EpicRow[]; stories: StoryRow[]; eventModel: EventModelRow | null };

export function toContext(row: TaskRow, extras: RootExtras | null): TaskContext | null {
  const stored = (row.context ?? {}) as { tech_stack?: TechStackContext | null; best_practices?: string[] };
  if (!extras && !row.context) return null;
  return {
    tech_stack: stored.tech_stack ?? null,
    best_practices: stored.best_practices ?? [],
    epics: (extras?.epics ?? []).map(
      (e): Epic => ({ id: e.key, title: e.title, description: e.description, priority: e.priority }),
    ),
    user_stories: (extras?.stories ?? []).map(
      (s): UserStory => ({
        id: s.key,
        epic_id: s.epicKey,
        actor: s.actor,
        action: s.action,
        benefit: s.benefit,
        acceptance_criteria: s.acceptanceCriteria,
        story_points: s.storyPoints,
        priority: s.priority,
      }),
    ),
  };
}

export function toMetadata(em: EventModelRow | null): EventModelMetadata | null {
  if (!em) return null;
  return {
    event_model_markdown: em.markdown,
    extracted_events: em.events,
    commands: em.commands,
    read_models: em.readModels,
    user_interactions: em.userInteractions,
    automations: em.automations,
    swimlanes: em.swimlanes as Swimlane[],
    chapters: em.chapters as Chapter[],
  };
}

/** Hot path for trees of thousands of nodes: one object literal per node, no spreads or rest copies. */
export function toTask(
  row: TaskRow,
  counts: { children: number; descendants: number; dependsOn?: string[]; remote?: RemoteLink[] },
  extras: RootExtras | null = null,
): Task {
  const options = row.options;
  return {
    task_id: row.id,
    id: row.id,
    description: row.description,
    status: row.status as TaskStatus,
    complexity_score: row.complexityScore,
    complexity: row.complexityScore,
    rejection_reason: row.rejectionReason,
    failure_reason: row.failureReason,
    needs_attention: row.needsAttention,
    attention_reason: row.attentionReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
    started_at: row.startedAt ? row.startedAt.toISOString() : null,
    actual_hours: row.actualHours,
    actual_source: row.actualSource,
    depth: row.depth,
    position: row.position,
    total_subtasks: counts.descendants,
    children_count: counts.children,
    parent_id: row.parentId,
    root_task_id: row.rootTaskId,
    context: row.context || extras ? toContext(row, extras) : null,
    additional_context: row.additionalContext ?? null,
    metadata: extras?.eventModel ? toMetadata(extras.eventModel) : null,
    story_points: row.storyPoints,
    implementation_details: row.implementationDetails,
    acceptance_criteria: row.acceptanceCriteria,
    requirement_ids: row.requirementIds,
    files: row.files ?? [],
    estimated_hours: row.estimatedHours,
    estimate_hours: estimateOf(row),
    depends_on: counts.dependsOn ?? [],
    estimate_source: row.estimateSource,
    locked: lockReasons(row),
    edited_at: row.editedAt ? row.editedAt.toISOString() : null,
    exported_at: row.exportedAt ? row.exportedAt.toISOString() : null,
    remote_links: counts.remote ?? [],
    stated_scope: row.parentId === null ? statedScope(row) : null,
    is_atomic: row.isAtomic,
    predictions: row.predictions ?? null,
    tech_preferences: options?.tech_preferences ?? null,
    options: options ? taskOptions(options) : null,
    planner: row.planner,
    model: row.model,
    warnings: row.warnings,
    team_id: row.teamId,
  };
}

/**
 * Why a re-plan must leave a node alone: done work, a person's edit, or what an export created elsewhere.
 * A root's "completed" means its plan is finished, not its work, so it does not lock it.
 */
export function lockReasons(row: {
  parentId: string | null;
  status: string;
  editedAt: Date | string | null;
  exportedAt: Date | string | null;
}): LockReason[] {
  const out: LockReason[] = [];
  if (row.status === "completed" && row.parentId !== null) out.push("completed");
  if (row.editedAt) out.push("edited");
  if (row.exportedAt) out.push("exported");
  return out;
}

export function statedScope(row: TaskRow): Task["stated_scope"] {
  // The brief the planners were given: the same reading, so what is shown is what was planned from.
  // A linked repository is read as work on something that exists, as the planners read it.
  const brief = briefOf(row, optionsOf(row).githubRepo ? "(a linked repository)" : null);
  return {
    requirements: brief.scope.requirements.map((r) => ({ id: r.id, text: r.text })),
    non_goals: brief.scope.nonGoals,
    constraints: brief.scope.constraints,
    planned_as: { kind: brief.kind.id, label: brief.kind.label, because: brief.kind.because },
  };
}

function taskOptions(o: StoredTaskOptions): Task["options"] {
  if (o.max_depth === undefined) return null; // an added task stores only auto_decompose
  return {
    max_depth: o.max_depth,
    max_subtasks: o.max_subtasks ?? TASK_DEFAULTS.max_subtasks,
    complexity_threshold: o.complexity_threshold ?? TASK_DEFAULTS.complexity_threshold,
    use_context: o.use_context ?? TASK_DEFAULTS.use_context,
    requires_approval: o.requires_approval ?? TASK_DEFAULTS.requires_approval,
  };
}
