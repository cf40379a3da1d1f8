import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { calibrationSentence } from "../../../../shared/actuals";
import { DEFAULT_ESTIMATE, TEAM_SIZE_MAX } from "../../../../shared/schemas/schedule";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { EmptyState, LoadError } from "../../../components/empty-state";
import { BlockSpinner } from "../../../components/spinner";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { forecastDate } from "../../../lib/time-format";
import { useTRPC } from "../../../lib/trpc";
import { finishDate, formatRange, titleOf } from "../shared/plan-view";
import { indexTree } from "../shared/task-tree";
import { useClaims } from "../shared/use-claims";
import { useRefreshTask } from "../shared/use-task-detail";
import { PlanChartsSection } from "./plan-charts-section";
import { ScopeChangesCard } from "./scope-changes-card";
import { TrackerChangesCard } from "./tracker-changes-card";

/** A wave shows this many leaves before "N more". */
const WAVE_SHOWN = 24;
/** The order shows this many waves until asked for all (issue 40: 8,000 px at 300 tasks, with no fold). */
const WAVES_FOLDED = 5;

/** One figure of the forecast: a label, the value, and what it means. */
function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note: string;
  testId: string;
}) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-base-content/60">{label}</dt>
      <dd className="text-lg font-semibold" data-testid={testId}>
        {value}
      </dd>
      <dd className="text-sm text-base-content/70">{note}</dd>
    </div>
  );
}

/**
 * The Plan tab: what can start now, the order of the rest (waves of leaves that can run side by side),
 * the critical path, and when the work ends for a team of N people (P50/P90 of a seeded Monte Carlo
 * forecast, computed by the server: plan/graph.ts).
 */
export function PlanTab({ tree }: { tree: TaskTreeNode }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(tree.id);
  const [teamInput, setTeamInput] = useState("1");
  const teamSize = Number(teamInput);
  const teamValid = Number.isInteger(teamSize) && teamSize >= 1 && teamSize <= TEAM_SIZE_MAX;
  const [lastValidTeam, setLastValidTeam] = useState(1);
  if (teamValid && teamSize !== lastValidTeam) setLastValidTeam(teamSize);
  const teamId = useId();
  const calibrateId = useId();
  const [calibrate, setCalibrate] = useState(true);
  const [allWaves, setAllWaves] = useState(false);

  const schedule = useQuery(
    trpc.tasks.schedule.queryOptions(
      { id: tree.id, team_size: teamValid ? teamSize : lastValidTeam, calibrate },
      { placeholderData: keepPreviousData },
    ),
  );
  const index = useMemo(() => indexTree(tree), [tree]);
  // What someone else (or one of your agents) has claimed is theirs: Next up passes over it (issue 41).
  const claims = useClaims(tree.id);
  const complete = useMutation(
    trpc.tasks.complete.mutationOptions({
      retry: false,
      onSuccess: (task) => {
        toast.success(`Done: ${titleOf(task)}`);
        void refresh();
      },
      onError: (err) => toast.error(errorDetailOf(err) ?? "Could not mark the task done"),
    }),
  );

  if (schedule.isPending) {
    // As tall as the tab usually is, so the page below it does not move when the schedule arrives.
    return <BlockSpinner label="Computing the schedule..." minHeight="min-h-[70vh]" />;
  }
  if (schedule.isError) {
    return (
      <LoadError title="The schedule could not be computed" onRetry={() => void schedule.refetch()}>
        {errorDetailOf(schedule.error) ?? "Please try again."}
      </LoadError>
    );
  }
  const s = schedule.data;
  const critical = new Set(s.critical_path);
  const nameOf = (id: string) => {
    const node = index.get(id)?.node;
    return node ? titleOf(node) : "A task";
  };
  if (tree.children.length === 0) {
    return (
      <EmptyState title="Nothing to schedule yet">
        The plan has no subtasks yet. Once it is decomposed, its order and forecast appear here.
      </EmptyState>
    );
  }
  const today = new Date();
  const remaining = s.waves.reduce((n, w) => n + w.length, 0);
  const free = s.ready.filter((id) => !claims.others(id));
  const heldElsewhere = s.ready.filter((id) => claims.others(id));

  return (
    <div className="flex flex-col gap-4" aria-busy={schedule.isFetching}>
      <TrackerChangesCard projectId={tree.id} />
      <section aria-labelledby="forecast-heading" className="card border border-base-300 bg-base-200">
        <div className="card-body gap-3 p-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h3 id="forecast-heading" className="card-title text-base">
              Forecast
            </h3>
            <div className="form-control">
              <label htmlFor={teamId} className="label py-0 text-sm">
                Team size
              </label>
              <input
                id={teamId}
                type="number"
                inputMode="numeric"
                min={1}
                max={TEAM_SIZE_MAX}
                step={1}
                className={`input input-sm w-24 ${teamValid ? "" : "input-error"}`}
                value={teamInput}
                aria-invalid={!teamValid}
                aria-describedby={teamValid ? undefined : `${teamId}-error`}
                onChange={(e) => setTeamInput(e.target.value)}
              />
              {!teamValid && (
                <p id={`${teamId}-error`} role="alert" className="mt-1 text-xs text-error">
                  Enter a whole number from 1 to {TEAM_SIZE_MAX}.
                </p>
              )}
            </div>
          </div>
          {remaining === 0 ? (
            <p data-testid="forecast-done">Every task of this plan is done.</p>
          ) : (
            <dl className="grid gap-3 sm:grid-cols-3" data-testid="forecast">
              <Figure
                label="Likely (P50)"
                testId="forecast-p50"
                value={`${s.forecast.p50_days} working days`}
                note={forecastDate(finishDate(today, s.forecast.p50_days), today)}
              />
              <Figure
                label="Safe (P90)"
                testId="forecast-p90"
                value={`${s.forecast.p90_days} working days`}
                note={forecastDate(finishDate(today, s.forecast.p90_days), today)}
              />
              <Figure
                label="Critical path"
                testId="critical-hours"
                value={`${s.critical_path.length} ${s.critical_path.length === 1 ? "task" : "tasks"}, ${s.critical_path_hours} h`}
                note="the shortest the rest can take"
              />
            </dl>
          )}
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm" data-testid="calibration">
              {calibrationSentence(s.calibration)}
            </p>
            <label htmlFor={calibrateId} className="label cursor-pointer gap-2 py-0 text-sm">
              <input
                id={calibrateId}
                type="checkbox"
                className="toggle toggle-sm"
                checked={calibrate}
                onChange={(e) => setCalibrate(e.target.checked)}
              />
              Calibrate on finished tasks
            </label>
          </div>
          <p className="text-xs text-base-content/70">
            {/* Issue 40: the count alone read as noise; say what a run is. */}
            The dates come from {s.forecast.simulations.toLocaleString("en")} simulated runs of the plan: each
            run draws every task's hours from its estimate range, with {s.forecast.team_size}{" "}
            {s.forecast.team_size === 1 ? "person" : "people"}, dependencies respected, and{" "}
            {s.forecast.hours_per_day} focused hours per working day.
            {s.unestimated.length > 0 &&
              ` ${s.unestimated.length} ${s.unestimated.length === 1 ? "task has" : "tasks have"} no estimate and ${s.unestimated.length === 1 ? "counts" : "count"} as ${formatRange(DEFAULT_ESTIMATE)}.`}
          </p>
        </div>
      </section>

      <PlanChartsSection projectId={tree.id} schedule={s} />

      <section aria-labelledby="next-up-heading" className="card border border-base-300 bg-base-200">
        <div className="card-body gap-2 p-4">
          <h3 id="next-up-heading" className="card-title text-base">
            Next up
          </h3>
          {heldElsewhere.length > 0 && (
            <p className="text-sm text-base-content/70" data-testid="next-up-held">
              {heldElsewhere.length} ready {heldElsewhere.length === 1 ? "task is" : "tasks are"} taken:{" "}
              {heldElsewhere
                .slice(0, 3)
                .map((id) => `${nameOf(id)} (${claims.others(id)!.claimed_by})`)
                .join(", ")}
              {heldElsewhere.length > 3 ? ", …" : ""}.
            </p>
          )}
          {free.length === 0 ? (
            <p className="text-sm text-base-content/70">
              {remaining === 0
                ? "Nothing left to do."
                : heldElsewhere.length > 0
                  ? "Every ready task is taken by someone else."
                  : "Nothing is ready: every remaining task waits for another."}
            </p>
          ) : (
            <ol className="flex flex-col gap-1" data-testid="next-up">
              {free.map((id) => {
                const node = index.get(id)?.node;
                return (
                  <li
                    key={id}
                    className="flex flex-wrap items-center gap-2 rounded-box bg-base-100 px-3 py-2"
                  >
                    <span className="min-w-0 basis-full break-words sm:flex-1 sm:basis-auto">
                      {nameOf(id)}
                    </span>
                    {critical.has(id) && <span className="badge badge-sm badge-primary">critical</span>}
                    {claims.mine(claims.byTask.get(id)) && (
                      <span className="badge badge-sm badge-ghost">yours</span>
                    )}
                    {node?.estimate_hours && (
                      <span className="text-xs text-base-content/70">{formatRange(node.estimate_hours)}</span>
                    )}
                    <button
                      type="button"
                      className="btn btn-xs btn-outline"
                      disabled={complete.isPending}
                      aria-label={`Mark done: ${nameOf(id)}`}
                      onClick={() => complete.mutate({ id })}
                    >
                      Mark done
                    </button>
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      </section>

      <section aria-labelledby="waves-heading" className="card border border-base-300 bg-base-200">
        <div className="card-body gap-3 p-4">
          <h3 id="waves-heading" className="card-title text-base">
            Order of work
          </h3>
          <p className="text-sm text-base-content/70">
            Each wave can run side by side once the waves before it are done.{" "}
            <span className="badge badge-sm badge-primary">critical</span> marks the longest chain: a delay
            there delays the end.
          </p>
          <ol className="flex flex-col gap-3" data-testid="waves" id="waves-list">
            {(allWaves ? s.waves : s.waves.slice(0, WAVES_FOLDED)).map((wave, w) => (
              // Waves are positions in the order; their content changes, their place does not.
              // biome-ignore lint/suspicious/noArrayIndexKey: a wave is identified by its position
              <li key={w} className="grid gap-2 sm:grid-cols-[6rem_minmax(0,1fr)]">
                <span className="text-sm font-semibold text-base-content/70">Wave {w + 1}</span>
                <ul className="flex flex-wrap gap-2">
                  {wave.slice(0, WAVE_SHOWN).map((id) => (
                    <li
                      key={id}
                      className={`rounded-box border px-2 py-1 text-sm ${critical.has(id) ? "border-primary bg-primary/10 font-medium" : "border-base-300 bg-base-100"}`}
                      data-critical={critical.has(id) || undefined}
                    >
                      {nameOf(id)}
                      {critical.has(id) && <span className="sr-only"> (critical path)</span>}
                      {(s.files[id]?.length ?? 0) > 0 && (
                        <span
                          className="block font-mono text-xs text-base-content/80"
                          data-testid="wave-files"
                        >
                          {s.files[id]!.slice(0, 2).join(", ")}
                          {s.files[id]!.length > 2 ? ` +${s.files[id]!.length - 2}` : ""}
                        </span>
                      )}
                    </li>
                  ))}
                  {wave.length > WAVE_SHOWN && (
                    <li className="px-2 py-1 text-sm text-base-content/60">
                      and {wave.length - WAVE_SHOWN} more
                    </li>
                  )}
                </ul>
                {s.collisions
                  .filter((c) => c.wave === w)
                  .map((c) => (
                    <p
                      key={c.path}
                      className="alert alert-warning alert-soft py-1 text-sm sm:col-start-2"
                      data-testid="collision"
                    >
                      {c.task_ids.map((t) => `“${nameOf(t)}”`).join(" and ")} both change{" "}
                      <code className="break-all">{c.path}</code>: give them to one person, or do one first.
                    </p>
                  ))}
              </li>
            ))}
          </ol>
          {s.waves.length > WAVES_FOLDED && (
            <button
              type="button"
              className="btn btn-sm btn-ghost self-start"
              aria-expanded={allWaves}
              aria-controls="waves-list"
              onClick={() => setAllWaves((v) => !v)}
            >
              {allWaves ? `Show the first ${WAVES_FOLDED} waves` : `Show all ${s.waves.length} waves`}
            </button>
          )}
        </div>
      </section>
      <ScopeChangesCard projectId={tree.id} />
    </div>
  );
}
