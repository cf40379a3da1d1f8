import { describe, expect, it } from "vitest";
import { briefOfText } from "../brief";
import { learnedOutranks, titleReportsFault } from "./kind";

const kindOf = (text: string) => briefOfText(text).kind;

describe("readKind", () => {
  it("reads each kind of work from the whole text, and says why", () => {
    const cases: [string, string][] = [
      ["A habit tracker app: daily check-ins, streaks, reminders and stats", "product"],
      [
        "Add CSV export to our existing invoicing app: the accountant wants every invoice of a month in one file.",
        "feature",
      ],
      [
        "Upgrade our Rails app from Rails 6.1 to 7.1\n\n1. Update the gems\n2. Fix the deprecations\n3. Switch to Zeitwerk",
        "migration",
      ],
      [
        "The orders page of our dashboard takes 14 s to load since the catalogue grew. Find out why and make it fast again: p95 under 1 s.",
        "performance",
      ],
      [
        "Set up Terraform for our staging environment: a VPC, an EKS cluster with two node pools, and Prometheus and Grafana for monitoring with PagerDuty alerting.",
        "infrastructure",
      ],
      [
        "Train a churn prediction model on our subscription data: build the dataset in BigQuery, train a classifier, validate recall on a holdout month, and schedule weekly predictions.",
        "data",
      ],
      [
        "Spike: evaluate three feature flag services (LaunchDarkly, Unleash, Flagsmith). Compare cost and SDK support, build a proof of concept with the two best options, and recommend one. Time-box: one week.",
        "spike",
      ],
      [
        "Invoice reminder emails are sent twice after every deploy\n\n## Steps to reproduce\n1. Queue 200 reminders\n2. Restart the worker\n\n## Expected\nEach reminder is sent once.",
        "bug",
      ],
    ];
    for (const [text, kind] of cases) {
      const reading = kindOf(text);
      expect(reading.id, text).toBe(kind);
      expect(reading.because.length, text).toBeGreaterThan(0);
    }
  });

  it("reads a new product whose text mentions speed as a product, not a performance investigation", () => {
    const reading = kindOf(
      "A note-taking app for researchers. Existing tools get sluggish with thousands of notes, so search must answer in under 100 ms. Notes, tags, full-text search and PDF annotations.",
    );
    expect(reading.id).toBe("product");
  });

  it("reads a title that says what goes wrong as a bug report, but not a product that mentions failures", () => {
    expect(kindOf("Login button does nothing on Safari 17 when the password manager fills the form").id).toBe(
      "bug",
    );
    expect(titleReportsFault("Stripe webhooks fail signature verification since v2.14.0")).toBe(true);
    expect(titleReportsFault("[BUG] App crashes when rotating the phone")).toBe(true);
    expect(titleReportsFault("Search returns a 500 for queries with emoji")).toBe(true);
    expect(titleReportsFault("Uptime monitor that alerts when sites fail")).toBe(false);
    expect(titleReportsFault("Crash reporting SDK for Unity")).toBe(false);
    expect(titleReportsFault("An app that shows the wrong answers for practice")).toBe(false);
    expect(kindOf("A Slack bot that pings the team when CI builds fail, with a daily summary").id).toBe(
      "product",
    );
  });

  it("takes the title's word for what the work is, and an issue's template or thread as a sign of something that exists", () => {
    // A request filed on a tracker: its label, or the template it was written in.
    expect(
      kindOf("Proposal: tags on bookmarks\n\nWe could let people tag saved links and filter by tag.").id,
    ).toBe("feature");
    expect(
      kindOf(
        "Dark mode\n\n**Is your feature request related to a problem?**\nThe white page hurts at night.\n\n**Describe the solution you'd like**\nA toggle in the settings that switches to a dark theme.",
      ).id,
    ).toBe("feature");
    expect(
      kindOf(
        "Let guests see a board\n\nHi, could guests get read access to one board?\n\nsam · comment · 2021-03-02\nSame here, we need this for clients.",
      ).id,
    ).toBe("feature");
    // Moving a store or a framework is a migration even when its steps read like building things.
    expect(
      kindOf(
        "Switch from SQLite to Postgres\n\n- Write a script that copies every table\n- Change the data layer to use pg\n- Try it on staging first",
      ).id,
    ).toBe("migration");
    // Slowness reported with a bug's template is still performance work.
    expect(
      kindOf(
        "Opening a large project takes very long\n\n**Describe the bug**\nA project with 5,000 files takes about 40 s to open.\n\n**To Reproduce**\n1. Open a project with 5,000 files\n\n**Expected behavior**\nIt opens within a few seconds.",
      ).id,
    ).toBe("performance");
  });

  it("does not take a new product's own words for an existing system, a spike or a bug", () => {
    // A hackathon write-up says "our backend" of what its team built.
    expect(
      kindOf(
        "## Inspiration\nWe kept missing the bus.\n## What it does\nBusBuddy reads the live feed and pings you five minutes before your bus leaves.\n## How we built it\nOur backend is a small Flask app that polls the feed.",
      ).id,
    ).toBe("product");
    // "Our app will" is the app to be; a timeline with "bug fixing" and a "proof of concept" week is a plan.
    expect(
      kindOf(
        "StudyTimer\n\nOur app will bring a focus timer, a to-do list and weekly statistics.\n\nTimeline\n- Week 1: proof of concept\n- Week 4: bug fixing and testing",
      ).id,
    ).toBe("product");
  });
});

describe("learnedOutranks", () => {
  it("lets the learned reader decide when it is sure, but never make a change to a system that exists a new product", () => {
    expect(learnedOutranks({ id: "migration", p: 0.8 }, "feature", true)).toBe(true);
    expect(learnedOutranks({ id: "product", p: 0.9 }, "feature", false)).toBe(true);
    expect(learnedOutranks({ id: "product", p: 0.9 }, "feature", true)).toBe(false);
    expect(learnedOutranks({ id: "product", p: 0.9 }, "migration", true)).toBe(false);
    expect(learnedOutranks({ id: "bug", p: 0.55 }, "feature", false)).toBe(false);
    expect(learnedOutranks({ id: "feature", p: 0.9 }, "feature", true)).toBe(false);
  });
});
