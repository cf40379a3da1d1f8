import type { EvalCase } from "../case";

export const invoicingStripe: EvalCase = {
  id: "invoicing-stripe",
  kind: "SaaS with Stripe",
  description: `Invoicing SaaS for freelancers. Create clients, send invoices as PDF by email, track paid/unpaid/overdue, automatic payment reminders, and accept card payments through Stripe (Stripe Checkout, webhooks to mark invoices paid). Recurring invoices for retainers. Subscription plans for our own billing: Free (5 invoices/month), Pro $12/mo, also via Stripe Billing. Multi-tenant, each freelancer sees only their data.

Stack: React + Node/Express + Postgres.

Out of scope for v1: multi-currency, tax/VAT calculation, accounting integrations (QuickBooks, Xero).`,
  requirements: [
    { id: "R1", text: "Create clients", match: ["client"] },
    { id: "R2", text: "Invoices as PDF", match: ["PDF"] },
    { id: "R3", text: "Send invoices by email", match: ["email"] },
    { id: "R4", text: "Track paid, unpaid and overdue invoices", match: ["overdue"] },
    { id: "R5", text: "Automatic payment reminders", match: ["reminder"] },
    { id: "R6", text: "Card payments through Stripe Checkout", match: ["Stripe Checkout"] },
    { id: "R7", text: "Webhooks mark invoices paid", match: ["webhook"] },
    { id: "R8", text: "Recurring invoices for retainers", match: ["recurring"] },
    { id: "R9", text: "Subscription plans (Free, Pro) via Stripe Billing", match: ["subscription"] },
    { id: "R10", text: "Multi-tenant: each freelancer sees only their data", match: ["tenant"] },
  ],
  technologies: ["stripe", "react", "nodejs", "express", "postgresql"],
  non_goals: [
    { text: "multi-currency", match: ["multi currency"] },
    { text: "tax/VAT calculation", match: ["VAT"] },
    { text: "accounting integrations (QuickBooks)", match: ["QuickBooks"] },
    { text: "accounting integrations (Xero)", match: ["Xero"] },
  ],
};
