import type { EvalCase } from "../case";

export const opsMigRails7Upgrade: EvalCase = {
  id: "ops-mig-rails-7-upgrade",
  kind: "framework upgrade with ordered steps (Rails 6.1 to 7.0)",
  work_kind: "migration",
  description: `Upgrade the storefront from Rails 6.1 to Rails 7.0

Rails 6.1 is out of security support, and two gems we depend on (devise, ransack) have dropped it in their latest releases. The app is ~180k lines on Ruby 3.0, with Sidekiq for background jobs and an RSpec suite of ~9,000 examples (87% coverage).

Plan, in this order, each step merged and deployed on its own:
1. Upgrade Ruby from 3.0 to 3.2 while still on Rails 6.1, and get the suite green.
2. Fix every deprecation warning the suite prints on Rails 6.1 (~140 unique ones), then make deprecations raise in the test environment so no new ones sneak in.
3. Switch the autoloader from classic to Zeitwerk and fix the file and constant names it complains about (\`bin/rails zeitwerk:check\`).
4. Bump the gems that block Rails 7 (devise, ransack, paper_trail, sidekiq 6 → 7) while still on 6.1.
5. Update Rails to 7.0, run \`bin/rails app:update\` and review the config diff by hand.
6. Turn on the new framework defaults one at a time in new_framework_defaults_7_0.rb, then switch to \`config.load_defaults 7.0\`.
7. Deploy to staging for a week of QA, then to production as a canary (10% of web pods for a day) before the full rollout.

Done when production runs Rails 7.0 with load_defaults 7.0, the test log has no deprecation warnings, and the 5xx rate and p95 latency don't rise after the canary.

Not part of this: moving from Webpacker to importmaps or jsbundling (separate project), and Rails 7.1.`,
  requirements: [
    { id: "R1", text: "Upgrade Ruby from 3.0 to 3.2 on Rails 6.1", match: ["Ruby", "3.2"] },
    { id: "R2", text: "Fix every deprecation warning on Rails 6.1", match: ["deprecation"] },
    { id: "R3", text: "Make deprecations raise in the test environment", match: ["raise"] },
    { id: "R4", text: "Switch the autoloader from classic to Zeitwerk", match: ["Zeitwerk"] },
    { id: "R5", text: "Bump the gems that block Rails 7", match: ["gem"] },
    { id: "R6", text: "Update Rails to 7.0 and run app:update", match: ["app:update"] },
    {
      id: "R7",
      text: "Turn on the new framework defaults one at a time, then load_defaults 7.0",
      match: ["framework defaults"],
    },
    { id: "R8", text: "A week of QA on staging", match: ["staging"] },
    { id: "R9", text: "A production canary on 10% of web pods for a day", match: ["canary"] },
  ],
  technologies: ["ruby", "rails", "rspec", "sidekiq"],
  non_goals: [
    { text: "moving from Webpacker to importmaps or jsbundling", match: ["importmap"] },
    { text: "Rails 7.1", match: ["Rails 7.1"] },
  ],
  not_work: [
    { text: "the rationale", match: ["security support"] },
    { text: "the size of the app", match: ["87%"] },
    { text: "the size of the app", match: ["180k"] },
  ],
  sequence: [["R1", "R2", "R4", "R5", "R6", "R7", "R8", "R9"]],
  inspired_by:
    "https://thoughtbot.com/blog/upgrade-rails-6-to-rails-7 and https://jaspreetgarcha.com/blog/2026-01-26-rails-upgrade-phase-6-rails-6-1-to-7-0 (Rails 6.1 to 7.0 upgrade write-ups with ordered steps)",
};
