import type { EvalCase } from "../case";

export const opsSpikePostgresFts: EvalCase = {
  id: "ops-spike-postgres-fts",
  kind: "research spike (can we replace Elasticsearch with Postgres full-text search?)",
  work_kind: "spike",
  description: `Spike: investigate whether we can drop Elasticsearch and use Postgres full-text search

Timebox: 5 days.

Background: we run a 3-node Elasticsearch 7.10 cluster only for the help-center article search and the "search tickets" box in the agent app. It caused 2 of our 5 pages to on-call last quarter, the index sync job lags by up to 20 minutes, and 7.10 is past end of life. We already run Postgres 15 with 1.8M tickets and 12k articles.

Questions to answer:
1. Relevance: can Postgres FTS (tsvector with a GIN index, or pg_trgm for typo tolerance) match today's results on the 50 most common queries from last month's search logs? Compare the top 5 results side by side and have two support agents grade them.
2. Latency: is p95 under 150 ms for ticket search at today's volume and at 3x, with the agent app's filters (status, assignee, date range)?
3. Languages: we serve English, German and French. Does per-language stemming work with one column per language, or do we need separate indexes?
4. Write path: what does keeping the tsvector up to date cost on the tickets table (~40 writes/s), with a generated column versus a trigger?
5. What would we lose: highlighting, "did you mean", synonyms? Which of those do agents actually use?

Deliverable: a written recommendation (go, no-go, or go with conditions) with the benchmark numbers, and if it's a go, a rough migration plan with estimates. No production changes during the spike.`,
  requirements: [
    {
      id: "R1",
      text: "Compare relevance on the 50 most common queries, graded by two support agents",
      match: ["relevance"],
    },
    {
      id: "R2",
      text: "Measure p95 latency of ticket search at today's volume and at 3x, with filters",
      match: ["latency"],
    },
    { id: "R3", text: "Check per-language stemming for English, German and French", match: ["stemming"] },
    {
      id: "R4",
      text: "Measure the write-path cost of keeping the tsvector up to date",
      match: ["write path"],
    },
    {
      id: "R5",
      text: "List what we would lose (highlighting, did you mean, synonyms) and what agents use",
      match: ["highlighting"],
    },
    { id: "R6", text: "A written go / no-go recommendation with the numbers", match: ["recommendation"] },
    { id: "R7", text: "If it's a go, a rough migration plan with estimates", match: ["migration plan"] },
  ],
  technologies: ["postgresql", "elasticsearch"],
  non_goals: [{ text: "production changes during the spike", match: ["production change"] }],
  not_work: [
    { text: "the background about on-call pages", match: ["on-call"] },
    { text: "the background about the cluster's age", match: ["end of life"] },
    { text: "the timebox", match: ["5 days"] },
  ],
  sequence: [
    ["R2", "R6", "R7"],
    ["R1", "R6"],
  ],
  independent: [
    ["R1", "R2"],
    ["R3", "R4"],
  ],
  inspired_by:
    "https://github.com/cc-archive/open-ledger/issues/237 (evaluate PostgreSQL full-text search against Elasticsearch) and https://github.com/forem/forem/pull/11985 (spike: Postgres full-text search, performance of complex queries)",
};
