import type { EvalCase } from "../case";

export const opsInfraGitlabCiCd: EvalCase = {
  id: "ops-infra-gitlab-ci-cd",
  kind: "CI/CD pipeline (GitLab CI, Helm)",
  work_kind: "infrastructure",
  description: `Set up GitLab CI/CD for the payments-service

Today builds run on a Jenkins box under someone's desk and deploys are a \`helm upgrade\` from a laptop. Replace both with a .gitlab-ci.yml pipeline.

Stages:
1. build: \`./gradlew assemble\` with the Gradle cache keyed on the lock files
2. test: unit tests and integration tests (Testcontainers with Postgres) in parallel jobs, with the JUnit reports shown in the merge request
3. quality: lint, plus a coverage gate that fails under 80% line coverage on changed files
4. package: build the Docker image without Docker-in-Docker, tag it with the commit SHA, push it to the GitLab container registry, and scan it for vulnerabilities (fail on critical CVEs)
5. deploy: Helm deploy to staging automatically on merge to main; production is a manual job, limited to the payments maintainers, and only from tags

Also:
- Database migrations (Flyway) run as a Kubernetes Job before the new pods roll out, in both environments
- The pipeline must finish in under 12 minutes for a typical MR
- Secrets come from GitLab CI/CD variables (masked, protected), nothing in the repo

Acceptance criteria:
- [ ] MR pipelines run build, test and quality; main runs every stage
- [ ] A failed deploy posts to #payments-alerts in Slack
- [ ] The old Jenkins job is switched off`,
  requirements: [
    { id: "R1", text: "Gradle build with a cache keyed on the lock files", match: ["cache"] },
    {
      id: "R2",
      text: "Unit and integration tests (Testcontainers with Postgres) in parallel jobs",
      match: ["integration test"],
    },
    { id: "R3", text: "JUnit reports shown in the merge request", match: ["JUnit"] },
    { id: "R4", text: "A lint job", match: ["lint"] },
    { id: "R5", text: "A coverage gate at 80% line coverage on changed files", match: ["coverage"] },
    {
      id: "R6",
      text: "Build the image, tag it with the commit SHA and push it to the registry",
      match: ["registry"],
    },
    { id: "R7", text: "Scan the image, failing on critical CVEs", match: ["CVE"] },
    { id: "R8", text: "Automatic Helm deploy to staging on merge to main", match: ["staging"] },
    {
      id: "R9",
      text: "Manual production deploy, limited to maintainers, only from tags",
      match: ["manual"],
    },
    { id: "R10", text: "Flyway migrations as a Kubernetes Job before the rollout", match: ["Flyway"] },
    { id: "R11", text: "The pipeline finishes in under 12 minutes", match: ["12 minutes"] },
    { id: "R12", text: "Secrets from masked, protected CI/CD variables", match: ["secret"] },
    { id: "R13", text: "MR pipelines run build, test and quality; main runs all", match: ["MR pipeline"] },
    { id: "R14", text: "A failed deploy posts to Slack", match: ["Slack"] },
    { id: "R15", text: "Switch off the old Jenkins job", match: ["Jenkins"] },
  ],
  technologies: [
    "postgresql",
    "flyway",
    "docker",
    "kubernetes",
    "helm",
    "gitlab-ci",
    "jenkins",
    "junit",
    "testcontainers",
    "gradle",
  ],
  non_goals: [],
  not_work: [
    { text: "the narrative about today's setup", match: ["desk"] },
    { text: "the narrative about today's deploys", match: ["laptop"] },
  ],
  sequence: [
    ["R6", "R8", "R9"],
    ["R8", "R15"],
  ],
  separate: [
    ["R4", "R5"],
    ["R6", "R7"],
  ],
  independent: [
    ["R3", "R7"],
    ["R5", "R11"],
    ["R12", "R14"],
  ],
  inspired_by:
    "https://github.com/aurora-platform-engineering/booking-portal/issues/12 (CI workflow story with acceptance criteria) and https://github.com/leonids2005/feature-comprehension-score/issues/17 (CI/CD pipeline issue: stages, caching, time target)",
};
