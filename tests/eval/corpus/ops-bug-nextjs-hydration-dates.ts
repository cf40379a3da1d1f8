import type { EvalCase } from "../case";

export const opsBugNextjsHydrationDates: EvalCase = {
  id: "ops-bug-nextjs-hydration-dates",
  kind: "bug report (Next.js hydration mismatch)",
  work_kind: "bug",
  description: `Hydration error on /orders: dates rendered differently on server and client

**Describe the bug**
Since we moved the order history page to the Next.js App Router, every visit to /orders logs a hydration error for customers outside UTC, the page flashes, and the whole list re-renders on the client. The "Placed on" column first shows the server's (UTC) time and then jumps to the local one, and for orders placed near midnight it even shows the wrong day.

**To Reproduce**
1. Set your OS timezone to America/Los_Angeles (anything but UTC)
2. \`npm run build && npm start\`
3. Sign in as demo@shop.test and open http://localhost:3000/orders
4. Open the console

**Expected behavior**
The server HTML and the first client render match, and dates show in the customer's timezone without flicker.

**Actual behavior**
\`\`\`
Warning: Text content did not match. Server: "3/14/2024, 11:42:10 PM" Client: "3/14/2024, 4:42:10 PM"
Error: Hydration failed because the initial UI does not match what was rendered on the server.
    at throwOnHydrationMismatch (react-dom.development.js:12507:9)
    at OrderRow (./app/orders/OrderRow.tsx:21:14)
\`\`\`

**Environment**
- next: 14.1.0, react: 18.2.0
- Node 20.11 locally, Vercel in production
- Chrome 122, Firefox 123

**Additional context**
\`OrderRow\` calls \`new Date(order.placedAt).toLocaleString()\` during render. Please fix the date formatting so server and client agree: we store each customer's timezone on their profile, so the server can format with it. The same pattern is in the invoice PDF header and in the "Last login" badge in the account menu; fix those too. Please don't just add suppressHydrationWarning, that would hide the wrong-day bug.`,
  requirements: [
    {
      id: "R1",
      text: "Format order dates with the customer's timezone so server and client agree",
      match: ["timezone"],
    },
    { id: "R2", text: "Fix the same pattern in the invoice PDF header", match: ["invoice"] },
    { id: "R3", text: "Fix the same pattern in the Last login badge", match: ["last login"] },
  ],
  technologies: ["nodejs", "nextjs", "vercel", "npm"],
  non_goals: [
    {
      text: "silencing the mismatch with suppressHydrationWarning",
      match: ["suppressHydrationWarning"],
    },
  ],
  not_work: [
    { text: "the reproduction step that changes the OS timezone", match: ["Los_Angeles"] },
    { text: "the stack trace", match: ["throwOnHydrationMismatch"] },
    { text: "the environment (browsers)", match: ["Firefox"] },
    { text: "the demo account of the reproduction", match: ["demo@shop"] },
  ],
  separate: [["R2", "R3"]],
  independent: [["R2", "R3"]],
  inspired_by:
    "https://github.com/seed-hypermedia/seed/issues/206 (hydration mismatch from UTC vs local dates) and https://github.com/vercel/next.js/issues/51393 (toLocaleTimeString hydration error)",
};
