import { Hono } from "hono";
import { z } from "zod";
import * as review from "../services/tasks/review";
import * as service from "../services/tasks/tasks";
import { type AppEnv, jsonBody, requireUser } from "./http";

const anyObject = z.record(z.string(), z.unknown());

/** The /api task routes (the REST facade of the task operations): parse, call the service, shape the response. */
export const taskRoutes = new Hono<AppEnv>()
  .get("/tasks", async (c) =>
    c.json(await service.listTasks(c.var.deps, requireUser(c).user.id, c.req.query())),
  )
  // Registered before /tasks/:id so "stats" and "usage" are not read as ids.
  .get("/tasks/stats", async (c) =>
    c.json(await service.getTaskStats(c.var.deps, requireUser(c).user.id, c.req.query())),
  )
  .get("/tasks/usage", (c) => c.json(service.usageOf(requireUser(c).user)))
  .post("/tasks", async (c) => {
    const user = requireUser(c).user;
    const task = await service.createTask(c.var.deps, user.id, await jsonBody(c, anyObject));
    return c.json(task, 201);
  })
  .get("/tasks/:id", async (c) =>
    c.json(await service.getTask(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  )
  .get("/tasks/:id/tree", async (c) =>
    c.json(await service.getTaskTree(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  )
  .patch("/tasks/:id", async (c) => {
    const user = requireUser(c).user;
    return c.json(
      await service.updateTask(c.var.deps, user.id, c.req.param("id"), await jsonBody(c, anyObject)),
    );
  })
  .delete("/tasks/:id", async (c) => {
    const { deleted } = await service.deleteTask(c.var.deps, requireUser(c).user.id, c.req.param("id"));
    return c.json({ detail: "Task deleted successfully", deleted });
  })
  .delete("/tasks/:id/subtask", async (c) => {
    const { deleted } = await service.deleteSubtask(c.var.deps, requireUser(c).user.id, c.req.param("id"));
    return c.json({ detail: "Subtask deleted successfully", deleted });
  })
  .post("/tasks/:id/restart-decomposition", async (c) =>
    c.json(await service.restartDecomposition(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  )
  .post("/tasks/:id/complete", async (c) =>
    c.json(await service.completeTask(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  )
  .patch("/tasks/:id/event-model", async (c) => {
    const user = requireUser(c).user;
    const body = await jsonBody(c, anyObject);
    return c.json({ metadata: await service.updateEventModel(c.var.deps, user.id, c.req.param("id"), body) });
  })
  .post("/tasks/:id/approve", async (c) =>
    c.json(await review.approveTask(c.var.deps, requireUser(c).user, c.req.param("id"))),
  )
  .post("/tasks/:id/reject", async (c) =>
    c.json(
      await review.rejectTask(
        c.var.deps,
        requireUser(c).user,
        c.req.param("id"),
        await jsonBody(c, anyObject),
      ),
    ),
  )
  .post("/tasks/:id/resubmit", async (c) =>
    c.json(
      await review.resubmitTask(
        c.var.deps,
        requireUser(c).user,
        c.req.param("id"),
        await jsonBody(c, anyObject),
      ),
    ),
  )
  .post("/tasks/:id/add-task", async (c) => {
    const user = requireUser(c).user;
    const task = await service.addTask(c.var.deps, user.id, c.req.param("id"), await jsonBody(c, anyObject));
    return c.json(task, 201);
  });
