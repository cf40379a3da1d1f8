import { describe, expect, it } from "vitest";
import { extractScope } from "./requirements";

const texts = (s: { requirements: { text: string }[] }) => s.requirements.map((r) => r.text);

describe("reading what a description states", () => {
  it("takes bullets, numbered items and sentences as requirements, in order, none capped", () => {
    const items = Array.from({ length: 30 }, (_, i) => `- Feature number ${i + 1} works for every user`).join(
      "\n",
    );
    const scope = extractScope(`Users can sign in.\nUsers can invite a team.\n${items}\n1) Export to CSV`);
    expect(scope.requirements).toHaveLength(33);
    expect(scope.requirements[0]).toMatchObject({ id: "R1", text: "Users can sign in" });
    expect(scope.requirements.at(-1)).toMatchObject({ id: "R33", text: "Export to CSV" });
  });

  it("reads every common list marker, and strips checkboxes, counting [x] items as done", () => {
    const scope = extractScope(
      [
        "Features:",
        "• Dark mode",
        "– Offline mode",
        "3- Export to PDF",
        "(a) Tags per note",
        "ii) Full-text search",
        "✅ Sign-in with e-mail",
        "- [x] Project scaffold",
        "- [ ] Share a note by link",
        "🎲 Dice rolls",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Dark mode",
      "Offline mode",
      "Export to PDF",
      "Tags per note",
      "Full-text search",
      "Share a note by link",
      "Dice rolls",
    ]);
    expect(scope.done).toEqual(["Sign-in with e-mail", "Project scaffold"]);
  });

  it("takes a short first line or a # title as the title, not as R1", () => {
    expect(extractScope("# Neighborhood Tool Library\n\nNeighbours lend tools to each other.").title).toBe(
      "Neighborhood Tool Library",
    );
    const scope = extractScope(
      "Neighborhood Tool Library\n\n- Members list the tools they lend\n- Members book a tool",
    );
    expect(scope.title).toBe("Neighborhood Tool Library");
    expect(texts(scope)).toEqual(["Members list the tools they lend", "Members book a tool"]);
  });

  it("sets aside code, tables, drawings, links and headings without a colon", () => {
    const scope = extractScope(
      [
        "What it does",
        "- Users upload receipts",
        "",
        "```js",
        "const total = receipts.reduce(sum);",
        "```",
        "| Page | Time |",
        "|---|---|",
        "| /receipts | 4.2 s |",
        "┌──────────┐",
        "│  Upload  │",
        "└──────────┘",
        "Source code at https://github.com/example/receipts",
        "https://example.com/design",
        "- Receipts are totalled per month",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Users upload receipts", "Receipts are totalled per month"]);
    // A table of words under a heading of work specifies that thing, as one requirement.
    const controls = extractScope(
      "# Ironhold\n\n## Controls\n| Input | Action |\n|---|---|\n| Space | end turn |\n| Esc | pause |",
    );
    expect(texts(controls)).toEqual(["Controls (Input, Action): Space – end turn; Esc – pause"]);
  });

  it("keeps prose that is not work out of the requirements: questions, narrative, rationale, remarks", () => {
    const scope = extractScope(
      [
        "Setlists for my band",
        "",
        "I play bass in a wedding band and we lose our setlists every week. Is it overengineered? Absolutely.",
        "That's much too long, honestly. Last month the singer reordered everything on the day.",
        "The app shows the setlist on every phone, and it updates live when the order changes.",
        "Our drummer says she'll wait with her review. Thanks!",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "The app shows the setlist on every phone",
      "it updates live when the order changes",
    ]);
    expect(scope.questions).toEqual(["Is it overengineered?"]);
  });

  it("under a title, a list's first item that names a page or a site is one of the list, not the subject", () => {
    const scope = extractScope(
      [
        "A book club site",
        "- A public landing page that explains the club",
        "- Members sign up with e-mail",
        "- Members propose books and vote on the next one",
        "- Organisers schedule meetings on a calendar",
      ].join("\n"),
    );
    expect(scope.title).toBe("A book club site");
    expect(scope.subject).toBeNull();
    expect(texts(scope)[0]).toBe("A public landing page that explains the club");
    expect(texts(scope)).toHaveLength(4);
  });

  it("splits a list inside a sentence into one requirement per item, keeping each item's own words", () => {
    const shop = extractScope(
      "A web shop for handmade candles: catalogue, cart, checkout with Stripe, order history, admin panel for stock",
    );
    expect(shop.subject).toBe("A web shop for handmade candles");
    expect(texts(shop)).toEqual([
      "catalogue",
      "cart",
      "checkout with Stripe",
      "order history",
      "admin panel for stock",
    ]);
    const bot = extractScope(
      "A Discord bot with moderation, fun, utility, leveling, welcome messages, and auto-moderation",
    );
    expect(texts(bot)).toEqual([
      "moderation",
      "fun",
      "utility",
      "leveling",
      "welcome messages",
      "auto-moderation",
    ]);
    const verbs = extractScope(
      "Users sign up with email or Google, create recipes with ingredients, steps and photos, and browse other people's recipes.",
    );
    expect(texts(verbs)).toEqual([
      "Users sign up with email or Google",
      "Users create recipes with ingredients, steps and photos",
      "Users browse other people's recipes",
    ]);
    // A list closed by its "and", then one more part after "with" or "plus".
    expect(
      texts(
        extractScope(
          "A booking app for a barber shop with online booking, SMS reminders and a waitlist, with Google Calendar sync",
        ),
      ),
    ).toEqual(["online booking", "SMS reminders", "a waitlist", "Google Calendar sync"]);
    expect(
      texts(
        extractScope(
          "A SaaS invoicing tool for freelancers with clients, recurring invoices and PDF generation, plus an accountant read-only role",
        ),
      ),
    ).toEqual(["clients", "recurring invoices", "PDF generation", "an accountant read-only role"]);
    // A list of what one form edits, or of values of one thing, is one requirement.
    expect(texts(extractScope("Edit habit name, frequency, and category."))).toEqual([
      "Edit habit name, frequency, and category",
    ]);
    expect(texts(extractScope("Three environments: dev, staging, prod"))).toEqual([
      "Three environments: dev, staging, prod",
    ]);
  });

  it("reads scope both ways: Out, Future enhancements, Stretch, (v2) and deferrals are non-goals; rules are not", () => {
    const scope = extractScope(
      [
        "## Scope",
        "- Chat rooms",
        "- Video calls are out of scope",
        "- Message reactions (v2)",
        "- No secrets in version control",
        "- Error monitoring after launch",
        "",
        "Speaker labels would be great, but that's for later. export to pdf later maybe. no db needed",
        "",
        "Out: payments, native apps",
        "",
        "## Future enhancements",
        "- Dark mode",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Chat rooms", "Error monitoring after launch"]);
    expect(scope.nonGoals).toEqual([
      "Video calls are out of scope",
      "Message reactions (v2)",
      "Speaker labels would be great",
      "export to pdf later maybe",
      "no db needed",
      "payments",
      "native apps",
      "Dark mode",
    ]);
    expect(scope.constraints).toEqual(["No secrets in version control"]);
  });

  it("reads a bug report: its asks are work, its steps, observations and expectations are not", () => {
    const scope = extractScope(
      [
        "Export crashes on files over 2 GB",
        "",
        "### Steps to reproduce",
        "1. Open a project with a 3 GB file",
        "2. Click Export",
        "",
        "### Expected behavior",
        "The export downloads.",
        "",
        "### Actual behavior",
        "The tab crashes with Out of memory.",
        "",
        "Please stream the file instead of buffering it, and add a regression test with a 3 GB file.",
      ].join("\n"),
    );
    expect(scope.title).toBe("Export crashes on files over 2 GB");
    expect(texts(scope)).toEqual([
      "Please stream the file instead of buffering it",
      "add a regression test with a 3 GB file",
    ]);
    expect(scope.reproduction).toEqual(["Open a project with a 3 GB file", "Click Export"]);
    expect(scope.criteria).toEqual(["The export downloads"]);
    expect(scope.observed).toContain("The tab crashes with Out of memory");
  });

  it("keeps stated order: numbered steps said to be in order, and chains written with then", () => {
    const upgrade = extractScope(
      "Plan (in this order):\n1. Upgrade Ruby to 3.2\n2. Fix the deprecation warnings\n3. Bump Rails to 7.0",
    );
    expect(upgrade.sequences).toEqual([["R1", "R2", "R3"]]);
    const features = extractScope(
      "What we need:\n1. Users turn on 2FA in settings\n2. Users get recovery codes",
    );
    expect(features.sequences).toEqual([]);
    const ml = extractScope(
      "Train the model on last year's orders, then validate it on this quarter, then deploy it behind the API.",
    );
    expect(ml.sequences).toHaveLength(0); // one sentence with "then" inside is one requirement
    const prose = extractScope(
      "Collect the sensor readings. Then train a model on them. Finally, deploy it to the edge box.",
    );
    expect(prose.sequences).toEqual([["R1", "R2", "R3"]]);
  });

  it("reads who a requirement is for, with or without a modal verb, and the benefit", () => {
    const [a, b, c] = extractScope(
      "As a manager, I want to approve swaps so that the ward stays staffed.\nSite coordinators enter visit data.\nAdmins can remove messages.",
    ).requirements;
    expect(a).toMatchObject({ actor: "manager", action: "approve swaps", benefit: "the ward stays staffed" });
    expect(b).toMatchObject({ actor: "coordinators", action: "enter visit data" });
    expect(c).toMatchObject({ actor: "admins", action: "remove messages" });
  });

  it("reads the additional requirements too, under their own section, and falls back to the text itself", () => {
    const scope = extractScope("A todo app.", "Must support keyboard shortcuts");
    // With little else stated, what it is stays a requirement: the app itself is most of the work.
    expect(scope.requirements.map((r) => [r.text, r.section])).toEqual([
      ["A todo app", null],
      ["Must support keyboard shortcuts", "Additional requirements"],
    ]);
    expect(texts(extractScope("A habit tracker"))).toEqual(["A habit tracker"]);
  });

  it("reads issue threads and templates as a maintainer would (issue 38)", () => {
    const scope = extractScope(
      [
        "Feature Request: Saved searches",
        "",
        "It would be great if I could save a search and run it again from the sidebar.",
        "",
        "lena · comment · 2019-05-02",
        "Same here, I want this too.",
        "Plus, a way to share a saved search with the team.",
        "",
        "**Blocking issues**",
        "None",
        "",
        "- ~~Search history~~",
        "- TODO: ask design",
      ].join("\n"),
    );
    expect(scope.title).toBe("Feature Request: Saved searches");
    expect(texts(scope)).toEqual([
      "It would be great if I could save a search and run it again from the sidebar",
      "Plus, a way to share a saved search with the team",
    ]);
    expect(scope.done).toEqual(["Search history"]);
  });

  it("takes a list item that names itself as one feature, and a list of fields as one thing", () => {
    const scope = extractScope(
      [
        "# Pet sitter board",
        "",
        "Features:",
        "- **Sitter profiles** - Each sitter has a page with photos, prices and reviews. Owners can message them.",
        "- **Video calls** - Owners could call a sitter before booking. Not high on my priority list for now.",
        "",
        "### pet",
        "- name (text)",
        "- species (text)",
        "- born_on (date)",
        "",
        "Timeline:",
        "- 2024-03-01: beta for friends",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Sitter profiles", "pet with name (text), species (text), born_on (date)"]);
    expect(scope.requirements[0]!.statedIn).toMatch(/photos, prices and reviews/);
    expect(scope.nonGoals).toContain("Video calls");
    expect(scope.context).toContain("2024-03-01: beta for friends");
  });

  it("keeps a subordinate clause with its sentence, and reads instructions under steps to reproduce as steps", () => {
    const scope = extractScope(
      [
        "Export drops the last row",
        "",
        "How to reproduce it:",
        "Create a sheet with three rows.",
        "Export it as CSV.",
        "",
        "If the sheet has a header, the export should keep it.",
      ].join("\n"),
    );
    expect(scope.reproduction).toEqual(["Create a sheet with three rows", "Export it as CSV"]);
    expect(texts(scope)).toEqual(["If the sheet has a header, the export should keep it"]);
  });

  it("keeps the order a checklist states in its own words, and an item's remark with the item", () => {
    const scope = extractScope(
      [
        "Upgrade the reports database to PostgreSQL 16",
        "",
        "- [ ] Take a snapshot of the database",
        "- [ ] Restore it on a scratch instance. It's our test bed.",
        "- [ ] Run the upgrade on the scratch instance",
        "- [ ] Schedule downtime (or use the Sunday window?)",
        "- [ ] Then do it for real on the production instance",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Take a snapshot of the database",
      "Restore it on a scratch instance",
      "Run the upgrade on the scratch instance",
      "Schedule downtime (or use the Sunday window?)",
      "Then do it for real on the production instance",
    ]);
    expect(scope.sequences).toEqual([["R1", "R2", "R3", "R4", "R5"]]);
    expect(scope.context).toContain("It's our test bed");
  });

  it("holds a section's scope for the sections inside it", () => {
    const scope = extractScope(
      [
        "# Requirements",
        "## This term",
        "### Members",
        "- Admins can edit a member's details",
        "## Future (later terms)",
        "#### Payments module",
        "- Members pay dues online",
        "#### Reports",
        "- Monthly report of dues paid",
        "## Also now",
        "- Import members from a CSV file",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Admins can edit a member's details", "Import members from a CSV file"]);
    expect(scope.nonGoals).toEqual(["Members pay dues online", "Monthly report of dues paid"]);
  });

  it("sets aside code pasted without a fence, and how to run the thing", () => {
    const scope = extractScope(
      [
        "# Study timer",
        "",
        "Running the code:",
        "Step 1 - Clone this project",
        "Step 2 - Copy .env.example to .env",
        "",
        "CREATE TABLE sessions (",
        "  id SERIAL PRIMARY KEY,",
        "  started_at TIMESTAMP NOT NULL",
        ");",
        "",
        "Features:",
        "- A focus timer with breaks",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["A focus timer with breaks"]);
  });

  it("plans none of the prose, template lines and metadata the issue names (issue 38)", () => {
    const scope = extractScope(
      [
        "Tag filter in the issue list",
        "",
        "Follow on to #70.",
        "",
        "Gitea version (or commit ref): any",
        "",
        "Most of the time I just scroll. And yeah, the database does no filtering for it.",
        "",
        "- Filter issues by one or more tags",
        "- Keep the filter in the URL",
        "",
        "It must NOT use: any ORM, a new auth system.",
        "",
        "Strong community. Why: people lose time.",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Filter issues by one or more tags", "Keep the filter in the URL"]);
    expect(scope.constraints).toEqual(["It must NOT use: any ORM, a new auth system"]);
  });

  it("takes a list's lead-in for what it is, and an item that waits for the ones above it as their next step", () => {
    const scope = extractScope(
      [
        "Move the admin to React 18",
        "",
        "There is a lot to do, for example:",
        "",
        "- [ ] Replace the class components with hooks",
        "- [ ] Replace Redux with Zustand",
        "- [ ] Upgrade the router (blocked until the steps above are finished)",
        "- [ ] Drop jQuery if nothing needs it",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Replace the class components with hooks",
      "Replace Redux with Zustand",
      "Upgrade the router (blocked until the steps above are finished)",
      "Drop jQuery if nothing needs it",
    ]);
    expect(scope.sequences).toEqual([["R1", "R2", "R3"]]);
    expect(scope.requirements.map((r) => r.step)).toEqual([0, 0, 1, undefined]);
  });

  it("splits what a thing can be done with, and who may see it, into features of their own", () => {
    const scope = extractScope(
      [
        "Audit log",
        "",
        "- A page, visible to admins only, that lists every change and is ideally filterable by member (e.g. owner, editor) and/or searchable",
        "- Reports are exportable as CSV and printable",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "A page that lists every change",
      "Filter by member (e.g. owner, editor)",
      "Search",
      "Only admins can see it",
      "Reports are exportable as CSV and printable",
    ]);
  });

  it("reads what happened as the story, a done mark after the list marker as done, and fields under Environment as observed", () => {
    const scope = extractScope(
      [
        "Chat app for the clinic",
        "",
        "Originally we planned a phone app, but we switched to a website. It wasn't smooth sailing.",
        "",
        "- ✅ Sending messages",
        "- Reply in threads",
        "",
        "Environment:",
        "Request Method: POST",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Reply in threads"]);
    expect(scope.done).toEqual(["Sending messages"]);
    expect(scope.context).toEqual(
      expect.arrayContaining(["Originally we planned a phone app, but we switched to a website"]),
    );
  });
});
