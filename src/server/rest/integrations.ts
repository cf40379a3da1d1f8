import { Hono } from "hono";
import { z } from "zod";
import * as exportsService from "../services/exports/exports";
import * as integrations from "../services/integrations/integrations";
import { type AppEnv, jsonBody, requireUser } from "./http";

const anyObject = z.record(z.string(), z.unknown());

/** The /api integration and export routes (settings, credentials, exports). */
export const integrationRoutes = new Hono<AppEnv>()
  .get("/settings", (c) => c.json(integrations.generalSettingsOf(requireUser(c).user)))
  .patch("/settings", async (c) =>
    c.json(
      await integrations.updateGeneralSettings(c.var.deps, requireUser(c).user, await jsonBody(c, anyObject)),
    ),
  )
  .get("/integrations", async (c) =>
    c.json(await integrations.integrationStatus(c.var.deps, requireUser(c).user.id)),
  )
  .post("/trello/credentials", async (c) =>
    c.json(
      await integrations.saveTrelloCredentials(
        c.var.deps,
        requireUser(c).user.id,
        await jsonBody(c, anyObject),
      ),
    ),
  )
  .delete("/trello/credentials", async (c) =>
    c.json(await integrations.deleteIntegration(c.var.deps, requireUser(c).user.id, "trello")),
  )
  .post("/jira/credentials", async (c) =>
    c.json(
      await integrations.saveJiraCredentials(
        c.var.deps,
        requireUser(c).user.id,
        await jsonBody(c, anyObject),
      ),
    ),
  )
  .delete("/jira/credentials", async (c) =>
    c.json(await integrations.deleteIntegration(c.var.deps, requireUser(c).user.id, "jira")),
  )
  .get("/github/status", async (c) =>
    c.json(await integrations.githubStatus(c.var.deps, requireUser(c).user)),
  )
  .post("/github/connect", async (c) => {
    const status = await integrations.connectGithub(
      c.var.deps,
      requireUser(c).user,
      await jsonBody(c, anyObject),
    );
    return c.json({ ...status, username: status.user?.login ?? null });
  })
  .delete("/github/disconnect", async (c) =>
    c.json(await integrations.disconnectGithub(c.var.deps, requireUser(c).user)),
  )
  .post("/jira/start-export", async (c) =>
    c.json(
      await exportsService.startExport(c.var.deps, requireUser(c).user, "jira", await jsonBody(c, anyObject)),
      202,
    ),
  )
  .post("/trello/start-export", async (c) =>
    c.json(
      await exportsService.startExport(
        c.var.deps,
        requireUser(c).user,
        "trello",
        await jsonBody(c, anyObject),
      ),
      202,
    ),
  )
  .post("/github/start-export", async (c) =>
    c.json(
      await exportsService.startExport(
        c.var.deps,
        requireUser(c).user,
        "github",
        await jsonBody(c, anyObject),
      ),
      202,
    ),
  )
  .get("/exports/:id", async (c) =>
    c.json(await exportsService.getExport(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  )
  .post("/exports/:id/retry", async (c) =>
    c.json(await exportsService.retryExport(c.var.deps, requireUser(c).user.id, c.req.param("id"))),
  );
