import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../init";

export const HEARTBEAT_MS = 15_000;

export const systemRouter = router({
  health: publicProcedure.query(async ({ ctx }) => ({ ok: true, database: await ctx.deps.database.ping() })),

  /** What the public pages show about this installation (footer, contact page, canonical URLs). */
  publicConfig: publicProcedure.query(({ ctx }) => ({
    publicUrl: ctx.deps.config.publicOrigin,
    supportEmail: ctx.deps.config.SUPPORT_EMAIL,
    social: {
      github: ctx.deps.config.SOCIAL_GITHUB_URL,
      x: ctx.deps.config.SOCIAL_X_URL,
      linkedin: ctx.deps.config.SOCIAL_LINKEDIN_URL,
    },
    googleSignIn: ctx.deps.config.googleEnabled,
  })),

  /** A live signal for the client's connection indicator: one beat at once, then every interval. */
  heartbeat: protectedProcedure
    .input(z.strictObject({ intervalMs: z.number().int().min(1000).max(60_000).optional() }).optional())
    .subscription(async function* ({ input, signal }) {
      const every = input?.intervalMs ?? HEARTBEAT_MS;
      let seq = 0;
      while (!signal?.aborted) {
        yield { seq: seq++, serverTime: new Date().toISOString() };
        try {
          await sleep(every, undefined, { signal });
        } catch {
          return;
        }
      }
    }),
});
