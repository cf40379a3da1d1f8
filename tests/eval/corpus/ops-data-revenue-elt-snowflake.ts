import type { EvalCase } from "../case";

export const opsDataRevenueEltSnowflake: EvalCase = {
  id: "ops-data-revenue-elt-snowflake",
  kind: "ELT pipeline (Stripe and Postgres into Snowflake, dbt, Airflow)",
  work_kind: "data",
  description: `Revenue data pipeline into Snowflake

Finance builds the monthly revenue report by exporting Stripe CSVs and joining them with a Postgres export in Google Sheets. It takes two people three days at every month-end and never quite matches the Stripe dashboard.

Build an ELT pipeline:
- Extract: Stripe (charges, refunds, subscriptions, invoices, balance transactions) through the API, incrementally by created/updated timestamps; and the app's Postgres tables (accounts, plans, seats) from the read replica, nightly
- Load everything raw into Snowflake (a RAW database, one schema per source), never transformed in flight
- Transform with dbt: staging models per source, then marts for MRR, churned MRR, expansion, net revenue retention and refunds, by month and by plan
- Orchestrate as an Airflow DAG on our existing Airflow: daily at 02:00 UTC, retries with backoff, and a failure alert to #data-alerts
- dbt tests on every model (unique and not-null keys, accepted values for plan and currency), plus source freshness checks
- Multi-currency: convert to USD with the daily ECB rate of the charge date
- Backfill 3 years of history once

Definition of done: MRR for the last 12 months matches finance's reconciled numbers within 0.5%, and the finance team can query the marts from their BI tool.`,
  requirements: [
    {
      id: "R1",
      text: "Extract Stripe objects through the API, incrementally",
      match: ["Stripe", "incremental"],
    },
    {
      id: "R2",
      text: "Extract the app's Postgres tables from the read replica, nightly",
      match: ["read replica"],
    },
    { id: "R3", text: "Load everything raw into Snowflake, one schema per source", match: ["raw"] },
    { id: "R4", text: "dbt staging models per source", match: ["staging"] },
    {
      id: "R5",
      text: "Marts for MRR, churned MRR, expansion, net revenue retention and refunds",
      match: ["mart"],
    },
    { id: "R6", text: "Daily Airflow DAG at 02:00 UTC", match: ["DAG"] },
    { id: "R7", text: "Retries with backoff", match: ["backoff"] },
    { id: "R8", text: "A failure alert to #data-alerts", match: ["alert"] },
    { id: "R9", text: "dbt tests on every model", match: ["dbt test"] },
    { id: "R10", text: "Source freshness checks", match: ["freshness"] },
    { id: "R11", text: "Convert to USD with the daily ECB rate", match: ["ECB"] },
    { id: "R12", text: "Backfill 3 years of history once", match: ["backfill"] },
    { id: "R13", text: "MRR matches finance's reconciled numbers within 0.5%", match: ["reconcil"] },
    { id: "R14", text: "Finance can query the marts from their BI tool", match: ["BI tool"] },
  ],
  technologies: ["postgresql", "snowflake", "stripe", "airflow", "dbt"],
  non_goals: [],
  not_work: [
    { text: "today's manual process", match: ["Google Sheets"] },
    { text: "today's manual process", match: ["three days"] },
  ],
  not_non_goals: [{ text: "loaded raw, never transformed in flight", match: ["in flight"] }],
  sequence: [["R3", "R4", "R5", "R13"]],
  separate: [
    ["R1", "R2"],
    ["R7", "R8"],
  ],
  independent: [
    ["R1", "R2"],
    ["R7", "R10"],
    ["R8", "R11"],
  ],
  inspired_by:
    "https://github.com/polarsource/polar/issues/1120 (ELT pipeline for Stripe data with Airflow and dbt) and https://github.com/cagov/data-infrastructure/issues/68 (load raw, transform with dbt, report from the analytics layer)",
};
