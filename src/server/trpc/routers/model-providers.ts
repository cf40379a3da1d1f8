import { modelProviderInput } from "../../../shared/schemas/model-providers";
import * as models from "../../services/model-providers/model-providers";
import { adminProcedure, protectedProcedure, router } from "../init";

/** Settings → AI model: the caller's own provider, the instance's (admins), a local Ollama, and who plans. */
export const modelProvidersRouter = router({
  mine: protectedProcedure.query(({ ctx }) => models.getOwnProvider(ctx.deps, ctx.user)),
  saveMine: protectedProcedure
    .input(modelProviderInput)
    .mutation(({ ctx, input }) => models.saveOwnProvider(ctx.deps, ctx.user, input)),
  removeMine: protectedProcedure.mutation(({ ctx }) => models.removeOwnProvider(ctx.deps, ctx.user)),
  testMine: protectedProcedure
    .input(modelProviderInput)
    .mutation(({ ctx, input }) => models.testOwnProvider(ctx.deps, ctx.user, input)),

  instance: adminProcedure.query(({ ctx }) => models.getInstanceProvider(ctx.deps, ctx.user)),
  saveInstance: adminProcedure
    .input(modelProviderInput)
    .mutation(({ ctx, input }) => models.saveInstanceProvider(ctx.deps, ctx.user, input)),
  removeInstance: adminProcedure.mutation(({ ctx }) => models.removeInstanceProvider(ctx.deps, ctx.user)),
  testInstance: adminProcedure
    .input(modelProviderInput)
    .mutation(({ ctx, input }) => models.testInstanceProvider(ctx.deps, ctx.user, input)),

  /** Which planner a task created now would run with: name, model and where its settings come from. */
  plannerForMe: protectedProcedure.query(({ ctx }) => models.plannerForMe(ctx.deps, ctx.user)),
  ollama: protectedProcedure.query(({ ctx }) => models.ollamaModels(ctx.deps)),
  detectOllama: protectedProcedure.mutation(({ ctx }) => models.detectOllama(ctx.deps)),
});
