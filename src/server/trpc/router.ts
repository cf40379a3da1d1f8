import { adminOperations } from "../operations/admin";
import { agentOperations } from "../operations/agent";
import { authOperations } from "../operations/auth";
import {
  blogOperations,
  blogPostAdminOperations,
  blogSubscriptionAdminOperations,
  outboxOperation,
} from "../operations/blog";
import { githubOperations, integrationOperations, settingsOperations } from "../operations/integrations";
import { modelProviderOperations } from "../operations/model-providers";
import { taskOperations } from "../operations/tasks";
import { tokenOperations } from "../operations/tokens";
import { router } from "./init";
import { procedureOf, proceduresOf } from "./operations";
import { exportsRouter } from "./routers/exports";
import { realtimeRouter } from "./routers/realtime";
import { systemRouter } from "./routers/system";

/** The SPA's API: the declared operations (src/server/operations) plus the subscriptions, which are tRPC's alone. */
export const appRouter = router({
  admin: router(proceduresOf(adminOperations)),
  agent: router(proceduresOf(agentOperations)),
  auth: router(proceduresOf(authOperations)),
  blog: router({
    ...proceduresOf(blogOperations),
    admin: router({
      posts: router(proceduresOf(blogPostAdminOperations)),
      subscriptions: router(proceduresOf(blogSubscriptionAdminOperations)),
      outbox: procedureOf(outboxOperation),
    }),
  }),
  exports: exportsRouter,
  github: router(proceduresOf(githubOperations)),
  integrations: router(proceduresOf(integrationOperations)),
  modelProviders: router(proceduresOf(modelProviderOperations)),
  realtime: realtimeRouter,
  settings: router(proceduresOf(settingsOperations)),
  system: systemRouter,
  tasks: router(proceduresOf(taskOperations)),
  tokens: router(proceduresOf(tokenOperations)),
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
