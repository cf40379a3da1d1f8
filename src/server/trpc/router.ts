import { router } from "./init";
import { authRouter } from "./routers/auth";
import { systemRouter } from "./routers/system";

export const appRouter = router({
  auth: authRouter,
  system: systemRouter,
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
