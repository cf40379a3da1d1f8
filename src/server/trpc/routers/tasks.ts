import { z } from "zod";
import {
  addTaskInput,
  createTaskInput,
  listTasksInput,
  rejectTaskInput,
  resubmitTaskInput,
  statsInput,
  taskId,
  updateEventModelInput,
  updateTaskInput,
} from "../../../shared/schemas/tasks";
import * as review from "../../services/tasks/review";
import * as service from "../../services/tasks/tasks";
import { protectedProcedure, router } from "../init";

const byId = z.strictObject({ id: taskId });

export const tasksRouter = router({
  list: protectedProcedure
    .input(listTasksInput.partial().optional())
    .query(({ ctx, input }) => service.listTasks(ctx.deps, ctx.user.id, input ?? {})),
  stats: protectedProcedure
    .input(statsInput.partial().optional())
    .query(({ ctx, input }) => service.getTaskStats(ctx.deps, ctx.user.id, input ?? {})),
  usage: protectedProcedure.query(({ ctx }) => service.usageOf(ctx.user)),
  get: protectedProcedure
    .input(byId)
    .query(({ ctx, input }) => service.getTask(ctx.deps, ctx.user.id, input.id)),
  tree: protectedProcedure
    .input(byId)
    .query(({ ctx, input }) => service.getTaskTree(ctx.deps, ctx.user.id, input.id)),
  create: protectedProcedure
    .input(createTaskInput)
    .mutation(({ ctx, input }) => service.createTask(ctx.deps, ctx.user.id, input)),
  update: protectedProcedure
    .input(z.strictObject({ id: taskId, updates: updateTaskInput }))
    .mutation(({ ctx, input }) => service.updateTask(ctx.deps, ctx.user.id, input.id, input.updates)),
  complete: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => service.completeTask(ctx.deps, ctx.user.id, input.id)),
  delete: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => service.deleteTask(ctx.deps, ctx.user.id, input.id)),
  deleteSubtask: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => service.deleteSubtask(ctx.deps, ctx.user.id, input.id)),
  restartDecomposition: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => service.restartDecomposition(ctx.deps, ctx.user.id, input.id)),
  updateEventModel: protectedProcedure
    .input(updateEventModelInput.extend({ id: taskId }))
    .mutation(({ ctx, input }) =>
      service.updateEventModel(ctx.deps, ctx.user.id, input.id, {
        event_model_markdown: input.event_model_markdown,
      }),
    ),
  approve: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => review.approveTask(ctx.deps, ctx.user, input.id)),
  reject: protectedProcedure
    .input(rejectTaskInput.extend({ id: taskId }))
    .mutation(({ ctx, input }) => review.rejectTask(ctx.deps, ctx.user, input.id, { reason: input.reason })),
  resubmit: protectedProcedure
    .input(resubmitTaskInput.extend({ id: taskId }))
    .mutation(({ ctx, input }) =>
      review.resubmitTask(ctx.deps, ctx.user, input.id, { description: input.description }),
    ),
  addTask: protectedProcedure
    .input(z.strictObject({ id: taskId, task: addTaskInput }))
    .mutation(({ ctx, input }) => service.addTask(ctx.deps, ctx.user.id, input.id, input.task)),
});
