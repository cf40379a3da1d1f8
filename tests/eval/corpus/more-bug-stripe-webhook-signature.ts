import type { EvalCase } from "../case";

export const moreBugStripeWebhookSignature: EvalCase = {
  id: "more-bug-stripe-webhook-signature",
  kind: "bug report (Stripe webhook signature, Express)",
  work_kind: "bug",
  description: `Stripe webhooks fail signature verification since v2.14.0: paid subscriptions stay incomplete

Since Tuesday's release every webhook Stripe sends to \`POST /webhooks/stripe\` gets a 400. Customers pay, but their subscription is never activated on our side, so they lose access after the trial. Support has 23 tickets so far.

**Steps to reproduce**
1. \`stripe listen --forward-to localhost:3000/webhooks/stripe\`
2. \`stripe trigger invoice.paid\`
3. Watch the server log

**Expected**
The endpoint answers 200 and the subscription becomes active.

**Actual**
The endpoint answers 400 and nothing is updated:
\`\`\`
[webhooks] signature verification failed: StripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?
    at validateComputedSignature (node_modules/stripe/cjs/Webhooks.js:149:19)
POST /webhooks/stripe 400 3.112 ms - 41
\`\`\`

**Environment**
- Node 20.11, stripe-node 14.21
- Our Express app, behind the usual load balancer
- The signing secret hasn't changed (checked against the dashboard)

**Cause**
PR #812 moved \`app.use(express.json())\` above the router, so the webhook handler gets a parsed object instead of the raw body, and the signature can't match.

**What we need**
- Give the webhook route the raw body (\`express.raw({ type: "application/json" })\`) before the JSON parser runs, and only on that route.
- Once the fix is deployed, replay every event that failed since Tuesday (Stripe keeps them for 30 days), then check that no paid subscription is still incomplete.
- An alert in Sentry when more than 5 webhook deliveries fail within 10 minutes, so we don't hear about it from customers next time.`,
  requirements: [
    { id: "R1", text: "Give the webhook route the raw body, only on that route", match: ["raw"] },
    { id: "R2", text: "Replay every event that failed since Tuesday", match: ["replay"] },
    { id: "R3", text: "Check that no paid subscription is still incomplete", match: ["incomplete"] },
    {
      id: "R4",
      text: "An alert in Sentry when more than 5 deliveries fail within 10 minutes",
      match: ["alert"],
    },
  ],
  technologies: ["nodejs", "express", "stripe", "sentry"],
  non_goals: [],
  not_work: [
    { text: "the support tickets", match: ["23 tickets"] },
    { text: "the reproduction commands", match: ["stripe trigger"] },
    { text: "the log", match: ["validateComputedSignature"] },
    { text: "the environment", match: ["stripe-node 14"] },
    { text: "the signing secret was checked", match: ["hasn't changed"] },
    { text: "the cause: PR #812", match: ["#812"] },
  ],
  sequence: [["R1", "R2", "R3"]],
  independent: [
    ["R1", "R4"],
    ["R3", "R4"],
  ],
  inspired_by:
    "https://github.com/stripe/stripe-node/issues/1254 (signature verification fails because express.json() parsed the body first; express.raw on the webhook route) and https://github.com/akash-network/console/issues/1693 (the same error in production, caught by alerting)",
};
