import { tracked } from "@trpc/server";
import { z } from "zod";
import { exportMessages } from "../../realtime/export-channel";
import * as exportsService from "../../services/exports/exports";
import { protectedProcedure } from "../init";

/** The exports' subscription; the exports' operations come from the registry (trpc/router.ts). */
export const exportSubscriptions = {
  /** The export's messages: its current state first, then live progress. */
  // lastEventId: the client's wsLink adds it on reconnect; the stream restarts from the current state anyway.
  events: protectedProcedure
    .input(
      z.strictObject({ id: z.string().trim().min(1).max(100), lastEventId: z.string().max(50).nullish() }),
    )
    .subscription(async ({ ctx, input, signal }) => {
      const row = await exportsService.getOwnedExport(ctx.deps, ctx.user.id, input.id);
      return (async function* () {
        let n = 0;
        for await (const message of exportMessages(ctx.deps, row, signal))
          yield tracked(String(n++), message);
      })();
    }),
};
