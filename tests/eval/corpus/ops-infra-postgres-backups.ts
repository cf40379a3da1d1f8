import type { EvalCase } from "../case";

export const opsInfraPostgresBackups: EvalCase = {
  id: "ops-infra-postgres-backups",
  kind: "backups and point-in-time recovery (PostgreSQL, pgBackRest)",
  work_kind: "infrastructure",
  description: `Backups for the main Postgres cluster

The review of incident INC-231 found that our only backup of the main database is a nightly \`pg_dump\` written to a volume on the same host. It takes 5 hours, and nobody has ever restored one. Our RPO is 24 h in theory and unknown in practice.

Setup: PostgreSQL 15, ~600 GB, a primary and one streaming replica on EC2 (Ubuntu 22.04), configured with Ansible.

We want:
- pgBackRest with its repository in S3, in a separate AWS account, in a bucket with Object Lock, and encrypted
- Continuous WAL archiving so we can do point-in-time recovery; target RPO 5 minutes, RTO 2 hours
- A weekly full and daily differential backups, taken from the replica so the primary isn't loaded
- Retention: 4 full backups, WAL kept for 35 days
- All of it in our Ansible roles, no manual steps on the hosts
- A monthly automated restore test: restore the latest backup to a throwaway instance, replay WAL to a timestamp, run a row-count and checksum check on 10 key tables, then destroy the instance
- Alerts (to the existing Prometheus/Alertmanager) when a backup or a WAL push fails, or when the last successful backup is older than 26 h
- A restore runbook that whoever is on call can follow at 3 a.m.

Keep the nightly pg_dump until the first restore test passes, then remove it.`,
  requirements: [
    { id: "R1", text: "pgBackRest with its repository in S3", match: ["pgBackRest"] },
    {
      id: "R2",
      text: "The repository bucket in a separate AWS account with Object Lock",
      match: ["Object Lock"],
    },
    { id: "R3", text: "Encrypted backups", match: ["encrypt"] },
    {
      id: "R4",
      text: "Continuous WAL archiving for point-in-time recovery (RPO 5 minutes)",
      match: ["WAL archiving"],
    },
    {
      id: "R5",
      text: "Weekly full and daily differential backups from the replica",
      match: ["differential"],
    },
    { id: "R6", text: "Retention of 4 full backups and 35 days of WAL", match: ["retention"] },
    { id: "R7", text: "All of it in the Ansible roles", match: ["Ansible"] },
    { id: "R8", text: "A monthly automated restore test", match: ["restore test"] },
    { id: "R9", text: "A row-count and checksum check on 10 key tables", match: ["checksum"] },
    {
      id: "R10",
      text: "Alerts when a backup or WAL push fails or the last backup is older than 26 h",
      match: ["alert"],
    },
    { id: "R11", text: "A restore runbook for the on-call", match: ["runbook"] },
    { id: "R12", text: "Remove the nightly pg_dump after the first restore test passes", match: ["pg_dump"] },
  ],
  technologies: ["postgresql", "aws", "s3", "ec2", "ansible", "prometheus", "pgbackrest"],
  non_goals: [],
  not_work: [
    { text: "the incident review", match: ["INC-231"] },
    { text: "the state of today's backup", match: ["5 hours"] },
  ],
  not_non_goals: [{ text: "no manual steps on the hosts", match: ["manual steps"] }],
  sequence: [["R1", "R8", "R12"]],
  independent: [
    ["R10", "R11"],
    ["R3", "R6"],
  ],
  inspired_by:
    "https://github.com/supabase-multitenant/supabase-multitenant/issues/107 (continuous WAL archiving for PITR, restore to a timestamp), https://github.com/ziaurrehman72/freshpedals-platform/issues/37 (pgBackRest, RPO, restore verified) and https://github.com/openstreetmap/operations/issues/1300 (pgBackRest with WAL on S3)",
};
