import type { EvalCase } from "../case";

export const moreBugPaginationDuplicates: EvalCase = {
  id: "more-bug-pagination-duplicates",
  kind: "bug report with a regression-test ask (offset pagination, Django REST framework)",
  work_kind: "bug",
  description: `Transactions list returns some rows on two pages and never returns others

The app's history screen loads a user's transactions 50 at a time from \`GET /api/v1/transactions?limit=50&offset=N\`. Since the bank-statement import went live we get tickets like "a payment is missing from my history" and "the same payment is listed twice" (#5120, #5134, #5141).

### Steps to reproduce
1. Import a statement with 120 transactions for one account (the import gives every row the same \`booked_at\`, the statement date)
2. Request \`offset=0\`, \`offset=50\` and \`offset=100\` with \`limit=50\`
3. Collect the ids from the three pages

### Expected
120 distinct ids.

### Actual
120 rows but only 97 distinct ids, and a different number on every run. The query the view runs:
\`\`\`
SELECT ... FROM ledger_transaction WHERE account_id = 8812 ORDER BY booked_at DESC LIMIT 50 OFFSET 50
\`\`\`
\`booked_at\` isn't unique, so Postgres may return tied rows in any order, and it can differ from one page's query to the next.

### Environment
Django 4.2, Django REST framework 3.14 with LimitOffsetPagination, PostgreSQL 15, Python 3.11.

### Fix requested
- Please write the regression test first, so it fails on main: a pytest test that creates 120 transactions with the same \`booked_at\`, walks every page and asserts each id comes back exactly once.
- Then add \`-id\` as a tie-breaker to the viewset's default ordering, and to every ordering a client can ask for (\`?ordering=amount\` and \`?ordering=payee\` too).
- The statements and payees endpoints use the same pagination: check them and fix them the same way.

Not in this ticket: switching to cursor pagination. We'll talk about that when we plan API v2.`,
  requirements: [
    {
      id: "R1",
      text: "A pytest regression test: 120 transactions with the same booked_at, every id exactly once",
      match: ["regression test"],
    },
    { id: "R2", text: "Add -id as a tie-breaker to the default ordering", match: ["tie"] },
    {
      id: "R3",
      text: "The tie-breaker on every ordering a client can ask for",
      match: ["client", "ordering"],
    },
    {
      id: "R4",
      text: "Check the statements and payees endpoints and fix them the same way",
      match: ["payees"],
    },
  ],
  technologies: ["python", "django", "postgresql", "pytest"],
  non_goals: [{ text: "switching to cursor pagination", match: ["cursor"] }],
  not_work: [
    { text: "the support tickets", match: ["#5120"] },
    { text: "the query the view runs", match: ["account_id"] },
    { text: "the actual result", match: ["97 distinct"] },
    { text: "the environment", match: ["3.14"] },
    { text: "the API v2 planning", match: ["API v2"] },
  ],
  sequence: [["R1", "R2"]],
  independent: [["R3", "R4"]],
  inspired_by:
    "https://github.com/encode/django-rest-framework/issues/6886 (missing and duplicate records with ordering and LimitOffsetPagination) and https://github.com/ohdearquant/khive/issues/1351 (ORDER BY created_at without an id tie-break; regression test over equal-timestamp rows)",
};
