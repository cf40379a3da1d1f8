import type { EvalCase } from "../../case";

export const hoPerfNightlyAggregation: EvalCase = {
  id: "ho-perf-nightly-aggregation",
  kind: "performance issue with a timings table and several points (data batch job)",
  work_kind: "performance",
  description: `Daily aggregation run finishes after lunch; it needs to be done by 7am

The daily runner starts at 04:30 when the market operator's files land, and lately it finishes anywhere between 11:00 and 14:00. The morning dashboards and the 08:00 subscriber email show the day before yesterday until then.

Rough timings from the logs on 3 Dec:

| stage            | time      |
|------------------|-----------|
| download files   | 48 min    |
| load to Postgres | 1 h 55 min|
| demand aggregate | 3 h 40 min|
| facility energy  | 1 h 10 min|
| charts/export    | 12 min    |

Things to do:
- Add proper per-stage timing to the runner and send it to our metrics, so we see regressions (right now it's grepping logs).
- Download only the files we don't already have; today it re-fetches the whole month every night.
- Load with COPY instead of row-by-row inserts from pandas.
- The demand aggregate rebuilds the full history every night. Make it incremental: only the days whose data changed.
- Facility energy: run the 5 regions in parallel (the box has 8 cores).
- Two runs overlapped twice this month when one overran; add a lock so a second run exits straight away.
- Memory peaks at ~28 GB while reading the monthly CSVs; stream them in chunks.

Target: the whole run under 90 minutes, done by 06:00 at the latest. Try it on a copy of prod with a full month of data before we switch.`,
  requirements: [
    { id: "R1", text: "Per-stage timing sent to the metrics", match: ["timing"] },
    { id: "R2", text: "Download only the files not already downloaded", match: ["download"] },
    { id: "R3", text: "Load with COPY instead of row-by-row inserts", match: ["COPY"] },
    { id: "R4", text: "An incremental demand aggregate (only changed days)", match: ["incremental"] },
    { id: "R5", text: "Facility energy for the 5 regions in parallel", match: ["parallel"] },
    { id: "R6", text: "A lock so an overlapping second run exits", match: ["lock"] },
    { id: "R7", text: "Stream the monthly CSVs in chunks", match: ["chunk"] },
    { id: "R8", text: "The whole run under 90 minutes, done by 06:00", match: ["90 minutes"] },
    { id: "R9", text: "Tried on a copy of prod with a full month of data", match: ["full month"] },
  ],
  technologies: ["postgresql", "pandas"],
  non_goals: [],
  not_work: [
    { text: "the title's lunch", match: ["lunch"] },
    { text: "the timings table", match: ["48 min"] },
    { text: "the date of the timings", match: ["3 Dec"] },
    { text: "grepping logs today", match: ["grepping"] },
  ],
  independent: [
    ["R2", "R7"],
    ["R5", "R6"],
  ],
  inspired_by:
    "https://github.com/opennem/opennem/issues/169 and https://github.com/datagovuk/ckanext-dgu/issues/202 (overnight processing running past midday)",
};
