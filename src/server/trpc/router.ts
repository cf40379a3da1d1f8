import { operationRegistry as registry } from "../operations/all";
import { router } from "./init";
import { groupProcedures as group } from "./operations";
import { exportSubscriptions } from "./routers/exports";
import { realtimeRouter } from "./routers/realtime";
import { systemRouter } from "./routers/system";

/**
 * The SPA's API: every group of the declared operations at its path (`blog.admin.posts` is
 * `trpc.blog.admin.posts.*`; tests/unit/trpc-router.test.ts checks that each operation of the registry
 * is here, so the router and the REST facade cannot list different groups), plus the subscriptions and
 * system procedures, which are tRPC's alone.
 */
export const appRouter = router({
  auth: group(registry, "auth"),
  tasks: group(registry, "tasks"),
  agent: group(registry, "agent"),
  teams: group(registry, "teams"),
  settings: group(registry, "settings"),
  tokens: group(registry, "tokens"),
  integrations: group(registry, "integrations"),
  github: group(registry, "github"),
  exports: { ...group(registry, "exports"), ...exportSubscriptions },
  modelProviders: group(registry, "modelProviders"),
  blog: {
    ...group(registry, "blog"),
    admin: {
      ...group(registry, "blog.admin"),
      posts: group(registry, "blog.admin.posts"),
      subscriptions: group(registry, "blog.admin.subscriptions"),
    },
  },
  admin: group(registry, "admin"),
  realtime: realtimeRouter,
  system: systemRouter,
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
