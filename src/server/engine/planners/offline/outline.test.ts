import { describe, expect, it } from "vitest";
import { briefOfText } from "../../brief";
import { buildOutline, type OutlineNode } from "./outline";
import { siblingOrder } from "./stated-order";

const outlineOf = (text: string, maxSubtasks = 7) =>
  buildOutline(briefOfText(text), { maxDepth: 4, maxSubtasks });
const all = (nodes: OutlineNode[]): OutlineNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
const leaves = (nodes: OutlineNode[]) => all(nodes).filter((n) => n.children.length === 0);

describe("buildOutline", () => {
  it("gives a one-line description with a comma list one leaf per listed feature", () => {
    const outline = outlineOf(
      "A multi-tenant SaaS invoicing tool for freelancers: clients, recurring invoices, PDF generation, Stripe payments and reminders by e-mail, with an accountant read-only role",
    );
    const stated = leaves(outline.children).filter((n) => /^R\d+:/.test(n.title));
    expect(stated.map((n) => n.title).sort((a, b) => a.localeCompare(b, "en", { numeric: true }))).toEqual([
      "R1: Clients",
      "R2: Recurring invoices",
      "R3: PDF generation",
      "R4: Stripe payments",
      "R5: Reminders by e-mail",
      "R6: An accountant read-only role",
    ]);
  });

  it("plans a bug as reproduce, failing test, cause, the asked fix, verify and release note, with no stack choice", () => {
    const outline = outlineOf(
      [
        "Stripe webhooks fail signature verification since v2.14.0: paid subscriptions stay incomplete",
        "",
        "Since the upgrade every webhook gets a 400 from our handler and the logs say the signature does not match.",
        "",
        "## Proposed fix",
        "Give the webhook route the raw body before the JSON parser runs, and only on that route.",
      ].join("\n"),
    );
    expect(outline.kind).toBe("bug");
    const titles = outline.children.map((n) => n.title);
    expect(titles).toEqual([
      "Reproduce: Stripe webhooks fail signature verification since v2.14.0: paid subscriptions stay incomplete",
      "Write a failing regression test that shows the bug",
      "Find the cause",
      "R1: Give the webhook route the raw body before the JSON parser runs, and only on that route",
      "Verify the fix where it was reported",
      "Release the fix with a note",
    ]);
    expect(all(outline.children).some((n) => /stack|first version|repository/i.test(n.title))).toBe(false);
    // Each step waits for the one before it.
    expect(siblingOrder(outline.children)).toEqual([[], [1], [2], [3], [4], [5]]);
  });

  it("with nothing asked, a bug's fix is its own step, apart from reproducing it", () => {
    const outline = outlineOf(
      "Login button does nothing on Safari 17 when the password manager fills the form\n\nClicking it shows no error and the console is empty.",
    );
    expect(outline.kind).toBe("bug");
    const titles = outline.children.map((n) => n.title);
    expect(titles).toContain("Fix the cause");
    expect(titles[0]).toMatch(/^Reproduce: Login button does nothing/);
  });

  it("splits a long level into parts of even size, none with a single child, and a stated sequence runs across them", () => {
    const steps = Array.from(
      { length: 8 },
      (_, i) =>
        `${i + 1}. Step ${"abcdefgh"[i]} of the upgrade runs the ${["lint", "build", "schema", "copy", "verify", "switch", "watch", "cleanup"][i]} job`,
    );
    const outline = outlineOf(
      ["Upgrade the billing service to Node 22", "", "Steps, in this order:", ...steps].join("\n"),
      5,
    );
    const parts = all(outline.children).filter((n) => /part \d of \d/.test(n.title));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const part of parts) expect(part.children.length).toBeGreaterThan(1);
    expect(all(outline.children).every((n) => n.children.length !== 1)).toBe(true);
    const level = outline.children;
    const first = level.indexOf(parts[0]!);
    const second = level.indexOf(parts[1]!);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(siblingOrder(level)[second]).toContain(first + 1);
  });

  it("tells each step of a bug what the report says of it: where it was seen, clues to the cause, a suggested fix", () => {
    const outline = outlineOf(
      [
        "Week view starts on the wrong day",
        "",
        "### Describe the bug",
        "On Windows 11 with a German locale the week view starts on Sunday.",
        "",
        "ana · comment · 2024-02-01",
        "Every date is shifted by one, caused by how firstDayOfWeek is read in grid.js.",
        "An easy fix: subtract 1 from firstDayOfWeek.",
      ].join("\n"),
    );
    expect(outline.kind).toBe("bug");
    const byTitle = (start: string) => all(outline.children).find((n) => n.title.startsWith(start))!;
    expect(byTitle("Reproduce").body).toMatch(/Windows 11 with a German locale/);
    expect(byTitle("Find the cause").body).toMatch(/firstDayOfWeek is read in grid\.js/);
    expect(byTitle("Fix the cause").body).toMatch(/Suggested in the report.*subtract 1 from firstDayOfWeek/);
    expect(byTitle("Find the cause").body).not.toMatch(/An easy fix/);
  });

  it("plans slowness from what was measured, what is suspected and what a slow query needs, not from each sentence", () => {
    const outline = outlineOf(
      [
        "Loading the orders report takes 20 seconds",
        "",
        "Once the orders table gets big, the report query slows to a crawl. The slow log has thousands of entries.",
        "Probably this comes from the LIKE filter on the customer name, which keeps the index from being used.",
      ].join("\n"),
    );
    expect(outline.kind).toBe("performance");
    const titles = all(outline.children).map((n) => n.title);
    expect(
      titles.some((t) => t.startsWith("Test the suspected cause: The LIKE filter on the customer name")),
    ).toBe(true);
    expect(titles).toContain("Read the slow query's plan (EXPLAIN) and the indexes it can use");
    expect(titles).toContain("Bound the growth: expire and purge old rows");
    // What was observed is what the baseline measures: it is covered there, not planned as a leaf.
    const baseline = all(outline.children).find((n) => n.title === "Measure the current baseline")!;
    expect(baseline.body).toMatch(/slow log has thousands of entries/);
    expect(titles.some((t) => /slow log has/i.test(t))).toBe(false);
    const covered = new Set(all(outline.children).flatMap((n) => n.requirementIds));
    for (const r of outline.scope.requirements) expect(covered.has(r.id), r.text).toBe(true);
  });

  it("answers a change's restated title with the whole plan, covering it on the first step", () => {
    const outline = outlineOf(
      [
        "Move to Svelte 5",
        "",
        "Port the app to Svelte 5.",
        "",
        "- Convert the stores to runes",
        "- Replace the old event dispatcher",
      ].join("\n"),
    );
    expect(outline.kind).toBe("migration");
    const titles = all(outline.children).map((n) => n.title);
    expect(titles.some((t) => /Port the app to Svelte 5/.test(t))).toBe(false);
    const restated = outline.scope.requirements.find((r) => /Port the app/.test(r.text))!;
    const holder = all(outline.children).find(
      (n) => n.children.length === 0 && n.requirementIds.includes(restated.id),
    );
    expect(holder?.title).toMatch(/^Inventory/);
    expect(holder?.body).toMatch(/The request: Port the app to Svelte 5/);
  });

  it("in phased work, puts what sets up the rest first and a rehearsal after the steps it tries", () => {
    const outline = outlineOf(
      [
        "Move the orders service from MongoDB to PostgreSQL",
        "",
        "## Preparation",
        "- Set up postgres on the new host",
        "- Write a script that loads a mongodump into postgres",
        "- Change the repository layer to use postgres",
        "- Rehearse the whole move on the staging copy first",
      ].join("\n"),
    );
    expect(outline.kind).toBe("migration");
    const titles = outline.children.map((c) => c.title.replace(/^R\d+: /, ""));
    const order = siblingOrder(outline.children);
    const at = (re: RegExp) => titles.findIndex((t) => re.test(t)) + 1;
    const [setUp, script, layer, rehearse] = [
      /^Set up postgres/,
      /^Write a script/,
      /^Change the/,
      /^Rehearse/,
    ].map(at);
    expect(order[script! - 1]).toContain(setUp);
    expect(order[layer! - 1]).toContain(setUp);
    // The script and the repository change are side by side; the rehearsal waits for both.
    expect(order[layer! - 1]).not.toContain(script);
    expect(order[rehearse! - 1]).toEqual(expect.arrayContaining([script, layer]));
  });

  it("plans a change to a running pipeline as mapped and compared, and measures a stated cost", () => {
    const outline = outlineOf(
      [
        "Run the Airflow warehouse transforms less often",
        "",
        "- Split the billing DAGs off into their own DAG",
        "- Billing runs every day at 06:00",
        "- The rest of the transforms run on Mondays and Thursdays only",
        "",
        "A day of transform runs costs about 300 dollars.",
      ].join("\n"),
    );
    expect(outline.kind).toBe("data");
    const titles = leaves(outline.children).map((n) => n.title);
    expect(titles).toContain("Map the pipeline: its jobs, their dependencies and schedules");
    expect(titles).toContain("Compare the new outputs with the current ones");
    expect(titles).toContain("Measure the cost before and after the change");
    expect(titles.some((t) => /held-out data/.test(t))).toBe(false);
  });

  it("says in each stated leaf which section of the text it came from", () => {
    const outline = outlineOf(
      ["# Recipe box", "", "## Sharing", "- Share a recipe by link", "- Print a recipe"].join("\n"),
    );
    const share = leaves(outline.children).find((n) => /Share a recipe/.test(n.title))!;
    expect(share.body).toMatch(/Under "Sharing"/);
  });
});
