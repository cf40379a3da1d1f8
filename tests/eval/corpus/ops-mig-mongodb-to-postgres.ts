import type { EvalCase } from "../case";

export const opsMigMongodbToPostgres: EvalCase = {
  id: "ops-mig-mongodb-to-postgres",
  kind: "database migration motivated by performance (MongoDB to PostgreSQL)",
  work_kind: "migration",
  description: `Proposal: move the reporting service from MongoDB to PostgreSQL

Why: the reporting service keeps customer usage events and billing rollups in MongoDB 5.0 (~900 GB, 1.1B documents). The monthly billing report is a 14-stage aggregation pipeline with three $lookup stages; it now takes 6-11 minutes for a large customer and regularly hits the 100 MB memory limit. We also had two billing mismatches this year because updates to \`usage_events\` and \`invoices\` aren't in one transaction. On a 10M-event sample the same report takes 4.2 s on PostgreSQL 16 against 71 s on Mongo. So the motivation is performance and consistency.

Plan:
- Schema: map the 6 collections to tables; \`usage_events\` becomes a table partitioned by month, the free-form \`metadata\` field stays as JSONB, and ObjectIds become UUIDs (keeping the old id in a \`legacy_id\` column)
- Rewrite the data access layer (today Mongoose models) with Prisma, and the aggregation pipelines as SQL (CTEs and window functions)
- Backfill: a one-off job that copies the history in batches, resumable, with per-collection row count and sum(amount) checks against Mongo
- Dual writes: write to both databases behind a feature flag for two billing cycles, and compare the monthly reports from both
- Cut-over: switch reads to Postgres one customer cohort at a time, then stop writing to Mongo
- Keep Mongo read-only for 90 days as the rollback path, then decommission the cluster

The report API and its JSON output must not change.`,
  requirements: [
    { id: "R1", text: "Map the 6 collections to a PostgreSQL schema", match: ["schema"] },
    { id: "R2", text: "usage_events partitioned by month", match: ["partition"] },
    { id: "R3", text: "The metadata field stays as JSONB", match: ["JSONB"] },
    { id: "R4", text: "ObjectIds become UUIDs, old id kept in legacy_id", match: ["UUID"] },
    { id: "R5", text: "Rewrite the data access layer with Prisma", match: ["Prisma"] },
    { id: "R6", text: "Rewrite the aggregation pipelines as SQL", match: ["aggregation"] },
    { id: "R7", text: "A resumable, batched backfill of the history", match: ["backfill"] },
    { id: "R8", text: "Row count and sum(amount) checks against Mongo", match: ["row count"] },
    { id: "R9", text: "Dual writes behind a feature flag for two billing cycles", match: ["dual"] },
    { id: "R10", text: "Compare the monthly reports from both databases", match: ["compare"] },
    { id: "R11", text: "Switch reads to Postgres one customer cohort at a time", match: ["cohort"] },
    { id: "R12", text: "Stop writing to Mongo", match: ["stop writing"] },
    { id: "R13", text: "Keep Mongo read-only for 90 days as the rollback path", match: ["rollback"] },
    { id: "R14", text: "Decommission the MongoDB cluster", match: ["decommission"] },
    { id: "R15", text: "The report API and its JSON output stay the same", match: ["report API"] },
  ],
  technologies: ["postgresql", "mongodb", "prisma", "mongoose"],
  non_goals: [],
  not_work: [
    { text: "the benchmark in the rationale", match: ["71 s"] },
    { text: "the rationale's description of the pipeline", match: ["$lookup"] },
    { text: "the rationale's memory limit", match: ["100 MB"] },
  ],
  not_non_goals: [{ text: "The report API and its JSON output must not change", match: ["report API"] }],
  sequence: [
    ["R1", "R7", "R11", "R12", "R14"],
    ["R9", "R11"],
  ],
  separate: [["R2", "R3", "R4"]],
  independent: [
    ["R2", "R4"],
    ["R6", "R8"],
  ],
  inspired_by:
    "https://dev.to/johalputt/we-migrated-from-mongodb-70-to-postgresql-17-heres-how-we-handled-1b-documents-58c6 (slow cross-collection aggregations, no cross-shard transactions) and https://toolchew.com/en/how-to-migrate-mongo-to-postgres/ (dual writes, ETL, cut-over flag)",
};
