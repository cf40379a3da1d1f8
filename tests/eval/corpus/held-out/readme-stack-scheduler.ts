import type { EvalCase } from "../../case";

export const hoReadmeStackScheduler: EvalCase = {
  id: "ho-readme-stack-scheduler",
  kind: "README with a status checklist and a code fence (self-hosted devtool)",
  work_kind: "product",
  description: `# stacknap

Put the Docker Compose stacks on your home server to sleep at night and wake them up in the morning. One small Go binary with a web UI.

https://github.com/stacknap/stacknap

## Quick start

\`\`\`sh
docker run -d --name stacknap \\
  -v /var/run/docker.sock:/var/run/docker.sock \\
  -v stacknap-data:/data -p 8080:8080 \\
  ghcr.io/stacknap/stacknap:edge
\`\`\`

Then open http://localhost:8080 and log in as \`admin\` with the password printed in the container log.

## How it works

stacknap groups containers into stacks by their \`com.docker.compose.project\` label and starts or stops the whole stack, never single containers.

## Status

- [x] Go HTTP server with a \`/healthz\` endpoint
- [x] Config from environment variables and an optional YAML file
- [x] Graceful shutdown on SIGTERM
- [ ] Connect to the Docker socket and group running containers by compose project
- [ ] Stack status: running, stopped or partial
- [ ] Cron-style schedules to start and stop a stack, stored in SQLite
- [ ] A "run now" button to test a schedule
- [ ] Login with bcrypt-hashed passwords; roles admin / operator / viewer
- [ ] Audit log of who started or stopped what, and of every scheduled run
- [ ] Web UI: stack list, stack detail, schedule form
- [ ] Single static binary and a minimal Dockerfile

## Future enhancements

- Start stacks in dependency order (database before app)
- Pause/unpause instead of stop
- Notifications when a scheduled run fails

## License

MIT`,
  requirements: [
    { id: "R1", text: "Connect to the Docker socket", match: ["socket"] },
    { id: "R2", text: "Group running containers by compose project", match: ["compose project"] },
    { id: "R3", text: "Stack status: running, stopped or partial", match: ["partial"] },
    { id: "R4", text: "Cron-style schedules to start and stop a stack", match: ["cron"] },
    { id: "R5", text: "Schedules stored in SQLite", match: ["SQLite"] },
    { id: "R6", text: 'A "run now" button to test a schedule', match: ["run now"] },
    { id: "R7", text: "Login with bcrypt-hashed passwords", match: ["login"] },
    { id: "R8", text: "Roles admin / operator / viewer", match: ["role"] },
    { id: "R9", text: "An audit log of starts, stops and scheduled runs", match: ["audit"] },
    { id: "R10", text: "Web UI: stack list, stack detail, schedule form", match: ["web UI"] },
    { id: "R11", text: "A single static binary", match: ["static binary"] },
    { id: "R12", text: "A minimal Dockerfile", match: ["Dockerfile"] },
  ],
  technologies: ["go", "docker", "sqlite"],
  non_goals: [
    { text: "starting stacks in dependency order", match: ["dependency order"] },
    { text: "pause/unpause instead of stop", match: ["pause"] },
    { text: "notifications when a scheduled run fails", match: ["notification"] },
  ],
  not_work: [
    { text: "the repository URL line", match: ["github.com"] },
    { text: "the quick start section", match: ["quick start"] },
    { text: "opening localhost", match: ["localhost"] },
    { text: "done: the /healthz endpoint", match: ["healthz"] },
    { text: "done: config from environment variables and YAML", match: ["YAML"] },
    { text: "done: graceful shutdown", match: ["graceful"] },
    { text: "the license section", match: ["license"] },
  ],
  separate: [
    ["R7", "R9"],
    ["R4", "R6"],
  ],
  independent: [
    ["R3", "R6"],
    ["R9", "R11"],
  ],
  inspired_by:
    "https://github.com/anil3a/docker-stack-scheduler (ROADMAP.md checklist of a Docker Compose stack scheduler in Go)",
};
