import type { EvalCase } from "../case";

export const newFeatureWebhooks: EvalCase = {
  id: "new-feature-webhooks",
  kind: "feature for an existing product, with acceptance criteria (SaaS API)",
  work_kind: "feature",
  description: `Add outgoing webhooks to our existing task-tracker API

Customers keep polling \`GET /tasks\` every few seconds to find out what changed, which is about 40% of our API traffic. We want to push events to them instead.

Scope:
- Workspace admins create, edit and disable webhook endpoints on the settings page, and pick which events they want (task.created, task.updated, task.completed, comment.added).
- Each delivery is signed with HMAC-SHA256 using a per-endpoint secret, with a timestamp header so receivers can reject replays.
- Failed deliveries are retried with exponential backoff for up to 24 hours; after that the endpoint is disabled and the admin gets an email.
- A delivery log per endpoint (last 30 days) with status code, response time and a "redeliver" button.
- A docs page with signature verification examples in Node.js and Python.

Constraints: deliveries go out from the existing Sidekiq workers, never from the request thread. No webhook secrets in logs or in version control.

Acceptance criteria:
- [ ] Creating a task triggers a signed POST to every subscribed endpoint within 5 seconds.
- [ ] A receiver that returns 500 gets retried, and each attempt shows up in the delivery log.
- [ ] Disabling an endpoint stops its deliveries immediately.`,
  repository_summary: `acme/tasktrack: a Rails 7 API and a React dashboard on PostgreSQL, background jobs in Sidekiq with Redis, deployed with Docker on AWS.`,
  requirements: [
    {
      id: "R1",
      text: "Admins create, edit and disable webhook endpoints on the settings page",
      match: ["endpoint", "settings"],
    },
    { id: "R2", text: "Admins pick which events an endpoint is subscribed to", match: ["subscri"] },
    { id: "R3", text: "Each delivery is signed with HMAC-SHA256 and a per-endpoint secret", match: ["HMAC"] },
    { id: "R4", text: "A timestamp header so receivers can reject replays", match: ["replay"] },
    {
      id: "R5",
      text: "Failed deliveries are retried with exponential backoff for up to 24 hours",
      match: ["backoff"],
    },
    { id: "R6", text: "After that the endpoint is disabled and the admin gets an email", match: ["email"] },
    { id: "R7", text: "A delivery log per endpoint for the last 30 days", match: ["delivery log"] },
    { id: "R8", text: "A redeliver button", match: ["redeliver"] },
    {
      id: "R9",
      text: "A docs page with signature verification examples in Node.js and Python",
      match: ["docs"],
    },
    { id: "R10", text: "Deliveries go out from the existing Sidekiq workers", match: ["Sidekiq"] },
  ],
  technologies: ["rails", "react", "postgresql", "sidekiq", "redis", "docker", "aws", "nodejs", "python"],
  non_goals: [],
  not_work: [
    { text: "the rationale: polling is 40% of API traffic", match: ["API traffic"] },
    { text: "the rationale: customers poll GET /tasks", match: ["every few seconds"] },
  ],
  not_non_goals: [
    { text: "No webhook secrets in logs or in version control", match: ["secret", "log"] },
    { text: "never from the request thread", match: ["request thread"] },
  ],
  separate: [["R5", "R6"]],
  sequence: [["R5", "R6"]],
  independent: [
    ["R3", "R5"],
    ["R7", "R9"],
  ],
  inspired_by:
    "GitHub issue DevGuyRash/ModuPrompt#25 'Outgoing webhooks v1: subscriptions + delivery logs + HMAC signing + retries' and pwalvarado/chazchat-web#70 'Webhooks configurables' (signing secret, automatic retries, delivery log)",
};
