import type { BriefAnalysis } from "./brief";
import type { Category, Spec } from "./spec";
import type { Tech } from "./tech";
import { clipWords, fitSentence, lowerFirst } from "./text";
import { frontendName, serverName } from "./wording";

/** Levels 3 and below: smaller steps derived from a step's category and object phrase. */

export const MICRO: Record<Category, [string, number][]> = {
  tooling: [
    ["Add the configuration files for {obj}", 5],
    ["Verify {obj} locally and in CI", 4],
    ["Document {obj} in the README", 2],
  ],
  model: [
    ["Define fields, types and relations for {obj}", 5],
    ["Write and apply the migration for {obj}", 5],
    ["Add indexes and constraints for {obj}", 3],
    ["Add seed data for {obj}", 2],
  ],
  api: [
    ["Define request and response schemas for {obj}", 4],
    ["Implement the handlers and service functions for {obj}", 6],
    ["Map errors to status codes for {obj}", 3],
    ["Add pagination and filtering to {obj}", 4],
  ],
  ui: [
    ["Lay out {obj} with reusable components", 5],
    ["Connect {obj} to the data layer", 5],
    ["Add validation, loading and error states to {obj}", 4],
    ["Check accessibility and responsiveness of {obj}", 3],
  ],
  integration: [
    ["Configure sandbox credentials and settings for {obj}", 3],
    ["Implement the client code for {obj} with timeouts", 6],
    ["Handle callbacks and failures for {obj} idempotently", 5],
    ["Test {obj} against the provider sandbox", 4],
  ],
  tests: [
    ["List the test cases for {obj}", 2],
    ["Write the unit tests for {obj}", 5],
    ["Write the integration or end-to-end test for {obj}", 5],
  ],
  infra: [
    ["Write the configuration for {obj}", 5],
    ["Apply {obj} to staging and verify it", 4],
    ["Roll out {obj} to production with a rollback plan", 4],
  ],
  hardware: [
    ["Check datasheets and pin assignments for {obj}", 3],
    ["Assemble and test {obj} on the bench", 5],
    ["Measure and record the results for {obj}", 3],
  ],
  firmware: [
    ["Write the code for {obj} behind a small interface", 6],
    ["Test {obj} on the bench with serial logs", 4],
    ["Handle error cases in {obj}", 4],
  ],
  logic: [
    ["Implement the core logic of {obj}", 6],
    ["Handle edge cases and errors in {obj}", 4],
    ["Add unit tests for {obj}", 4],
  ],
  data: [
    ["Write the transformation code for {obj}", 6],
    ["Validate the output of {obj}", 4],
    ["Document the assumptions behind {obj}", 2],
  ],
  auth: [
    ["Implement {obj}", 6],
    ["Handle failure cases of {obj}", 4],
    ["Test {obj} including wrong credentials", 4],
  ],
  docs: [
    ["Draft {obj}", 3],
    ["Review {obj} with the team", 2],
  ],
  scene: [
    ["Block out {obj} with placeholder assets", 5],
    ["Connect {obj} to the game logic", 5],
    ["Polish {obj} with final art and effects", 3],
  ],
  generic: [
    ["Implement {obj}", 6],
    ["Handle edge cases and errors for {obj}", 4],
    ["Test {obj}", 4],
  ],
};

export function categoryHint(category: Category, t: Tech): string {
  switch (category) {
    case "tooling":
      return `Keep configuration in the repository so every developer and CI run gets the same ${t.language} tooling.`;
    case "model":
      return `Use ${t.dataLib}; keep names consistent and migrations reversible.`;
    case "api":
      return `Keep ${serverName(t)} handlers thin: validate input, call a service function, map errors to status codes.`;
    case "ui":
      return `Build with ${frontendName(t)} components, keep data fetching out of presentational code, and support keyboard use.`;
    case "integration":
      return "Wrap the external service in one module with timeouts, retries and logging so tests can fake it.";
    case "tests":
      return `Use ${t.test}; name each test after the behaviour it checks.`;
    case "infra":
      return "Script it instead of clicking through consoles so staging and production stay identical.";
    case "hardware":
      return "Follow the datasheets, keep wires short and note every pin in the firmware's config header.";
    case "firmware":
      return "Avoid blocking delays, keep interrupt handlers minimal, and log over serial.";
    case "logic":
      return `Keep the logic in pure ${t.language} functions without I/O so it is easy to unit-test.`;
    case "data":
      return "Make each step deterministic and re-runnable, and log row counts before and after.";
    case "auth":
      return "Follow OWASP guidance: hashed secrets, rate limits and generic error messages.";
    case "docs":
      return "Keep it short and next to the code so it stays current.";
    case "scene":
      return `Iterate in ${t.project} with placeholder assets first; keep tunable values out of code.`;
    case "generic":
      return "Keep the change small and reviewable, with a test that proves it works.";
  }
}

export function microSpecs(parent: Spec, a: BriefAnalysis): Spec[] {
  const obj = clipWords(parent.obj, 12);
  return MICRO[parent.category].map(([template, weight], i) => ({
    level: "micro" as const,
    description: fitSentence(template.replace("{obj}", obj), "in this step"),
    details: `${categoryHint(parent.category, a.tech)} Part of: ${parent.description}.`,
    weight,
    priority: weight >= 5 ? i : i + 10,
    category: parent.category,
    obj,
  }));
}

const LEAF: Record<"leaf" | "deep" | "deeper", [string, number][]> = {
  leaf: [
    ["Write the code to {core}", 5],
    ["Test the change to {core}", 4],
    ["Review and merge the change to {core}", 3],
  ],
  deep: [
    ["Prepare the groundwork to {core}", 4],
    ["Complete and check the work to {core}", 3],
  ],
  deeper: [
    ["Begin the work to {core}", 3],
    ["Wrap up the work to {core}", 2],
  ],
};

export function leafSpecs(parent: Spec, a: BriefAnalysis, level: "leaf" | "deep" | "deeper"): Spec[] {
  const core =
    parent.level === "micro" || parent.level === "step" ? lowerFirst(parent.description) : parent.obj;
  const coreClipped = clipWords(core, 14);
  return LEAF[level].map(([template, weight], i) => ({
    level,
    description: fitSentence(template.replace("{core}", coreClipped), "in this step"),
    details: `${categoryHint(parent.category, a.tech)} Part of: ${parent.description}.`,
    weight,
    priority: i,
    category: parent.category,
    obj: coreClipped,
  }));
}
