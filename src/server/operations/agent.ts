import { z } from "zod";
import {
  agentTask,
  nextTask,
  outlineInput,
  planOutline,
  projectList,
  projectsInput,
  setStatusInput,
  statusChange,
} from "../../shared/schemas/agent";
import {
  planningNext,
  planningStatus,
  stoppedPlanning,
  submitCompositionInput,
  submitSubtasksInput,
  submittedComposition,
  submittedSubtasks,
} from "../../shared/schemas/agent-planning";
import { claimedNext, claimInput, claimResult, planClaims } from "../../shared/schemas/claims";
import { task, taskId } from "../../shared/schemas/tasks";
import { agentPlanningStatus } from "../services/tasks/agent-planning-status";
import { cancelAgentPlanning } from "../services/tasks/cancel-agent-planning";
import { claimNextTask } from "../services/tasks/claim-next-task";
import { claimTask } from "../services/tasks/claim-task";
import { claimerOf } from "../services/tasks/claimer-of";
import { getAgentTask } from "../services/tasks/get-agent-task";
import { getNextTask } from "../services/tasks/get-next-task";
import { getPlanOutline } from "../services/tasks/get-plan-outline";
import { listProjects } from "../services/tasks/list-projects";
import { nextPlanningStep } from "../services/tasks/next-planning-step";
import { releaseClaim } from "../services/tasks/release-claim";
import { samplingStopped } from "../services/tasks/sampling-stopped";
import { setTaskStatus } from "../services/tasks/set-task-status";
import { stopAgentPlanning } from "../services/tasks/stop-agent-planning";
import { submitComposition } from "../services/tasks/submit-composition";
import { submitSubtasks } from "../services/tasks/submit-subtasks";
import { mutation, query } from "./define";

const byId = z.strictObject({ id: taskId });

/**
 * The plan as a coding agent or a script reads it: the tRPC `agent` router, /api/projects and
 * /api/tasks/{id}/outline|next|brief. The MCP server's tools and the CLI use the same services.
 */
export const agentOperations = {
  projects: query({
    access: "user",
    summary: "Your projects (root tasks), newest first, with their status and how many leaves are done.",
    input: projectsInput.prefault({}),
    output: projectList,
    run: ({ deps, user }, input) => listProjects(deps, user.id, input),
    rest: [{ method: "get", path: "/projects", from: "query" }],
  }),
  outline: query({
    access: "user",
    summary:
      "A compact outline of a task's subtree: numbered lines with ids, status, points, hours, dependencies and critical-path marks.",
    input: outlineInput.extend({ id: taskId }),
    output: planOutline,
    run: ({ deps, user }, { id, ...input }) => getPlanOutline(deps, user.id, id, input),
    rest: [{ method: "get", path: "/tasks/{id}/outline", from: "query" }],
  }),
  next: query({
    access: "user",
    summary:
      "The ready task to do next in a project or subtree (critical path first), with everything needed to do it.",
    input: byId,
    output: nextTask,
    run: ({ deps, user, apiToken }, input) => getNextTask(deps, user.id, input.id, claimerOf(user, apiToken)),
    rest: [{ method: "get", path: "/tasks/{id}/next" }],
  }),
  brief: query({
    access: "user",
    summary:
      "One task with everything needed to do it: text, acceptance criteria, requirements, order, notes and the project's stack.",
    input: byId,
    output: agentTask,
    run: ({ deps, user }, input) => getAgentTask(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/brief" }],
  }),
  setStatus: mutation({
    access: "user",
    summary:
      "Sets a task's status (pending, in_progress, completed) and says which tasks became ready to start with it.",
    input: setStatusInput.extend({ id: taskId }),
    output: statusChange,
    run: ({ deps, user }, { id, ...input }) => setTaskStatus(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/status", from: "body" }],
  }),
  // Claims (issue 41): a person or an agent takes a ready leaf for a while; mutations, so a read-only
  // token cannot claim. Each token is its own claimer, so two agents of one person are told apart.
  claimNext: mutation({
    access: "user",
    summary:
      "Claims the next ready task nobody started or holds, in next_task's order, atomically: concurrent callers never get the same task.",
    input: claimInput.extend({ id: taskId }),
    output: claimedNext,
    run: ({ deps, user, apiToken }, { id, ...input }) =>
      claimNextTask(deps, claimerOf(user, apiToken), id, input),
    rest: [{ method: "post", path: "/projects/{id}/claim-next", from: "body" }],
  }),
  claim: mutation({
    access: "user",
    summary:
      "Claims a ready task for `minutes` (default 120), or renews your claim; 409 naming who holds it. Done or DELETE ends it.",
    input: claimInput.extend({ id: taskId }),
    output: claimResult,
    run: ({ deps, user, apiToken }, { id, ...input }) =>
      claimTask(deps, claimerOf(user, apiToken), id, input),
    rest: [{ method: "post", path: "/tasks/{id}/claim", from: "body" }],
  }),
  releaseClaim: mutation({
    access: "user",
    summary: "Lets a claim on a task go (yours, or any on your plan); the plan's claims after.",
    input: byId,
    output: planClaims,
    run: ({ deps, user, apiToken }, input) => releaseClaim(deps, claimerOf(user, apiToken), input.id),
    rest: [{ method: "delete", path: "/tasks/{id}/claim" }],
  }),
  // A coding agent planning a project created with planner "agent" (engine/agent.ts). Mutations, so a
  // read-only token cannot plan.
  planningStep: mutation({
    access: "user",
    summary:
      "The next task to split in a project a coding agent plans: its brief and the answer's JSON Schema; or done, with the optional composition step.",
    input: byId,
    output: planningNext,
    run: ({ deps, user }, input) => nextPlanningStep(deps, user.id, input.id),
    rest: [{ method: "post", path: "/projects/{id}/planning/next" }],
  }),
  submitSubtasks: mutation({
    access: "user",
    summary:
      "An agent's subtasks for one task, checked like a model's answer (each problem named) and written to the plan; answers with the next step.",
    input: submitSubtasksInput,
    output: submittedSubtasks,
    run: ({ deps, user }, input) => submitSubtasks(deps, user.id, input),
    rest: [{ method: "post", path: "/planning/subtasks", from: "body" }],
  }),
  submitComposition: mutation({
    access: "user",
    summary:
      "An agent's epics, user stories and event model for a project it planned, replacing the outline's (a person's edit of the event model is kept).",
    input: submitCompositionInput,
    output: submittedComposition,
    run: ({ deps, user }, input) => submitComposition(deps, user.id, input),
    rest: [{ method: "post", path: "/projects/{id}/planning/composition", from: "body" }],
  }),
  // What a person does about their agent's planning (issue 40): see where it waits, stop it (the offline
  // outline plans the rest) or cancel it.
  planningStatus: query({
    access: "user",
    summary:
      "Where a coding agent's planning of a project stands: the step it waits on (node id and title) and how many tasks wait to be split.",
    input: byId,
    output: planningStatus,
    run: ({ deps, user }, input) => agentPlanningStatus(deps, user.id, input.id),
    rest: [{ method: "get", path: "/projects/{id}/planning" }],
  }),
  stopPlanning: mutation({
    access: "user",
    summary:
      "Stops a coding agent's planning: the offline planner splits every task the agent has not, and the plan completes (409 when planning is over).",
    input: byId,
    output: stoppedPlanning,
    run: ({ deps, user }, input) => stopAgentPlanning(deps, user.id, input.id),
    rest: [{ method: "post", path: "/projects/{id}/planning/stop" }],
  }),
  cancelPlanning: mutation({
    access: "user",
    summary:
      "Cancels a coding agent's planning: the project stops where it is, as failed with that reason; Restart plans it again (409 when planning is over).",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => cancelAgentPlanning(deps, user.id, input.id),
    rest: [{ method: "post", path: "/projects/{id}/planning/cancel" }],
  }),
};

/**
 * Planning with a client's model through MCP sampling (mcp/sampling.ts) uses the operations above; when it
 * stops, the project says so. Not part of the API: only the MCP server runs it, through invoke.
 */
export const samplingOperations = {
  stopped: mutation({
    access: "user",
    summary: "Says on a project that planning with the client's model stopped, and why.",
    input: z.strictObject({ id: taskId, reason: z.string().max(300) }),
    output: z.undefined(),
    run: ({ deps, user }, input) =>
      samplingStopped(deps, user.id, input.id, input.reason).then(() => undefined),
  }),
};
