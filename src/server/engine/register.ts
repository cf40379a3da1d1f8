import type { Deps } from "../deps";
import type { JobKind } from "../jobs/payloads";
import type { JobContext, TypedJob } from "../jobs/queue";
import { runCompose } from "./compose";
import { permanentIfPlannerGaveUp } from "./failed-jobs";
import { JOB_COMPOSE, JOB_NODE, JOB_ROOT } from "./jobs";
import { runRoot } from "./root";
import { runNode, splitLoader } from "./split";

/**
 * The planning engine's entry: registers the decomposition's jobs on the queue (a job that gives up is
 * handled by engine/attention.ts's failDecomposition, which server.ts hands the queue).
 */
export function registerDecomposition(deps: Deps) {
  const wrap =
    <K extends JobKind>(fn: (deps: Deps, job: TypedJob<K>, ctx: JobContext) => Promise<void>) =>
    async (job: TypedJob<K>, ctx: JobContext) => {
      try {
        await fn(deps, job, ctx);
      } catch (err) {
        throw permanentIfPlannerGaveUp(err);
      }
    };
  deps.jobs.register(JOB_ROOT, wrap(runRoot));
  const loadSplit = splitLoader(deps);
  deps.jobs.register(
    JOB_NODE,
    wrap((d, job: TypedJob<typeof JOB_NODE>, ctx) => runNode(d, job, ctx, loadSplit)),
  );
  deps.jobs.register(JOB_COMPOSE, wrap(runCompose));
}
