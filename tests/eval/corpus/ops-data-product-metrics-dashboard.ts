import type { EvalCase } from "../case";

export const opsDataProductMetricsDashboard: EvalCase = {
  id: "ops-data-product-metrics-dashboard",
  kind: "analytics dashboard on a warehouse (BigQuery, Metabase)",
  work_kind: "data",
  description: `Need a product metrics dashboard for the leadership weekly. Our app events already land in BigQuery (\`analytics.events\`, ~40M rows a day, partitioned by event_date) and subscriptions sync nightly from Postgres into \`analytics.subscriptions\`.

Metrics (definitions agreed with product, see the doc below):
- DAU / WAU / MAU and the DAU/MAU ratio
- Activation rate: % of new signups who create their first project within 7 days
- 4-week retention by signup cohort (a cohort table)
- Trial-to-paid conversion by plan and by acquisition channel
- Top 10 features by weekly users

Build it in Metabase (we already self-host it). Put the logic in scheduled queries that write small aggregate tables, so the dashboard doesn't scan the raw events table on every load (last month's ad-hoc queries cost $1,900). Filters: date range, plan, country. Refreshed daily by 07:00 UTC. Access limited to the leadership and product groups.

Nice to have, not needed for v1: alerts when activation drops, and a mobile layout.

Doc: https://docs.internal/metrics-definitions`,
  requirements: [
    { id: "R1", text: "DAU / WAU / MAU and the DAU/MAU ratio", match: ["DAU"] },
    { id: "R2", text: "Activation rate within 7 days of signup", match: ["activation"] },
    { id: "R3", text: "4-week retention by signup cohort", match: ["retention"] },
    { id: "R4", text: "Trial-to-paid conversion by plan and channel", match: ["conversion"] },
    { id: "R5", text: "Top 10 features by weekly users", match: ["top 10"] },
    { id: "R6", text: "The dashboard in Metabase", match: ["Metabase"] },
    { id: "R7", text: "Scheduled queries that write small aggregate tables", match: ["aggregate"] },
    { id: "R8", text: "Filters for date range, plan and country", match: ["filter"] },
    { id: "R9", text: "Refreshed daily by 07:00 UTC", match: ["07:00"] },
    { id: "R10", text: "Access limited to the leadership and product groups", match: ["access"] },
  ],
  technologies: ["postgresql", "bigquery", "metabase"],
  non_goals: [
    { text: "alerts when activation drops", match: ["alert"] },
    { text: "a mobile layout", match: ["mobile"] },
  ],
  not_work: [
    { text: "the cost of last month's ad-hoc queries", match: ["$1,900"] },
    { text: "the link to the definitions doc", match: ["docs.internal"] },
  ],
  sequence: [["R7", "R6"]],
  independent: [
    ["R1", "R5"],
    ["R3", "R4"],
    ["R8", "R10"],
  ],
  inspired_by:
    "https://github.com/MobilityData/mobility-feed-api/issues/1088 (Metabase dashboard with a list of questions to answer) and https://github.com/CDCgov/prime-reportstream/issues/3210 (Metabase usage dashboard with weekly metrics)",
};
