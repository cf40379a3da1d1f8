import type { EvalCase } from "../case";

export const opsBugCeleryDuplicateReminders: EvalCase = {
  id: "ops-bug-celery-duplicate-reminders",
  kind: "bug report (Celery task run twice)",
  work_kind: "bug",
  description: `**Invoice reminder emails are sent twice (sometimes 3x) after every deploy**

We send invoice reminders from a Celery task (\`billing.tasks.send_invoice_reminder\`). Since we turned on \`task_acks_late = True\` last month, customers regularly get the same reminder two or three times, always around a deploy.

### Steps to reproduce
1. Start a worker: \`celery -A billing worker -c 4\`
2. Queue ~200 reminders: \`for inv in overdue: send_invoice_reminder.delay(inv.id)\`
3. While the batch is running, send SIGTERM to the worker (that's what our deploy does) and start a new one
4. Count the rows per invoice in the \`sent_emails\` table

### Expected behavior
Each reminder is sent exactly once. A task interrupted by a restart may run again, but the customer must not get a second email.

### Actual behavior
Between 5 and 30 reminders go out twice. The logs show the same task id received twice:

\`\`\`
[2024-03-12 09:14:02,118: INFO/MainProcess] Task billing.tasks.send_invoice_reminder[8c1f0b2e-5d0a-4c1e-9f3b-2a7d61e0c4aa] received
[2024-03-12 09:14:03,502: INFO/ForkPoolWorker-3] Task billing.tasks.send_invoice_reminder[8c1f0b2e-5d0a-4c1e-9f3b-2a7d61e0c4aa] succeeded in 1.38s: None
[2024-03-12 10:14:05,977: INFO/MainProcess] Task billing.tasks.send_invoice_reminder[8c1f0b2e-5d0a-4c1e-9f3b-2a7d61e0c4aa] received
\`\`\`

The second delivery comes exactly one hour later, which looks like the Redis \`visibility_timeout\` default.

### Environment
- Celery 5.3.4, kombu 5.3.4, redis-py 5.0.1
- Redis 7.2 as broker and result backend
- Django 4.2, Python 3.11
- Workers run on Kubernetes, about 6 deploys a day

### Additional context
Please make the reminder task idempotent (record the invoice id and reminder number before sending, and skip if they are already there) and set \`visibility_timeout\` above our longest task. We'd also like a regression test that runs the task twice for the same invoice and asserts a single email.

Workaround for now: we pause the beat schedule during deploys.`,
  requirements: [
    { id: "R1", text: "Make the reminder task idempotent", match: ["idempotent"] },
    { id: "R2", text: "Set visibility_timeout above the longest task", match: ["visibility"] },
    {
      id: "R3",
      text: "A regression test that runs the task twice and asserts a single email",
      match: ["regression test"],
    },
  ],
  technologies: ["python", "django", "redis", "kubernetes", "celery"],
  non_goals: [],
  not_work: [
    { text: "the worker log lines", match: ["ForkPoolWorker"] },
    { text: "the environment (library versions)", match: ["redis-py"] },
    { text: "the current workaround", match: ["pause", "beat"] },
  ],
  separate: [["R1", "R2"]],
  independent: [
    ["R1", "R2"],
    ["R2", "R3"],
  ],
  inspired_by:
    "https://github.com/celery/celery/issues/4426 (task executed twice when the worker restarts) and https://github.com/learningequality/studio/issues/3395 (duplicates an hour apart from the Redis visibility_timeout)",
};
