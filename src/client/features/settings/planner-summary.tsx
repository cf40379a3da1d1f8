import { useQuery } from "@tanstack/react-query";
import { getErrorMessage } from "../../lib/api-error";
import { plannerChoiceText } from "../../lib/planner-text";
import { useTRPC } from "../../lib/trpc";

/** "Your tasks are planned by ..." at the top of the tab. */
export function PlannerSummary() {
  const trpc = useTRPC();
  const choice = useQuery(trpc.modelProviders.plannerForMe.queryOptions());
  return (
    <section
      aria-labelledby="planner-summary-title"
      className="rounded-box border border-base-300 bg-base-100 p-4 text-sm"
    >
      <h2 id="planner-summary-title" className="font-semibold">
        Who plans your tasks
      </h2>
      {choice.isPending ? (
        <span className="loading loading-dots loading-sm" role="status" aria-label="Loading" />
      ) : choice.isError ? (
        <p className="mt-1 text-error">{getErrorMessage(choice.error)}</p>
      ) : (
        <>
          <p className="mt-1" data-testid="planner-for-me">
            {plannerChoiceText(choice.data)}
          </p>
          {choice.data.problem && <p className="mt-1 text-warning">{choice.data.problem}</p>}
          <p className="mt-1 text-base-content/60">
            Your own model comes first, then one set by the server's environment, then the instance's model an
            admin saved. With none, you get an outline made from your description, without AI.
          </p>
        </>
      )}
    </section>
  );
}
