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
import { taskId } from "../../shared/schemas/tasks";
import * as agent from "../services/tasks/agent-view";
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
    run: ({ deps, user }, input) => agent.listProjects(deps, user.id, input),
    rest: [{ method: "get", path: "/projects", from: "query" }],
  }),
  outline: query({
    access: "user",
    summary:
      "A compact outline of a task's subtree: numbered lines with ids, status, points, hours, dependencies and critical-path marks.",
    input: outlineInput.extend({ id: taskId }),
    output: planOutline,
    run: ({ deps, user }, { id, ...input }) => agent.getPlanOutline(deps, user.id, id, input),
    rest: [{ method: "get", path: "/tasks/{id}/outline", from: "query" }],
  }),
  next: query({
    access: "user",
    summary:
      "The ready task to do next in a project or subtree (critical path first), with everything needed to do it.",
    input: byId,
    output: nextTask,
    run: ({ deps, user }, input) => agent.getNextTask(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/next" }],
  }),
  brief: query({
    access: "user",
    summary:
      "One task with everything needed to do it: text, acceptance criteria, requirements, order, notes and the project's stack.",
    input: byId,
    output: agentTask,
    run: ({ deps, user }, input) => agent.getAgentTask(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/brief" }],
  }),
  setStatus: mutation({
    access: "user",
    summary:
      "Sets a task's status (pending, in_progress, completed) and says which tasks became ready to start with it.",
    input: setStatusInput.extend({ id: taskId }),
    output: statusChange,
    run: ({ deps, user }, { id, ...input }) => agent.setTaskStatus(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/status", from: "body" }],
  }),
};
