import { router } from "./init";
import { adminRouter } from "./routers/admin";
import { authRouter } from "./routers/auth";
import { systemRouter } from "./routers/system";

export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  system: systemRouter,
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
