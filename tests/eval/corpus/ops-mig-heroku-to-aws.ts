import type { EvalCase } from "../case";

export const opsMigHerokuToAws: EvalCase = {
  id: "ops-mig-heroku-to-aws",
  kind: "platform migration (Heroku to AWS)",
  work_kind: "migration",
  description: `Move the booking app from Heroku to AWS

Our Heroku bill went from $2.1k to $4.8k a month in a year (mostly database and dyno upgrades), the 30-second router timeout keeps killing our PDF exports, and the annual contract renews on June 30, so we want to be off by June 15.

What we run today:
- Rails 7.1 app: 6 Standard-2X web dynos, 4 worker dynos running Sidekiq
- Heroku Postgres Standard-4 (~220 GB) and Heroku Redis Premium-2
- Heroku Scheduler with 5 jobs, a logging add-on, review apps on pull requests

Target on AWS, all of it in Terraform:
- Web and workers on ECS on Fargate, one service each, built from a new Dockerfile that replaces the buildpack
- RDS for PostgreSQL 15 and ElastiCache for Redis
- The 5 scheduler jobs as scheduled ECS tasks
- Config vars moved to SSM Parameter Store and injected into the task definitions
- Logs and alarms in CloudWatch (5xx rate, queue latency, database CPU)
- A load balancer with a TLS certificate for app.bookly.io

Database cut-over: AWS DMS keeps RDS in sync with Heroku Postgres (full load, then ongoing replication). Lower the DNS TTL to 60 s a week before. Then, in a maintenance window under 15 minutes: put the app in maintenance mode, wait for DMS to catch up, verify row counts, switch DNS. Keep the Heroku app and database running for two weeks afterwards as the fallback.

No app code changes beyond what the Dockerfile needs, and review apps can wait until after the move.`,
  requirements: [
    { id: "R1", text: "A Dockerfile that replaces the buildpack", match: ["Dockerfile"] },
    { id: "R2", text: "Web and workers on ECS on Fargate, one service each", match: ["Fargate"] },
    { id: "R3", text: "RDS for PostgreSQL 15", match: ["RDS"] },
    { id: "R4", text: "ElastiCache for Redis", match: ["ElastiCache"] },
    { id: "R5", text: "The 5 scheduler jobs as scheduled ECS tasks", match: ["scheduled"] },
    { id: "R6", text: "Config vars in SSM Parameter Store", match: ["Parameter Store"] },
    { id: "R7", text: "Logs and alarms in CloudWatch", match: ["CloudWatch"] },
    { id: "R8", text: "A load balancer with a TLS certificate", match: ["load balancer"] },
    { id: "R9", text: "All of the infrastructure in Terraform", match: ["Terraform"] },
    { id: "R10", text: "AWS DMS keeps RDS in sync with Heroku Postgres", match: ["DMS"] },
    { id: "R11", text: "Lower the DNS TTL a week before", match: ["TTL"] },
    { id: "R12", text: "Cut over in a maintenance window under 15 minutes", match: ["maintenance"] },
    { id: "R13", text: "Verify row counts during the cut-over", match: ["row count"] },
    { id: "R14", text: "Switch DNS", match: ["switch DNS"] },
    { id: "R15", text: "Keep Heroku running for two weeks as the fallback", match: ["fallback"] },
  ],
  technologies: [
    "rails",
    "sidekiq",
    "postgresql",
    "redis",
    "aws",
    "heroku",
    "terraform",
    "docker",
    "rds",
    "ecs",
    "cloudwatch",
    "elasticache",
    "ssm",
    "aws-dms",
  ],
  non_goals: [
    { text: "app code changes beyond the Dockerfile", match: ["app code"] },
    { text: "review apps", match: ["review apps"] },
  ],
  not_work: [
    { text: "the cost rationale", match: ["4.8k"] },
    { text: "the contract deadline", match: ["June 30"] },
    { text: "the current dyno sizes", match: ["Standard-2X"] },
  ],
  sequence: [
    ["R3", "R10", "R12", "R15"],
    ["R11", "R12"],
  ],
  separate: [["R3", "R4"]],
  independent: [
    ["R4", "R6"],
    ["R5", "R7"],
  ],
  inspired_by:
    "https://medium.com/@takamasa1222/how-an-ecs-beginner-migrated-heroku-infrastructure-to-aws-in-3-months-after-6-years-of-usage-b4bc7ad56e04 and https://www.cloudroutehq.com/migrate/heroku-to-aws (dynos to ECS on Fargate, Heroku Postgres to RDS via DMS, DNS cut-over)",
};
