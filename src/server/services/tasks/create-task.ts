import type { z } from "zod";
import { findApplicationType, findStack } from "../../../shared/catalogue";
import type { createTaskInput, Task } from "../../../shared/schemas/tasks";
import { repositoryMaps, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { agentStartedEvents } from "../../engine/agent";
import { readingToCheck } from "../../engine/brief";
import { AGENT_PLANNER, queuePlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { roleIn } from "../teams/teams";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { holdForReview } from "./reading";
import { toTask } from "./serialize";

/**
 * Creates a top-level task, counting it against the monthly limit in the same transaction, and starts
 * its planning: the engine's run, or, with `planner: "agent"`, a coding agent's (engine/agent.ts; the
 * agent's name, its API token's, is shown as who plans it).
 */
export async function createTask(
  deps: Deps,
  userId: string,
  input: z.output<typeof createTaskInput>,
  caller: { agentName: string | null } = { agentName: null },
): Promise<Task> {
  const byAgent = input.planner === "agent";
  if (byAgent && input.requires_approval) {
    const message =
      'A coding agent\'s plan is reviewed as it is made: leave requires_approval off with planner "agent".';
    throw new AppError("UNPROCESSABLE_CONTENT", message, {
      fieldErrors: [{ field: "requires_approval", message }],
    });
  }
  const prefs = input.tech_preferences ?? {};
  const appType = prefs.application_type ? findApplicationType(prefs.application_type) : undefined;
  if (prefs.application_type && !appType) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Unknown application type", {
      fieldErrors: [{ field: "tech_preferences.application_type", message: "Unknown application type" }],
    });
  }
  if (prefs.tech_stack_id && !appType) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Choose an application type before a tech stack", {
      fieldErrors: [
        {
          field: "tech_preferences.tech_stack_id",
          message: "Choose an application type before a tech stack",
        },
      ],
    });
  }
  const stack = prefs.tech_stack_id && appType ? findStack(appType.id, prefs.tech_stack_id) : undefined;
  if (prefs.tech_stack_id && !stack) {
    const message = `The tech stack does not belong to ${appType!.label}`;
    throw new AppError("UNPROCESSABLE_CONTENT", message, {
      fieldErrors: [{ field: "tech_preferences.tech_stack_id", message }],
    });
  }
  const techPreferences = {
    application_type: appType?.id ?? null,
    tech_stack_id: stack?.id ?? null,
    github_repo: prefs.github_repo?.replace(/\/$/, "") || null,
    additional_requirements: prefs.additional_requirements || null,
  };
  const techStack = appType
    ? {
        application_type: appType.id,
        description: stack ? `${stack.name}: ${stack.description}` : appType.description,
        ...(stack
          ? { frontend: stack.frontend_framework, backend: stack.backend_language, database: stack.database }
          : {}),
      }
    : null;

  const options = {
    max_depth: input.max_depth,
    max_subtasks: input.max_subtasks,
    complexity_threshold: input.complexity_threshold,
    use_context: input.use_context,
    requires_approval: input.requires_approval,
    tech_preferences: techPreferences,
  };
  // A plan made in a team (issue 41): by its members (not its viewers); the creator's allowance counts.
  const teamId = input.team_id ? await teamToPlanIn(deps, userId, input.team_id) : null;
  const review = input.review_reading;
  const applies = review ? false : await monthlyUseApplies(deps, userId, byAgent);
  const row = await deps.db.transaction(async (tx) => {
    // A project kept for a check of its reading is not planned yet, so it uses nothing of the allowance
    // until it is (reading.ts planProject); how many may wait is bounded instead.
    if (review) await holdForReview(tx, userId);
    else await countMonthlyUse(tx, userId, { applies, allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING });
    const [inserted] = await tx
      .insert(tasks)
      .values({
        userId,
        description: input.description,
        status: review ? "awaiting_review" : byAgent ? "processing" : "pending",
        ...(byAgent ? { planner: AGENT_PLANNER, model: caller.agentName } : {}),
        ...(review ? { reading: readingToCheck({ description: input.description, options }) } : {}),
        options,
        context: techStack ? { tech_stack: techStack, best_practices: [] } : null,
        teamId,
      })
      .returning();
    // The code the change is for (issue 42): kept apart from the task rows (a map runs to megabytes).
    if (input.repository_map)
      await tx.insert(repositoryMaps).values({ rootTaskId: inserted!.id, map: input.repository_map });
    if (!byAgent && !review) await queuePlan(deps.jobs, inserted!.id, tx);
    return inserted!;
  });
  deps.log.info("task created", { taskId: row.id, userId });
  await deps.events.publish({
    type: "task.created",
    userId,
    taskId: row.id,
    rootTaskId: row.id,
    status: row.status,
  });
  if (byAgent && !review) await deps.events.publishMany(agentStartedEvents(row));
  return toTask(row, { children: 0, descendants: 0 }, { epics: [], stories: [], eventModel: null });
}

/** The team a new plan goes into: the caller must be in it, and not as a viewer (issue 41). */
async function teamToPlanIn(deps: Deps, userId: string, teamId: string): Promise<string> {
  const role = await roleIn(deps, userId, teamId);
  if (role === "viewer")
    throw new AppError(
      "FORBIDDEN",
      "Viewers of a team do not make its plans: ask an admin for the member role.",
    );
  return teamId;
}
