import type { EvalCase } from "../case";

export const terraformAws: EvalCase = {
  id: "terraform-aws",
  kind: "infrastructure as code",
  description: `Terraform for our AWS setup. We run a containerised Node.js API on ECS Fargate behind an ALB, with RDS PostgreSQL and an S3 bucket for uploads. Want three environments (dev, staging, prod) from the same modules, remote state in S3 with DynamoDB locking, least-privilege IAM roles, private subnets for the tasks and the database, and CloudWatch alarms for 5xx rate and CPU. The pipeline should run terraform plan on pull requests and apply on merge to main via GitHub Actions.

Out of scope: migrating the existing hand-made resources (we'll recreate them), Kubernetes.`,
  requirements: [
    { id: "R1", text: "Three environments: dev, staging, prod", match: ["staging", "prod"] },
    { id: "R2", text: "Environments built from the same modules", match: ["module"] },
    { id: "R3", text: "Remote state in S3", match: ["remote state"] },
    { id: "R4", text: "DynamoDB state locking", match: ["lock"] },
    { id: "R5", text: "Least-privilege IAM roles", match: ["IAM"] },
    { id: "R6", text: "Private subnets for the tasks and the database", match: ["subnet"] },
    { id: "R7", text: "CloudWatch alarms for 5xx rate and CPU", match: ["alarm"] },
    { id: "R8", text: "RDS PostgreSQL", match: ["RDS"] },
    { id: "R9", text: "The API on ECS Fargate", match: ["Fargate"] },
    { id: "R10", text: "An S3 bucket for uploads", match: ["upload"] },
    { id: "R11", text: "terraform plan on pull requests", match: ["pull request"] },
    { id: "R12", text: "terraform apply on merge to main", match: ["merge"] },
  ],
  technologies: [
    "terraform",
    "aws",
    "nodejs",
    "ecs",
    "rds",
    "postgresql",
    "s3",
    "dynamodb",
    "cloudwatch",
    "github-actions",
    "kubernetes",
  ],
  non_goals: [
    { text: "migrating the existing hand-made resources", match: ["existing", "resource"] },
    { text: "Kubernetes", match: ["Kubernetes"] },
  ],
};
