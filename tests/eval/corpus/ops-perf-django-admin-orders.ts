import type { EvalCase } from "../case";

export const opsPerfDjangoAdminOrders: EvalCase = {
  id: "ops-perf-django-admin-orders",
  kind: "performance issue (slow Django admin page)",
  work_kind: "performance",
  description: `Orders admin changelist takes 14 s to load (and times out with a filter)

Since we passed ~3M orders the Django admin orders page has become unusable for the support team. Measurements on staging (a copy of prod data, with django-debug-toolbar):

| Page | Time | SQL queries |
|---|---|---|
| /admin/shop/order/ | 14.2 s | 212 |
| /admin/shop/order/?status=refunded | 31 s (request timeout at 30 s) | 214 |
| /admin/shop/order/?q=smith | 9.8 s | 211 |

What I found so far:

1. **N+1 queries**: \`list_display\` includes \`customer_email\` and \`shipping_city\`, which load \`order.customer\` and \`order.shipping_address\` for every row: 100 rows means 200 extra queries. Needs \`list_select_related\`.
2. **COUNT(*) on the whole table**: the paginator counts all 3M rows on every page load (~6 s on its own). Use an estimated count, or turn off \`show_full_result_count\`.
3. **Missing index**: the status filter and the default ordering by \`-created_at\` do a sequential scan. We need a composite index on (status, created_at), created concurrently so the table isn't locked.
4. **Search**: \`search_fields = ["customer__email", "notes"]\` runs \`ILIKE '%smith%'\` on notes, a free-text column. Search on email only (exact or prefix match) and drop notes from the search.

Target: the changelist loads in under 1 s at p95, with and without the status filter.

EXPLAIN of the filtered page, for reference:
\`\`\`
Limit  (cost=0.00..18234.55 rows=100 width=412)
  ->  Seq Scan on shop_order  (cost=0.00..547036.00 rows=3000 width=412)
        Filter: ((status)::text = 'refunded'::text)
\`\`\`

Postgres 15 on RDS, Django 4.2, Python 3.11.`,
  requirements: [
    { id: "R1", text: "Fix the N+1 queries with list_select_related", match: ["N+1"] },
    {
      id: "R2",
      text: "Stop counting the whole table on every page load (estimated count)",
      match: ["count"],
    },
    {
      id: "R3",
      text: "A composite index on (status, created_at), created concurrently",
      match: ["index"],
    },
    { id: "R4", text: "Search on email only and drop notes from the search", match: ["search"] },
    { id: "R5", text: "The changelist loads in under 1 s at p95", match: ["p95"] },
  ],
  technologies: ["python", "django", "postgresql", "rds"],
  non_goals: [],
  not_work: [
    { text: "the measurement table", match: ["9.8 s"] },
    { text: "the EXPLAIN output", match: ["18234"] },
    { text: "the EXPLAIN output", match: ["width=412"] },
  ],
  independent: [
    ["R1", "R3"],
    ["R2", "R4"],
  ],
  inspired_by:
    "https://github.com/mozilla/addons-server/issues/20248 (admin changelist times out on COUNT(*)), https://github.com/PostHog/posthog/pull/20862 (show_full_result_count) and https://github.com/dandi/dandi-archive/pull/658 (N+1 on an admin list page)",
};
