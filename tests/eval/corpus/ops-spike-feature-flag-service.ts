import type { EvalCase } from "../case";

export const opsSpikeFeatureFlagService: EvalCase = {
  id: "ops-spike-feature-flag-service",
  kind: "time-boxed evaluation of options (feature flag service)",
  work_kind: "spike",
  description: `Time-boxed evaluation (1 week): which feature flag service should we use?

We want to decouple deploys from releases: ship code dark, turn it on for internal users, then for 5% / 25% / 100% of customers, and switch it off without a deploy if something goes wrong. Today our flags are environment variables, so every change is a redeploy of the Django API and the React web app.

Options to evaluate:
- LaunchDarkly (SaaS)
- Unleash (self-hosted, open source)
- Flagsmith (SaaS or self-hosted)
- Keep building our own on top of the existing settings table and Redis

Questions each option has to answer:
1. Cost at 40 engineers and ~2M monthly active users, now and at 3x
2. Are there SDKs for Python (Django) and React, and does the React SDK evaluate flags locally or call out on every check?
3. Can we target by account ID, by plan and by internal staff?
4. Data residency: can flag and user data stay in the EU?
5. What happens when the service is down (defaults, cached values)?
6. Is there an audit log of who changed which flag, and SSO with our Okta?

For the two most promising options, build a proof of concept in the API and the web app behind one real flag (the new checkout page) on staging.

Output: a short ADR with a comparison table, the recommendation and the cost estimate. We won't roll anything out to production in this spike.`,
  requirements: [
    { id: "R1", text: "Cost at 40 engineers and ~2M monthly active users, now and at 3x", match: ["cost"] },
    { id: "R2", text: "SDKs for Python (Django) and React; local evaluation or not", match: ["SDK"] },
    { id: "R3", text: "Targeting by account ID, plan and internal staff", match: ["target"] },
    { id: "R4", text: "Data residency in the EU", match: ["residency"] },
    { id: "R5", text: "Behaviour when the service is down", match: ["down"] },
    { id: "R6", text: "An audit log of flag changes", match: ["audit"] },
    { id: "R7", text: "SSO with Okta", match: ["Okta"] },
    { id: "R8", text: "Evaluate LaunchDarkly", match: ["LaunchDarkly"] },
    { id: "R9", text: "Evaluate Unleash", match: ["Unleash"] },
    { id: "R10", text: "Evaluate Flagsmith", match: ["Flagsmith"] },
    {
      id: "R11",
      text: "Evaluate building our own on the settings table and Redis",
      match: ["settings table"],
    },
    {
      id: "R12",
      text: "A proof of concept of the two most promising options behind the checkout page flag on staging",
      match: ["proof of concept"],
    },
    {
      id: "R13",
      text: "A short ADR with a comparison table, the recommendation and the cost estimate",
      match: ["ADR"],
    },
  ],
  technologies: ["python", "react", "django", "redis", "okta", "launchdarkly", "unleash", "flagsmith"],
  non_goals: [{ text: "rolling anything out to production", match: ["roll", "production"] }],
  not_work: [{ text: "today's environment-variable flags", match: ["redeploy"] }],
  not_non_goals: [{ text: "switch it off without a deploy", match: ["deploy"] }],
  sequence: [
    ["R2", "R12", "R13"],
    ["R1", "R13"],
  ],
  separate: [["R6", "R7"]],
  independent: [
    ["R4", "R6"],
    ["R3", "R5"],
    ["R6", "R7"],
  ],
  inspired_by:
    "digitalservicebund/digitalcheck-apps doc/adr/0005-use-feature-flags.md (environment variables vs PostHog vs Unleash ADR) and FrancisPeds/TechSpike-Writeups launchdarkly-integration-journey.md (feature flag proof of concept spike)",
};
