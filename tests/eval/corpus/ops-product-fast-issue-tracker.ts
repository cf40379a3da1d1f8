import type { EvalCase } from "../case";

export const opsProductFastIssueTracker: EvalCase = {
  id: "ops-product-fast-issue-tracker",
  kind: "product brief (new product whose selling point is speed)",
  work_kind: "product",
  description: `# Quill: issue triage for open-source maintainers that never makes you wait

## Problem
Maintainers of mid-sized open-source projects triage hundreds of issues a week in GitHub's web UI, which has become sluggish: opening an issue takes 1-3 s, changing a label filter reloads the page, and nothing works on a train. The fast commercial trackers cap their free tiers far below what an open-source project needs. Speed is the product: every action must feel instant.

## What we're building (v1)
A web app that mirrors a project's GitHub issues and lets maintainers triage them quickly.
- Two-way sync with GitHub issues, labels, assignees and comments (a GitHub App plus webhooks)
- Local-first: the whole issue list lives in the browser (IndexedDB), so search, filters and opening an issue don't touch the network; it works offline, and changes made offline sync when you're back online
- Keyboard-first: every triage action (label, assign, close, next issue) has a shortcut, plus a command palette
- Saved views ("needs repro", "good first issue, unassigned")
- Bulk actions on a selection (label, close with a canned reply)

## Performance requirements
- p95 under 50 ms for search and for opening an issue on a 20,000-issue project, measured on a 2020 laptop
- Initial sync of a 20,000-issue repository in under 2 minutes, incremental sync after that
- Under 200 KB of gzipped JavaScript on first load

## Non-goals
- Replacing GitHub for code review or pull requests
- GitLab or Jira support in v1
- A mobile app

## Stack
TypeScript everywhere: a SvelteKit front end, a small Node.js sync service, and Postgres for the server-side mirror.`,
  requirements: [
    {
      id: "R1",
      text: "Two-way sync with GitHub issues, labels, assignees and comments",
      match: ["two-way"],
    },
    { id: "R2", text: "A GitHub App with webhooks", match: ["webhook"] },
    { id: "R3", text: "Local-first issue list in the browser (IndexedDB)", match: ["IndexedDB"] },
    { id: "R4", text: "Works offline; offline changes sync when back online", match: ["offline"] },
    { id: "R5", text: "A keyboard shortcut for every triage action", match: ["shortcut"] },
    { id: "R6", text: "A command palette", match: ["command palette"] },
    { id: "R7", text: "Saved views", match: ["saved views"] },
    { id: "R8", text: "Bulk actions on a selection", match: ["bulk"] },
    { id: "R9", text: "p95 under 50 ms for search and opening an issue", match: ["50 ms"] },
    { id: "R10", text: "Initial sync of 20,000 issues in under 2 minutes", match: ["initial sync"] },
    { id: "R11", text: "Incremental sync after the initial one", match: ["incremental"] },
    { id: "R12", text: "Under 200 KB of gzipped JavaScript on first load", match: ["200 KB"] },
  ],
  technologies: ["typescript", "javascript", "nodejs", "sveltekit", "postgresql"],
  non_goals: [
    { text: "code review or pull requests", match: ["pull request"] },
    { text: "GitLab support in v1", match: ["GitLab"] },
    { text: "Jira support in v1", match: ["Jira"] },
    { text: "a mobile app", match: ["mobile app"] },
  ],
  not_work: [
    { text: "the problem statement about GitHub's slow UI", match: ["sluggish"] },
    { text: "the problem statement about commercial trackers", match: ["free tiers"] },
    { text: "the problem statement's measurement", match: ["1-3 s"] },
  ],
  not_non_goals: [
    { text: "it works offline", match: ["offline"] },
    { text: "every action must feel instant", match: ["instant"] },
  ],
  separate: [
    ["R3", "R4"],
    ["R5", "R6"],
  ],
  independent: [
    ["R5", "R7"],
    ["R6", "R8"],
    ["R9", "R12"],
  ],
  inspired_by:
    "The isq README (a CLI for GitHub issues: 'GitHub's UX is rotting... sluggish', instant reads from a local cache, offline queue), found through code search, and the Zig post it cites: https://ziglang.org/news/migrating-from-github-to-codeberg/",
};
