import { describe, expect, it } from "vitest";
import { extractScope } from "./requirements";

const texts = (s: { requirements: { text: string }[] }) => s.requirements.map((r) => r.text);

describe("reading text as people write it: threads, templates, PRDs, briefs (issue 38)", () => {
  it("takes talk about who does the work for context, and keeps the condition of an agreement as work", () => {
    const scope = extractScope(
      [
        "Split the nightly export into one job per region.",
        "",
        "pat-o · comment · 2025-01-04",
        "I'd like to take this one for the hackathon, please assign me",
        "",
        "ines-k · comment · 2025-01-05",
        "Fine by me as long as we tell the reporting team that the files move to a new folder, but I'll defer to @sam",
        "",
        "ruth · comment · 2025-01-05",
        "@sam please confirm the numbers before we start",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Split the nightly export into one job per region",
      "Tell the reporting team that the files move to a new folder",
    ]);
    expect(scope.context.join("\n")).toMatch(/please assign me/);
    expect(scope.context.join("\n")).toMatch(/please confirm the numbers/);
  });

  it("reads a template's problem and alternatives sections as context", () => {
    const scope = extractScope(
      [
        "### Is your feature request related to a problem?",
        "Right now there is no way to retry a failed payout.",
        "",
        "### Describe the solution you'd like",
        "Add a Retry button to each failed payout.",
        "",
        "### Describe alternatives you've considered",
        "Re-entering the payout by hand, which is slow.",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Add a Retry button to each failed payout"]);
    expect(scope.context).toEqual(
      expect.arrayContaining([
        "Right now there is no way to retry a failed payout",
        "Re-entering the payout by hand, which is slow",
      ]),
    );
  });

  it("keeps an ask before a colon, and the steps after it in their stated order", () => {
    const scope = extractScope(
      "Today deploys are started by hand. Let's replace that with one workflow that runs on merge to main: it builds the image first and then deploys to staging.",
    );
    expect(texts(scope)).toEqual([
      "Let's replace that with one workflow that runs on merge to main",
      "it builds the image",
      "deploys to staging",
    ]);
    expect(scope.sequences).toEqual([["R1", "R2", "R3"]]);
    expect(scope.requirements.map((r) => r.step)).toEqual([0, 1, 2]);
  });

  it("does not split where or when a step happens from the step, and reads two typed fields as one record", () => {
    const scope = extractScope(
      [
        "## Preparation",
        "- On a `pg` branch, change `api/orders.js` and `api/users.js` so they read from postgres",
        "",
        "### audit_log",
        "- user_id (uuid)",
        "- action (text)",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "On a pg branch, change api/orders.js and api/users.js so they read from postgres",
      "audit_log with user_id (uuid), action (text)",
    ]);
  });

  it("drops the struck-through part of an item and keeps the rest", () => {
    const scope = extractScope(
      [
        "## TODO",
        "- Handle errors / ~~logging~~",
        "- ~~Accurate scheduling~~",
        "- Tests, ~~lint~~ and docs",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Handle errors", "Tests and docs"]);
  });

  it("reads an instruction after its condition as work, in an item's later sentence too", () => {
    const scope = extractScope(
      [
        "## How can we help",
        "- Show which washers are free. When a machine is broken, offer a way to call maintenance.",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Show which washers are free",
      "When a machine is broken, offer a way to call maintenance",
    ]);
  });

  it("reads a PRD's customer, demographic and scenario sections as context, and the solution in its problem statement as work", () => {
    const scope = extractScope(
      [
        "## Problem statement",
        "Residents wait for machines all the time. With our app, residents will be able to reserve a machine for a time slot.",
        "",
        "## Customer information",
        "On-campus students",
        "",
        "### Demographic",
        "- Undergraduates and graduates",
        "",
        "## Your Scenario #1",
        "Lena opens the app and every machine is in use.",
        "",
        "## Features",
        "- Notify the resident when the cycle ends",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "With our app, residents will be able to reserve a machine for a time slot",
      "Notify the resident when the cycle ends",
    ]);
  });

  it("reads how to hand the work in as instructions for its author, not work", () => {
    const scope = extractScope(
      [
        "# Clinic booking take-home",
        "",
        "Build an API where patients book a slot with a doctor.",
        "",
        "## Submitting",
        "- Make a new private GitHub repository",
        "- Email us the link to the GitHub repository",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual(["Build an API where patients book a slot with a doctor"]);
    expect(scope.context).toContain("Make a new private GitHub repository");
  });

  it("reads what a record covers as that record's fields, and a list of field values as one thing", () => {
    const scope = extractScope(
      [
        "### Database",
        "* Holds donor data",
        "  * Covers the donor's name, the amount given, the donation type and the date",
        "* Holds volunteer data",
        "  * Covers name, age, address and emergency contact",
        "",
        "For samples, the searched fields are: id, sample name, supplier name and accession number.",
      ].join("\n"),
    );
    expect(texts(scope)).toEqual([
      "Holds donor data: the donor's name, the amount given, the donation type and the date",
      "Holds volunteer data: name, age, address and emergency contact",
      "For samples, the searched fields are: id, sample name, supplier name and accession number",
    ]);
  });
});
