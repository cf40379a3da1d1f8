import { operationRegistry } from "../operations/all";
import { router } from "./init";
import { registryProcedures } from "./operations";
import { exportSubscriptions } from "./routers/exports";
import { realtimeRouter } from "./routers/realtime";
import { systemRouter } from "./routers/system";

const operations = registryProcedures(operationRegistry);

/**
 * The SPA's API: the declared operations (built from the same registry as the REST facade, so the two
 * cannot list different groups), plus the subscriptions and system procedures, which are tRPC's alone.
 */
export const appRouter = router({
  ...operations,
  exports: { ...operations.exports, ...exportSubscriptions },
  realtime: realtimeRouter,
  system: systemRouter,
});

/** Imported by the SPA and by TypeScript consumers (`atomize/router`). */
export type AppRouter = typeof appRouter;
