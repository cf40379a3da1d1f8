import { Hono } from "hono";
import { z } from "zod";
import * as models from "../services/model-providers/model-providers";
import { type AppEnv, jsonBody, requireAdmin, requireUser } from "./http";

const anyObject = z.record(z.string(), z.unknown());

/** The /api mirror of Settings → AI model (the tRPC `modelProviders` router): parse, call, shape. */
export const modelProviderRoutes = new Hono<AppEnv>()
  .get("/model-provider", async (c) => c.json(await models.getOwnProvider(c.var.deps, requireUser(c).user)))
  .put("/model-provider", async (c) =>
    c.json(await models.saveOwnProvider(c.var.deps, requireUser(c).user, await jsonBody(c, anyObject))),
  )
  .delete("/model-provider", async (c) =>
    c.json(await models.removeOwnProvider(c.var.deps, requireUser(c).user)),
  )
  .post("/model-provider/test", async (c) =>
    c.json(await models.testOwnProvider(c.var.deps, requireUser(c).user, await jsonBody(c, anyObject))),
  )
  .get("/admin/model-provider", async (c) =>
    c.json(await models.getInstanceProvider(c.var.deps, requireAdmin(c).user)),
  )
  .put("/admin/model-provider", async (c) =>
    c.json(await models.saveInstanceProvider(c.var.deps, requireAdmin(c).user, await jsonBody(c, anyObject))),
  )
  .delete("/admin/model-provider", async (c) =>
    c.json(await models.removeInstanceProvider(c.var.deps, requireAdmin(c).user)),
  )
  .post("/admin/model-provider/test", async (c) =>
    c.json(await models.testInstanceProvider(c.var.deps, requireAdmin(c).user, await jsonBody(c, anyObject))),
  )
  .get("/planner", async (c) => c.json(await models.plannerForMe(c.var.deps, requireUser(c).user)))
  .get("/ollama/models", async (c) => {
    requireUser(c);
    return c.json(await models.ollamaModels(c.var.deps));
  })
  .post("/ollama/detect", async (c) => {
    requireUser(c);
    return c.json(await models.detectOllama(c.var.deps));
  });
