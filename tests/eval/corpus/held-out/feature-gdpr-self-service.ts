import type { EvalCase } from "../../case";

export const hoFeatureGdprSelfService: EvalCase = {
  id: "ho-feature-gdpr-self-service",
  kind: "feature for an existing product with a negative constraint (billing panel)",
  work_kind: "feature",
  description: `Self-service data export and account deletion (GDPR Art. 15 and 17)

Today a customer who wants a copy of their data, or wants to be forgotten, opens a ticket and one of us spends an hour in the database. Let's make both self-service in the client area.

Export
- "Download my data" on the account page: a ZIP of JSON files with the profile, services, invoices (also as the original PDFs), tickets and login history.
- Built by a queued job; we email a signed link that expires after 24 hours.
- At most one export per day per account.

Deletion
- "Delete my account" asks for the password again and a typed confirmation.
- Active services must be cancelled first: show which ones and stop there.
- Personal data is removed: name, email (replaced with deleted-<id>@invalid), addresses, phone numbers, sessions and API keys, and the saved payment methods at the gateways.
- Deleting an account must never delete invoices or payment records. Tax law makes us keep them for ten years, so they stay, linked to the anonymised account.
- Staff see every export and deletion in the admin activity log, without the exported data itself.

Not part of this: reworking the cookie banner, or deleting data held by third-party mail providers.`,
  repository_summary: `billing-panel: Laravel 10 (PHP 8.2) client area and admin for a small hosting company, on MySQL, with queues on Redis; payments through Stripe and PayPal.`,
  requirements: [
    { id: "R1", text: '"Download my data": a ZIP of JSON files', match: ["ZIP"] },
    { id: "R2", text: "Invoices also as the original PDFs in the export", match: ["PDF"] },
    { id: "R3", text: "The export is built by a queued job", match: ["queue"] },
    { id: "R4", text: "An emailed signed link that expires after 24 hours", match: ["signed link"] },
    { id: "R5", text: "At most one export per day per account", match: ["per day"] },
    {
      id: "R6",
      text: "Deletion asks for the password again and a typed confirmation",
      match: ["confirmation"],
    },
    { id: "R7", text: "Active services must be cancelled first", match: ["cancel"] },
    {
      id: "R8",
      text: "Personal data is removed (name, email, addresses, phone numbers)",
      match: ["personal data"],
    },
    { id: "R9", text: "Sessions and API keys are removed", match: ["API key"] },
    { id: "R10", text: "Saved payment methods at the gateways are removed", match: ["payment method"] },
    {
      id: "R11",
      text: "Invoices and payment records are kept, linked to the anonymised account",
      match: ["keep", "invoice"],
    },
    { id: "R12", text: "Every export and deletion in the admin activity log", match: ["activity log"] },
  ],
  technologies: ["laravel", "php", "mysql", "redis", "stripe", "paypal"],
  non_goals: [
    { text: "reworking the cookie banner", match: ["cookie"] },
    { text: "deleting data held by third-party mail providers", match: ["mail provider"] },
  ],
  not_non_goals: [
    { text: "deleting an account must never delete invoices or payment records", match: ["invoice"] },
  ],
  not_work: [{ text: "how requests are handled today", match: ["an hour"] }],
  independent: [
    ["R5", "R7"],
    ["R4", "R6"],
  ],
  inspired_by:
    "https://github.com/Paymenter/Paymenter/issues/659 and https://github.com/cedar2025/Xboard/pull/928 (self-service GDPR export and deletion that keeps financial records)",
};
