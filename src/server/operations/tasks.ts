import { z } from "zod";
import { activityPage, activityQuery } from "../../shared/schemas/activity";
import { planActuals, scopeChanges, scopeChangesInput } from "../../shared/schemas/actuals";
import { planClaims } from "../../shared/schemas/claims";
import { syncResult } from "../../shared/schemas/integrations";
import { addNoteInput, editNoteInput, taskNote, taskNotes } from "../../shared/schemas/notes";
import { reading, setReadingInput } from "../../shared/schemas/reading";
import {
  acceptReplanInput,
  replanInput,
  replanProposal,
  replanResult,
  revision,
  revisionList,
} from "../../shared/schemas/replan";
import { reviewInput, reviewState } from "../../shared/schemas/reviews";
import {
  addDependencyInput,
  movedTask,
  moveTaskInput,
  schedule,
  scheduleInput,
  taskDependencies,
} from "../../shared/schemas/schedule";
import {
  addTaskInput,
  createTaskInput,
  deletedTasks,
  deletedTasksMessage,
  eventModelMetadata,
  listTasksInput,
  rejectTaskInput,
  resubmitTaskInput,
  statsInput,
  task,
  taskId,
  taskList,
  taskStats,
  taskTreeNode,
  taskUsage,
  updateEventModelInput,
  updateTaskInput,
} from "../../shared/schemas/tasks";
import {
  resolvedTrackerChange,
  resolveTrackerChangeInput,
  trackerChanges,
} from "../../shared/schemas/tracker-changes";
import { compactTree } from "../../shared/tree-compact";
import { listTrackerChanges } from "../services/exports/list-tracker-changes";
import { resolveTrackerChange } from "../services/exports/resolve-tracker-change";
import { syncPlan } from "../services/exports/sync";
import { acceptReplan } from "../services/tasks/accept-replan";
import { listActivity } from "../services/tasks/activity";
import { addDependency } from "../services/tasks/add-dependency";
import { addNote } from "../services/tasks/add-note";
import { addTask } from "../services/tasks/add-task";
import { usageOf } from "../services/tasks/allowance";
import { approveTask } from "../services/tasks/approve-task";
import { completeTask } from "../services/tasks/complete-task";
import { createTask } from "../services/tasks/create-task";
import { deleteNote } from "../services/tasks/delete-note";
import { deleteSubtask } from "../services/tasks/delete-subtask";
import { deleteTask } from "../services/tasks/delete-task";
import { editNote } from "../services/tasks/edit-note";
import { getDependencies } from "../services/tasks/get-dependencies";
import { getPlanActuals } from "../services/tasks/get-plan-actuals";
import { getReading } from "../services/tasks/get-reading";
import { getReplan } from "../services/tasks/get-replan";
import { getReviewState } from "../services/tasks/get-review-state";
import { getScopeChanges } from "../services/tasks/get-scope-changes";
import { getTask } from "../services/tasks/get-task";
import { getTaskStats } from "../services/tasks/get-task-stats";
import { listClaims } from "../services/tasks/list-claims";
import { listNotes } from "../services/tasks/list-notes";
import { listRevisions } from "../services/tasks/list-revisions";
import { listTasks } from "../services/tasks/list-tasks";
import { moveTask } from "../services/tasks/move";
import { planProject } from "../services/tasks/plan-project";
import { proposeReplan } from "../services/tasks/propose-replan";
import { rejectTask } from "../services/tasks/reject-task";
import { removeDependency } from "../services/tasks/remove-dependency";
import { restartDecomposition } from "../services/tasks/restart-decomposition";
import { restoreRevision } from "../services/tasks/restore-revision";
import { resubmitTask } from "../services/tasks/resubmit-task";
import { reviewPlan } from "../services/tasks/review-plan";
import { getSchedule } from "../services/tasks/schedule";
import { setReading } from "../services/tasks/set-reading";
import { readTree } from "../services/tasks/tree-reads";
import { unlockTask } from "../services/tasks/unlock-task";
import { updateEventModel } from "../services/tasks/update-event-model";
import { updateTask } from "../services/tasks/update-task";
import { mutation, query } from "./define";

const byId = z.strictObject({ id: taskId });

/** The task operations: the tRPC `tasks` router and the /api/tasks routes. */
export const taskOperations = {
  list: query({
    access: "user",
    summary: "Your tasks, newest first, a page at a time.",
    input: listTasksInput.prefault({}),
    output: taskList,
    run: ({ deps, user }, input) => listTasks(deps, user.id, input),
    rest: [{ method: "get", path: "/tasks", from: "query" }],
  }),
  // Declared before /tasks/{id} so "stats" and "usage" are not read as ids.
  stats: query({
    access: "user",
    summary: "How many of your tasks are in each status.",
    input: statsInput.prefault({}),
    output: taskStats,
    run: ({ deps, user }, input) => getTaskStats(deps, user.id, input),
    rest: [{ method: "get", path: "/tasks/stats", from: "query" }],
  }),
  usage: query({
    access: "user",
    summary: "Decompositions used this month, the monthly limit and when it resets.",
    output: taskUsage,
    run: ({ deps, user }) => usageOf(deps, user),
    rest: [{ method: "get", path: "/tasks/usage" }],
  }),
  create: mutation({
    access: "user",
    summary:
      'Creates a task from a description and starts its decomposition, or, with planner "agent", lets the calling coding agent plan it; with review_reading, only reads it and waits for you to check the reading (status awaiting_review).',
    input: createTaskInput,
    output: task,
    run: ({ deps, user, apiToken }, input) =>
      createTask(deps, user.id, input, { agentName: apiToken?.name ?? null }),
    rest: [{ method: "post", path: "/tasks", from: "body", status: 201 }],
  }),
  get: query({
    access: "user",
    summary: "One of your tasks.",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => getTask(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}" }],
  }),
  tree: query({
    access: "user",
    summary: "A task with all its subtasks, nested.",
    input: byId,
    output: taskTreeNode,
    run: ({ deps, user }, input) => readTree(deps, user.id, input.id, "tree"),
    rest: [{ method: "get", path: "/tasks/{id}/tree" }],
  }),
  treeCompact: query({
    access: "user",
    summary:
      "The same tree in a compact shape (what the web app reads): short keys, defaults and what the nesting says left out. See shared/tree-compact.ts.",
    input: byId,
    output: compactTree,
    run: ({ deps, user }, input) => readTree(deps, user.id, input.id, "compact"),
    rest: [{ method: "get", path: "/tasks/{id}/tree/compact" }],
  }),
  reading: query({
    access: "user",
    summary:
      "What was read of a project's description: the kind of work with its reasons, the kinds you may choose, and each item with its role (work items are R1, R2, ... in order; other items have no id).",
    input: byId,
    output: reading,
    run: ({ deps, user }, input) => getReading(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/reading" }],
  }),
  setReading: mutation({
    access: "user",
    summary:
      "Replaces the reading of a project waiting for your check: its kind and its items, in order, each with its text and role (409 once it is planned).",
    input: setReadingInput.extend({ id: taskId }),
    output: reading,
    run: ({ deps, user }, { id, ...input }) => setReading(deps, user.id, id, input),
    rest: [{ method: "put", path: "/tasks/{id}/reading", from: "body" }],
  }),
  plan: mutation({
    access: "user",
    summary:
      "Plans a project waiting for your check from its reading as it now stands; uses one of the monthly allowance (409 unless awaiting_review).",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => planProject(deps, user.id, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/plan" }],
  }),
  update: mutation({
    access: "user",
    summary: "Changes a task's title, description, status, complexity or details.",
    input: z.strictObject({ id: taskId, updates: updateTaskInput }),
    output: task,
    run: ({ deps, user }, input) => updateTask(deps, user.id, input.id, input.updates),
    rest: [{ method: "patch", path: "/tasks/{id}", from: { bodyKey: "updates" } }],
  }),
  delete: mutation({
    access: "user",
    summary: "Deletes a task with all its subtasks.",
    input: byId,
    output: deletedTasks,
    run: ({ deps, user }, input) => deleteTask(deps, user.id, input.id),
    rest: [
      {
        method: "delete",
        path: "/tasks/{id}",
        respond: ({ deleted }) => ({ detail: "Task deleted successfully", deleted }),
        output: deletedTasksMessage,
      },
    ],
  }),
  deleteSubtask: mutation({
    access: "user",
    summary: "Deletes a subtask with its own subtasks.",
    input: byId,
    output: deletedTasks,
    run: ({ deps, user }, input) => deleteSubtask(deps, user.id, input.id),
    rest: [
      {
        method: "delete",
        path: "/tasks/{id}/subtask",
        respond: ({ deleted }) => ({ detail: "Subtask deleted successfully", deleted }),
        output: deletedTasksMessage,
      },
    ],
  }),
  restartDecomposition: mutation({
    access: "user",
    summary: "Throws the plan away and decomposes the task again.",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => restartDecomposition(deps, user.id, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/restart-decomposition" }],
  }),
  complete: mutation({
    access: "user",
    summary: "Marks a task completed.",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => completeTask(deps, user.id, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/complete" }],
  }),
  updateEventModel: mutation({
    access: "user",
    summary: "Replaces the event model's Markdown; a later decomposition keeps a person's edit.",
    input: updateEventModelInput.extend({ id: taskId }),
    output: eventModelMetadata,
    run: ({ deps, user }, { id, ...input }) => updateEventModel(deps, user.id, id, input),
    rest: [
      {
        method: "patch",
        path: "/tasks/{id}/event-model",
        from: "body",
        respond: (metadata) => ({ metadata }),
        output: z.object({ metadata: eventModelMetadata }),
      },
    ],
  }),
  approve: mutation({
    access: "user",
    summary: "Approves a plan waiting for review; its decomposition continues.",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => approveTask(deps, user, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/approve" }],
  }),
  reject: mutation({
    access: "user",
    summary: "Rejects a plan waiting for review, with a reason.",
    input: rejectTaskInput.extend({ id: taskId }),
    output: task,
    run: ({ deps, user }, { id, ...input }) => rejectTask(deps, user, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/reject", from: "body" }],
  }),
  resubmit: mutation({
    access: "user",
    summary: "Resubmits a rejected task, optionally with a new description.",
    input: resubmitTaskInput.extend({ id: taskId }),
    output: task,
    run: ({ deps, user }, { id, ...input }) => resubmitTask(deps, user, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/resubmit", from: "body" }],
  }),
  addDependency: mutation({
    access: "user",
    summary: "Makes a task wait for another task of the same plan (422 naming the cycle it would close).",
    input: addDependencyInput.extend({ id: taskId }),
    output: taskDependencies,
    run: ({ deps, user }, { id, ...input }) => addDependency(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/dependencies", from: "body", status: 201 }],
  }),
  removeDependency: mutation({
    access: "user",
    summary: "Removes one of a task's dependencies.",
    input: z.strictObject({ id: taskId, depends_on_id: taskId }),
    output: z.void(),
    run: ({ deps, user }, input) => removeDependency(deps, user.id, input.id, input.depends_on_id),
    rest: [{ method: "delete", path: "/tasks/{id}/dependencies/{depends_on_id}", status: 204 }],
  }),
  dependencies: query({
    access: "user",
    summary: "What a task waits for and what waits for it.",
    input: byId,
    output: taskDependencies,
    run: ({ deps, user }, input) => getDependencies(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/dependencies" }],
  }),
  schedule: query({
    access: "user",
    summary:
      "The plan's order for a task's subtree: critical path, waves, ready leaves and a P50/P90 forecast for a team size.",
    input: scheduleInput.extend({ id: taskId }),
    output: schedule,
    run: ({ deps, user }, { id, ...input }) => getSchedule(deps, user.id, id, input),
    rest: [{ method: "get", path: "/tasks/{id}/schedule", from: "query" }],
  }),
  actuals: query({
    access: "user",
    summary:
      "What the plan's work actually took: scope and done over time (burn-up) and estimate against actual hours, by estimate source.",
    input: byId,
    output: planActuals,
    run: ({ deps, user }, { id }) => getPlanActuals(deps, user.id, id),
    rest: [{ method: "get", path: "/tasks/{id}/actuals" }],
  }),
  scopeChanges: query({
    access: "user",
    summary: "What the plan's history says changed since a date: tasks added, removed and re-estimated.",
    input: scopeChangesInput.extend({ id: taskId }),
    output: scopeChanges,
    run: ({ deps, user }, { id, ...input }) => getScopeChanges(deps, user.id, id, input),
    rest: [{ method: "get", path: "/tasks/{id}/scope-changes", from: "query" }],
  }),
  move: mutation({
    access: "user",
    summary:
      "Moves a task with its subtasks under another parent of the same plan, at a place among its children.",
    input: moveTaskInput.extend({ id: taskId }),
    output: movedTask,
    run: ({ deps, user }, { id, ...input }) => moveTask(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/move", from: "body" }],
  }),
  replan: mutation({
    access: "user",
    summary:
      "Asks the planner for a new subtree of a task, with optional guidance, and returns the changes as a proposal; the tree is not touched.",
    input: replanInput.extend({ id: taskId }),
    output: replanProposal,
    run: ({ deps, user }, { id, ...input }) => proposeReplan(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/replan", from: "body" }],
  }),
  getReplan: query({
    access: "user",
    summary: "A re-plan proposal of a task.",
    input: z.strictObject({ id: taskId, proposal_id: taskId }),
    output: replanProposal,
    run: ({ deps, user }, input) => getReplan(deps, user.id, input.id, input.proposal_id),
    rest: [{ method: "get", path: "/tasks/{id}/replan/{proposal_id}" }],
  }),
  acceptReplan: mutation({
    access: "user",
    summary:
      "Applies all of a re-plan's changes, or the chosen ones with what they need, as one revision (409 when the plan changed since).",
    input: acceptReplanInput.extend({ id: taskId, proposal_id: taskId }),
    output: replanResult,
    run: ({ deps, user }, { id, proposal_id, ...input }) =>
      acceptReplan(deps, user.id, id, proposal_id, input),
    rest: [{ method: "post", path: "/tasks/{id}/replan/{proposal_id}/accept", from: "body" }],
  }),
  unlock: mutation({
    access: "user",
    summary:
      "Lets re-plans change a task a person edited or an export created (a completed task stays locked).",
    input: byId,
    output: task,
    run: ({ deps, user }, input) => unlockTask(deps, user.id, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/unlock" }],
  }),
  activity: query({
    access: "user",
    summary:
      "Who did what on the plan, newest first, a page at a time (before = the previous page's next_before): edits, status, claims, comments, reviews, exports and tracker changes taken, by people and their agents.",
    input: activityQuery.extend({ id: taskId }),
    output: activityPage,
    run: ({ deps, user }, { id, ...input }) => listActivity(deps, user.id, id, input),
    rest: [{ method: "get", path: "/tasks/{id}/activity", from: "query" }],
  }),
  reviews: query({
    access: "user",
    summary:
      "Whether the plan needs an approval before it is exported, and where it stands: waiting, approved, changes requested, or stale (changed since).",
    input: byId,
    output: reviewState,
    run: ({ deps, user }, input) => getReviewState(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/reviews" }],
  }),
  review: mutation({
    access: "user",
    summary:
      "Records a review of a plan that needs approval: approve or request_changes, with a comment (owners and admins of its team; a personal plan's creator).",
    input: reviewInput.extend({ id: taskId }),
    output: reviewState,
    run: ({ deps, user }, { id, ...input }) => reviewPlan(deps, user.id, id, input),
    rest: [{ method: "post", path: "/tasks/{id}/reviews", from: "body", status: 201 }],
  }),
  claims: query({
    access: "user",
    summary: "Who works on which task of the plan now, until when (issue 41): the claims held on its tasks.",
    input: byId,
    output: planClaims,
    run: ({ deps, user }, input) => listClaims(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/claims" }],
  }),
  revisions: query({
    access: "user",
    summary: "The plan's revisions, newest first: every accepted re-plan, move, edit and restore.",
    input: byId,
    output: revisionList,
    run: ({ deps, user }, input) => listRevisions(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/revisions" }],
  }),
  restoreRevision: mutation({
    access: "user",
    summary: "Brings the plan back as it was at a revision, as a new revision.",
    input: z.strictObject({ id: taskId, revision_id: taskId }),
    output: revision,
    run: ({ deps, user }, input) => restoreRevision(deps, user.id, input.id, input.revision_id),
    rest: [{ method: "post", path: "/tasks/{id}/revisions/{revision_id}/restore" }],
  }),
  sync: mutation({
    access: "user",
    summary:
      "Asks JIRA, GitHub and Trello for what exports made for this plan: statuses move the tasks to match; other edits made there wait for review (trackerChanges).",
    input: byId,
    output: syncResult,
    run: ({ deps, user }, input) => syncPlan(deps, user.id, input.id),
    rest: [{ method: "post", path: "/tasks/{id}/sync" }],
  }),
  trackerChanges: query({
    access: "user",
    summary:
      "Edits people made on JIRA, GitHub or Trello since the last export or sync (titles, descriptions, story points, parents, items added or closed there), waiting for review, each with theirs and ours.",
    input: byId,
    output: trackerChanges,
    run: ({ deps, user }, input) => listTrackerChanges(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/tracker-changes" }],
  }),
  resolveTrackerChange: mutation({
    access: "user",
    summary:
      'Takes a tracker change into the plan ("theirs") or keeps the plan as it is ("ours"); either way the change leaves the review.',
    input: resolveTrackerChangeInput.extend({ id: taskId }),
    output: resolvedTrackerChange,
    run: ({ deps, user }, { id, change_id, decision }) =>
      resolveTrackerChange(deps, user.id, id, change_id, decision),
    rest: [{ method: "post", path: "/tasks/{id}/tracker-changes/{change_id}", from: "body" }],
  }),
  notes: query({
    access: "user",
    summary: "A task's notes, oldest first: what a person or a coding agent noted while doing it.",
    input: byId,
    output: taskNotes,
    run: ({ deps, user }, input) => listNotes(deps, user.id, input.id),
    rest: [
      { method: "get", path: "/tasks/{id}/notes" },
      { method: "get", path: "/tasks/{id}/comments" },
    ],
  }),
  addNote: mutation({
    access: "user",
    summary: "Appends a timestamped note to a task (signed with the token's name when a token wrote it).",
    input: addNoteInput.extend({ id: taskId }),
    output: taskNote,
    run: ({ deps, user, apiToken }, { id, ...input }) => addNote(deps, user.id, id, input, apiToken),
    rest: [
      { method: "post", path: "/tasks/{id}/notes", from: "body", status: 201 },
      { method: "post", path: "/tasks/{id}/comments", from: "body", status: 201 },
    ],
  }),
  editNote: mutation({
    access: "user",
    summary: "Changes a comment (its author only); a new @mention in it is told.",
    input: editNoteInput.extend({ id: taskId, comment_id: taskId }),
    output: taskNote,
    run: ({ deps, user }, { id, comment_id, ...input }) => editNote(deps, user.id, id, comment_id, input),
    rest: [{ method: "patch", path: "/tasks/{id}/comments/{comment_id}", from: "body" }],
  }),
  deleteNote: mutation({
    access: "user",
    summary: "Deletes a comment: its author, the plan's creator, or an owner or admin of the plan's team.",
    input: z.strictObject({ id: taskId, comment_id: taskId }),
    output: taskNotes,
    run: ({ deps, user }, input) => deleteNote(deps, user.id, input.id, input.comment_id),
    rest: [{ method: "delete", path: "/tasks/{id}/comments/{comment_id}" }],
  }),
  addTask: mutation({
    access: "user",
    summary: "Adds a task before or after a sibling, or as a child.",
    input: z.strictObject({ id: taskId, task: addTaskInput }),
    output: task,
    run: ({ deps, user }, input) => addTask(deps, user.id, input.id, input.task),
    rest: [{ method: "post", path: "/tasks/{id}/add-task", from: { bodyKey: "task" }, status: 201 }],
  }),
};
