import type { EvalCase } from "../case";

export const newPrdReturnsPortal: EvalCase = {
  id: "new-prd-returns-portal",
  kind: "PRD with a flow diagram and numbered steps (e-commerce)",
  work_kind: "product",
  description: `# Self-service returns portal — requirements

Figma: https://www.figma.com/file/returns-portal-v3

## Context
Returns are handled by e-mail today: the customer writes to support, an agent looks the order up in the admin, e-mails a PDF label and later refunds by hand. That is about 6 agent-minutes per return, for roughly 1,100 returns a month.

## Return flow

\`\`\`
Customer             Portal                Warehouse          Finance
────────             ──────                ─────────          ───────
order # + e-mail ──▶ check eligibility
                     pick items + reason
                     approve / refuse ───▶ expect parcel
                     prepaid label
                                           receive + inspect ──▶ refund or
                                                                 store credit
\`\`\`

1. The customer finds the order with the order number and e-mail address (no account needed).
2. They pick the items and a reason from a fixed list.
3. Eligibility rules decide: within the return window, not a final-sale item, not worn. Eligible returns are approved automatically; the others go to an agent's queue.
4. Approved returns get a prepaid shipping label from our carrier (a PDF, and a QR code for drop-off points).
5. The warehouse scans the parcel, inspects each item and marks it OK or damaged.
6. Refund to the original payment method through Stripe, or store credit with a 10% bonus if the customer chose that.

Every status change sends the customer an e-mail.

## Rules per category
| Category | Window | Restocking fee |
| --- | --- | --- |
| Apparel | 30 days | none |
| Shoes | 30 days | none |
| Electronics | 14 days | 10% |
| Final sale | — | not returnable |

## Reporting
A weekly report of the return rate and the top reasons per product, so the buying team can spot bad products early.

## v2 (not now)
- Exchanges for a different size.
- Returns in our physical stores.`,
  requirements: [
    {
      id: "R1",
      text: "Find the order with the order number and e-mail address, no account",
      match: ["order number"],
    },
    { id: "R2", text: "Pick the items and a reason from a fixed list", match: ["items", "reason"] },
    { id: "R3", text: "Eligibility rules (return window, final sale, not worn)", match: ["eligibility"] },
    {
      id: "R4",
      text: "Eligible returns approved automatically; others go to an agent's queue",
      match: ["queue"],
    },
    { id: "R5", text: "A prepaid shipping label from the carrier (PDF and QR code)", match: ["label"] },
    { id: "R6", text: "The warehouse scans the parcel and inspects each item", match: ["inspect"] },
    { id: "R7", text: "Refund to the original payment method through Stripe", match: ["Stripe"] },
    { id: "R8", text: "Store credit with a 10% bonus", match: ["store credit"] },
    { id: "R9", text: "An e-mail to the customer on every status change", match: ["status change"] },
    { id: "R10", text: "Return window and restocking fee per category", match: ["restocking"] },
    {
      id: "R11",
      text: "A weekly report of the return rate and top reasons per product",
      match: ["return rate"],
    },
  ],
  technologies: ["stripe"],
  non_goals: [
    { text: "exchanges for a different size", match: ["exchange"] },
    { text: "returns in physical stores", match: ["physical store"] },
  ],
  not_work: [
    { text: "the Figma link", match: ["figma"] },
    { text: "the context: agent-minutes per return", match: ["agent-minutes"] },
    { text: "the context: returns a month", match: ["1,100"] },
    { text: "the flow diagram's lanes", match: ["expect parcel"] },
  ],
  separate: [["R7", "R8"]],
  sequence: [["R1", "R2", "R3", "R4", "R5", "R6", "R7"]],
  independent: [
    ["R5", "R11"],
    ["R9", "R11"],
  ],
  inspired_by:
    "https://www.revindex.com/Resources/Knowledge-Base/Revindex-Storefront/merchant-processes-rma-return (RMA request, authorise, receive, refund or credit) and https://support.returngo.ai/return-policy (return portal policy rules, refund methods)",
};
