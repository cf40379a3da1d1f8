import { router } from "./init";
import { adminRouter } from "./routers/admin";
import { authRouter } from "./routers/auth";
import { blogRouter } from "./routers/blog";
import { exportsRouter, githubRouter, integrationsRouter, settingsRouter } from "./routers/integrations";
import { modelProvidersRouter } from "./routers/model-providers";
import { realtimeRouter } from "./routers/realtime";
import { systemRouter } from "./routers/system";
import { tasksRouter } from "./routers/tasks";

export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  blog: blogRouter, // blog (issue 6)
  exports: exportsRouter,
  github: githubRouter,
  integrations: integrationsRouter,
  modelProviders: modelProvidersRouter,
  realtime: realtimeRouter,
  settings: settingsRouter,
  system: systemRouter,
  tasks: tasksRouter,
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
