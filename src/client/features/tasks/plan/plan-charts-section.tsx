import { useQuery } from "@tanstack/react-query";
import { useCallback, useId, useState } from "react";
import type { Schedule } from "../../../../shared/schemas/schedule";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { finishDate } from "../shared/plan-view";
import { BurnUpChart } from "./charts/burn-up-chart";
import { EstimateAccuracyChart } from "./charts/estimate-accuracy-chart";
import { FinishDistributionChart } from "./charts/finish-distribution-chart";

/** A local date as YYYY-MM-DD (the forecast counts working days in the viewer's calendar). */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The Plan tab's pictures (issue 33): the burn-up with the forecast's cone, when the plan may end, and
 * estimate against actual by source. Each chart keeps its box while its data loads (no layout shift) and
 * has its data as a table.
 */
export function PlanChartsSection({ projectId, schedule }: { projectId: string; schedule: Schedule }) {
  const trpc = useTRPC();
  const unitId = useId();
  const [unit, setUnit] = useState<"hours" | "leaves">("hours");
  const actuals = useQuery(trpc.tasks.actuals.queryOptions({ id: projectId }));
  // "Today" by the day, so the charts' models are not recomputed on every render.
  const todayKey = isoDay(new Date());
  const dayAfter = useCallback(
    (days: number) => isoDay(finishDate(new Date(`${todayKey}T12:00:00`), days)),
    [todayKey],
  );
  const remaining = schedule.waves.some((w) => w.length > 0);
  const forecast = remaining
    ? { p50Date: dayAfter(schedule.forecast.p50_days), p90Date: dayAfter(schedule.forecast.p90_days) }
    : { p50Date: null, p90Date: null };

  return (
    <section aria-labelledby="charts-heading" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="charts-heading" className="card-title text-base">
            Progress in pictures
          </h3>
          <fieldset className="join" aria-describedby={unitId}>
            <legend id={unitId} className="sr-only">
              Burn-up unit
            </legend>
            {(["hours", "leaves"] as const).map((u) => (
              <label
                key={u}
                className={`btn join-item btn-xs has-[:focus-visible]:outline has-[:focus-visible]:outline-2 ${unit === u ? "btn-active" : ""}`}
              >
                <input
                  type="radio"
                  name={`${unitId}-unit`}
                  className="sr-only"
                  checked={unit === u}
                  onChange={() => setUnit(u)}
                />
                {u === "hours" ? "Hours" : "Tasks"}
              </label>
            ))}
          </fieldset>
        </div>
        {actuals.isError && (
          <p role="alert" className="text-sm text-error">
            {errorDetailOf(actuals.error) ?? "The progress could not be read."}{" "}
            <button type="button" className="btn btn-xs" onClick={() => void actuals.refetch()}>
              Retry
            </button>
          </p>
        )}
        <div className="grid gap-4 lg:grid-cols-2" aria-busy={actuals.isPending}>
          <div className="lg:col-span-2">
            <BurnUpChart
              points={actuals.data?.burn_up ?? []}
              unit={unit}
              forecast={forecast}
              loading={actuals.isPending}
            />
          </div>
          <FinishDistributionChart
            bins={schedule.forecast.distribution}
            p50Days={schedule.forecast.p50_days}
            p90Days={schedule.forecast.p90_days}
            startDate={todayKey}
            workingDaysToDate={dayAfter}
          />
          <EstimateAccuracyChart points={actuals.data?.accuracy ?? []} />
        </div>
      </div>
    </section>
  );
}
