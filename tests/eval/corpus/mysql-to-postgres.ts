import type { EvalCase } from "../case";

export const mysqlToPostgres: EvalCase = {
  id: "mysql-to-postgres",
  kind: "migration",
  description: `Migrate our production database from MySQL 5.7 to PostgreSQL 16. ~400 GB, 180 tables, the app is a Laravel monolith. Downtime budget is 15 minutes. Plan must cover: schema conversion (ENUMs, unsigned ints, zero dates, utf8mb4 collations), data copy with pgloader plus a change-data-capture catch-up, rewriting the raw SQL queries that use MySQL-only syntax, verifying row counts and checksums, a rehearsal on a staging copy, and a rollback plan.`,
  requirements: [
    { id: "R1", text: "Schema conversion", match: ["schema"] },
    { id: "R2", text: "Convert ENUMs", match: ["enum"] },
    { id: "R3", text: "Convert unsigned ints", match: ["unsigned"] },
    { id: "R4", text: "Handle zero dates", match: ["zero date"] },
    { id: "R5", text: "Convert utf8mb4 collations", match: ["collation"] },
    { id: "R6", text: "Data copy with pgloader", match: ["pgloader"] },
    { id: "R7", text: "A change-data-capture catch-up", match: ["change data capture"] },
    { id: "R8", text: "Rewrite raw SQL queries using MySQL-only syntax", match: ["raw SQL"] },
    { id: "R9", text: "Verify row counts", match: ["row count"] },
    { id: "R10", text: "Verify checksums", match: ["checksum"] },
    { id: "R11", text: "A rehearsal on a staging copy", match: ["rehears"] },
    { id: "R12", text: "A rollback plan", match: ["rollback"] },
    { id: "R13", text: "Downtime within 15 minutes", match: ["downtime"] },
  ],
  technologies: ["mysql", "postgresql", "laravel", "pgloader"],
  non_goals: [],
};
