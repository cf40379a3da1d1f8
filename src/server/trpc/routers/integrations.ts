import { tracked } from "@trpc/server";
import { z } from "zod";
import {
  generalSettingsInput,
  githubConnectInput,
  jiraCredentialsInput,
  startGithubExportInput,
  startJiraExportInput,
  startTrelloExportInput,
  trelloCredentialsInput,
} from "../../../shared/schemas/integrations";
import { exportMessages } from "../../realtime/export-channel";
import * as exportsService from "../../services/exports/exports";
import * as integrations from "../../services/integrations/integrations";
import { protectedProcedure, router } from "../init";

export const settingsRouter = router({
  get: protectedProcedure.query(({ ctx }) => integrations.generalSettingsOf(ctx.user)),
  update: protectedProcedure
    .input(generalSettingsInput)
    .mutation(({ ctx, input }) => integrations.updateGeneralSettings(ctx.deps, ctx.user, input)),
});

export const integrationsRouter = router({
  status: protectedProcedure.query(({ ctx }) => integrations.integrationStatus(ctx.deps, ctx.user.id)),
  saveTrello: protectedProcedure
    .input(trelloCredentialsInput)
    .mutation(({ ctx, input }) => integrations.saveTrelloCredentials(ctx.deps, ctx.user.id, input)),
  saveJira: protectedProcedure
    .input(jiraCredentialsInput)
    .mutation(({ ctx, input }) => integrations.saveJiraCredentials(ctx.deps, ctx.user.id, input)),
  remove: protectedProcedure
    .input(z.strictObject({ provider: z.enum(["trello", "jira"]) }))
    .mutation(({ ctx, input }) => integrations.deleteIntegration(ctx.deps, ctx.user.id, input.provider)),
});

export const githubRouter = router({
  status: protectedProcedure.query(({ ctx }) => integrations.githubStatus(ctx.deps, ctx.user)),
  connect: protectedProcedure
    .input(githubConnectInput)
    .mutation(({ ctx, input }) => integrations.connectGithub(ctx.deps, ctx.user, input)),
  disconnect: protectedProcedure.mutation(({ ctx }) => integrations.disconnectGithub(ctx.deps, ctx.user)),
});

const exportId = z.strictObject({ id: z.string().trim().min(1).max(100) });

export const exportsRouter = router({
  startJira: protectedProcedure
    .input(startJiraExportInput)
    .mutation(({ ctx, input }) => exportsService.startExport(ctx.deps, ctx.user, "jira", input)),
  startTrello: protectedProcedure
    .input(startTrelloExportInput)
    .mutation(({ ctx, input }) => exportsService.startExport(ctx.deps, ctx.user, "trello", input)),
  startGithub: protectedProcedure
    .input(startGithubExportInput)
    .mutation(({ ctx, input }) => exportsService.startExport(ctx.deps, ctx.user, "github", input)),
  get: protectedProcedure
    .input(exportId)
    .query(({ ctx, input }) => exportsService.getExport(ctx.deps, ctx.user.id, input.id)),
  retry: protectedProcedure
    .input(exportId)
    .mutation(({ ctx, input }) => exportsService.retryExport(ctx.deps, ctx.user.id, input.id)),
  /** The export's messages: its current state first, then live progress. */
  // lastEventId: the client's wsLink adds it on reconnect; the stream restarts from the current state anyway.
  events: protectedProcedure
    .input(exportId.extend({ lastEventId: z.string().max(50).nullish() }))
    .subscription(async ({ ctx, input, signal }) => {
      const row = await exportsService.getOwnedExport(ctx.deps, ctx.user.id, input.id);
      return (async function* () {
        let n = 0;
        for await (const message of exportMessages(ctx.deps, row, signal))
          yield tracked(String(n++), message);
      })();
    }),
});
