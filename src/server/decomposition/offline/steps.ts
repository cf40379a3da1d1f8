import type { BriefAnalysis, Entity, Feature } from "./brief";
import type { BoilerKind, Spec, StepDef } from "./spec";
import { boilerSteps } from "./steps-boilerplate";
import { fitSentence, lowerFirst } from "./text";
import { dbName, frontendName, objFromText, serverName, testTools, theLib } from "./wording";

/** Level 2: the engineering steps of a feature, in each family's vocabulary. */

export function step(def: StepDef, fallbackPad: string): Spec {
  return {
    level: "step",
    description: fitSentence(def.text, fallbackPad),
    details: def.details,
    weight: def.weight,
    priority: def.priority,
    category: def.category,
    obj: def.obj ?? objFromText(def.text),
  };
}

export function featureSteps(feature: Feature, a: BriefAnalysis): StepDef[] {
  const t = a.tech;
  const s = feature.subject;
  const e: Entity = feature.entity;
  const db = dbName(t);
  const srv = serverName(t);
  const fe = frontendName(t);
  const topic = feature.topic;
  const integration = topic?.integration?.(t);
  const integ: StepDef[] = integration
    ? [
        {
          text: integration.text,
          details: integration.details,
          weight: 8,
          category: "integration",
          priority: 2.5,
          obj: `the ${lowerFirst(topic?.label ?? "external")} integration`,
        },
      ]
    : [];
  /** Themes without their own records (search, sync…) need queries and indexes rather than a new table. */
  const transient = topic !== null && !topic.persist;
  const queries: StepDef = {
    text: `Prepare the ${db} queries and indexes for ${s}`,
    details: `Add the indexes the ${s} queries need and check them with EXPLAIN (or the console's index advisor) on realistic data volumes.`,
    weight: 5,
    category: "model",
    priority: 3,
    obj: `the queries for ${s}`,
  };
  const tests = (text: string, priority: number): StepDef => ({
    text,
    details: `Cover the happy path and the main failure cases of ${s} with ${t.test}; keep fixtures small and independent so the suite stays fast in ${t.ci}.`,
    weight: 5,
    category: "tests",
    priority,
    obj: s,
  });
  switch (t.family) {
    case "web":
      return [
        transient
          ? queries
          : {
              text: `Model ${e.plural} in ${db} with ${t.dataLib}`,
              details: t.documentStore
                ? `Define the \`${e.table}\` collection schema with ${t.dataLib}, including owner ids, timestamps and indexes for the main lookups.`
                : `Add a \`${e.table}\` table with an owner foreign key, timestamps and indexes for the main lookups, written as a ${t.dataLib} migration with seed data.`,
              weight: 6,
              category: "model",
              priority: 3,
              obj: `the ${e.plural} data model`,
            },
        {
          text: `Build and validate the ${srv} endpoints for ${s}`,
          details: `Expose \`GET/POST /api/${e.slug}\` and \`PATCH/DELETE /api/${e.slug}/:id\`; validate bodies, check ownership and return typed errors (400, 403, 404).`,
          weight: 7,
          category: "api",
          priority: 1,
          obj: `the ${srv} endpoints for ${s}`,
        },
        {
          text: `Build the pages and forms for ${s} in ${fe}`,
          details: `Add list, detail and edit views under \`src/features/${e.slug}/\` that call \`/api/${e.slug}\`, with loading, empty and error states and labelled, keyboard-friendly forms.`,
          weight: 7,
          category: "ui",
          priority: 2,
          obj: `the ${fe} pages for ${s}`,
        },
        ...integ,
        {
          text: `Enforce ownership and role checks for ${s} on the server`,
          details: `Check in one ${srv} middleware or service function that the signed-in user may read or change each ${e.pascal}, and log denied attempts.`,
          weight: 5,
          category: "api",
          priority: 6,
          obj: `the access rules for ${s}`,
        },
        tests(`Write ${testTools(t)} tests for ${s}`, 4),
      ];
    case "mobile":
      return [
        transient
          ? queries
          : {
              text: `Model ${e.plural} in ${db} using ${t.dataLib}`,
              details: t.documentStore
                ? `Store ${e.plural} in a \`${e.table}\` collection scoped by user id, and extend the security rules so only the owner can read and write them.`
                : `Create the \`${e.table}\` table with a migration and a DAO/repository returning streams for the UI.`,
              weight: 6,
              category: "model",
              priority: 3,
              obj: `the ${e.plural} data model`,
            },
        {
          text: `Add ${theLib(t.state)} state and repository for ${s}`,
          details: `Expose ${e.plural} to the UI through ${t.state}, keeping storage calls in a repository so screens stay testable.`,
          weight: 6,
          category: "logic",
          priority: 2,
          obj: `the state layer for ${s}`,
        },
        {
          text: `Build the ${fe} screens for ${s}`,
          details: `Create the list, detail and edit screens with ${fe} components, following platform conventions and supporting dynamic type and dark mode.`,
          weight: 7,
          category: "ui",
          priority: 1,
          obj: `the ${fe} screens for ${s}`,
        },
        ...integ,
        ...(topic?.id === "offline"
          ? []
          : [
              {
                text: `Handle offline, loading and error states for ${s}`,
                details: `Show cached data when offline, skeletons while loading, and retryable error messages; never lose user input.`,
                weight: 4,
                category: "ui" as const,
                priority: 6,
                obj: `the offline and error states for ${s}`,
              },
            ]),
        tests(`Write ${t.test} tests for ${s}`, 4),
      ];
    case "api":
      return [
        transient
          ? queries
          : {
              text: `Create the ${db} ${t.documentStore ? "collection" : "tables"} for ${e.plural} with ${t.dataLib}`,
              details: `Define \`${e.table}\` with constraints and indexes matching the API's filters and sort orders.`,
              weight: 6,
              category: "model",
              priority: 3,
              obj: `the ${e.table} table`,
            },
        {
          text: `Implement the ${srv} endpoints for ${s}`,
          details: `Add \`/v1/${e.slug}\` routes with cursor pagination, keeping handlers thin and the logic in a service layer.`,
          weight: 7,
          category: "api",
          priority: 1,
          obj: `the ${srv} endpoints for ${s}`,
        },
        {
          text: `Validate requests for ${s} with ${t.validation} and return consistent errors`,
          details: `Reject invalid input with 400 and a machine-readable error body; document every error code.`,
          weight: 5,
          category: "api",
          priority: 4,
          obj: `request validation for ${s}`,
        },
        ...integ,
        {
          text: `Enforce authorization and rate limits on the ${s} endpoints`,
          details: `Check scopes per route and apply per-client rate limits; return 401, 403 and 429 consistently.`,
          weight: 5,
          category: "auth",
          priority: 5,
          obj: `authorization for ${s}`,
        },
        tests(`Write ${t.test} integration tests for the ${s} endpoints`, 3.5),
        {
          text: `Document the ${s} endpoints in the OpenAPI spec with examples`,
          details: `Describe request and response schemas with examples so clients can generate SDKs.`,
          weight: 3,
          category: "docs",
          priority: 7,
          obj: `the OpenAPI documentation for ${s}`,
        },
      ];
    case "desktop":
      return [
        transient
          ? queries
          : {
              text: `Store ${e.plural} locally in ${db} using ${t.dataLib}`,
              details: `Add the \`${e.table}\` table and a repository class; run migrations on start-up after a backup.`,
              weight: 6,
              category: "model",
              priority: 3,
              obj: `local storage for ${e.plural}`,
            },
        {
          text: `Implement the ${t.language} service logic for ${s}`,
          details: `Keep the rules in plain ${t.language} services with no UI dependencies so they are easy to unit-test.`,
          weight: 7,
          category: "logic",
          priority: 1,
          obj: `the service logic for ${s}`,
        },
        {
          text: `Build the ${fe} views and dialogs for ${s}`,
          details: `Bind views to view models, support keyboard navigation and remember window state.`,
          weight: 7,
          category: "ui",
          priority: 2,
          obj: `the ${fe} views for ${s}`,
        },
        ...integ,
        {
          text: `Add keyboard shortcuts, undo and clear error dialogs for ${s}`,
          details: `Register platform-standard shortcuts and keep an undo stack for destructive actions.`,
          weight: 4,
          category: "ui",
          priority: 6,
          obj: `the usability details of ${s}`,
        },
        tests(`Write ${t.test} tests for the ${s} logic`, 4),
      ];
    case "data":
      return [
        {
          text: `Load and join the data needed for ${s} with ${t.dataLib}`,
          details: `Read only the columns needed, join on documented keys, and assert row counts after each join.`,
          weight: 6,
          category: "data",
          priority: 2,
          obj: `the input data for ${s}`,
        },
        {
          text: `Clean the data and engineer features for ${s}`,
          details: `Handle missing values explicitly, encode categories, and keep transformations in importable ${t.language} functions rather than notebook cells.`,
          weight: 6,
          category: "data",
          priority: 3,
          obj: `the features for ${s}`,
        },
        topic?.id === "ml"
          ? {
              text: `Train and evaluate a baseline ${t.ml} model for ${s}`,
              details: `Split by time or entity to avoid leakage, compare against a naive baseline and log metrics and parameters for every run.`,
              weight: 8,
              category: "logic",
              priority: 1,
              obj: `the ${t.ml} model for ${s}`,
            }
          : {
              text: `Compute the metrics and aggregates for ${s}`,
              details: `Write the aggregations as tested functions and cross-check totals against the source system.`,
              weight: 6,
              category: "data",
              priority: 1,
              obj: `the metrics for ${s}`,
            },
        {
          text: `Visualise ${s} with ${t.viz} and write a short summary`,
          details: `Label axes and units, show uncertainty where it matters, and state the main finding in one sentence.`,
          weight: 5,
          category: "ui",
          priority: 4,
          obj: `the visuals for ${s}`,
        },
        ...(topic?.id === "ml" ? [] : integ),
        tests(`Validate ${s} outputs with ${t.test} and data quality checks`, 5),
      ];
    case "game":
      return [
        {
          text: `Build the ${t.project} ${t.scene} for ${s}`,
          details: `Graybox first: block out the layout with placeholder art, then replace assets once it plays well.`,
          weight: 6,
          category: "scene",
          priority: 2,
          obj: `the ${t.scene} for ${s}`,
        },
        {
          text: `Script ${s} in ${t.language} with tunable parameters`,
          details: `Expose speeds, timings and damage values as data so they can be tuned without code changes.`,
          weight: 7,
          category: "logic",
          priority: 1,
          obj: `the ${t.language} scripts for ${s}`,
        },
        {
          text: `Add animation, audio and visual feedback for ${s}`,
          details: `Give every player action immediate feedback: animation, sound and a small particle or screen effect.`,
          weight: 4,
          category: "scene",
          priority: 5,
          obj: `the feedback for ${s}`,
        },
        {
          text: `Show the state of ${s} in the HUD and menus`,
          details: `Update the HUD from events rather than polling every frame.`,
          weight: 4,
          category: "scene",
          priority: 4,
          obj: `the HUD for ${s}`,
        },
        ...integ,
        tests(`Playtest ${s} and cover its rules with ${t.test}`, 3),
      ];
    case "iot":
      return [
        {
          text: `Wire and bench-test the hardware for ${s} on the ${t.board}`,
          details: `Follow the datasheets for voltage and current, keep signal wires short, and note every pin in the config header.`,
          weight: 4,
          category: "hardware",
          priority: 3,
          obj: `the hardware for ${s}`,
        },
        {
          text: `Write the ${t.language} driver code for ${s}`,
          details: `Wrap the hardware in a small module with begin() and read()/write() functions, using the standard libraries for the parts where they exist.`,
          weight: 6,
          category: "firmware",
          priority: 1,
          obj: `the driver code for ${s}`,
        },
        {
          text: `Implement the control logic for ${s} as a non-blocking state machine`,
          details: `Run on millisecond timers instead of blocking delays, and keep thresholds and intervals in one config struct.`,
          weight: 7,
          category: "firmware",
          priority: 2,
          obj: `the control logic for ${s}`,
        },
        ...integ,
        {
          text: `Store calibration values and thresholds for ${s} in ${t.storage}`,
          details: `Load settings at boot with sane defaults, validate ranges, and write only when values change to spare the flash.`,
          weight: 4,
          category: "firmware",
          priority: 5,
          obj: `the calibration settings for ${s}`,
        },
        {
          text: `Handle faults, timeouts and out-of-range values for ${s}`,
          details: `Detect disconnected parts and impossible values, report them over serial and fall back to a safe state.`,
          weight: 5,
          category: "firmware",
          priority: 4,
          obj: `fault handling for ${s}`,
        },
        tests(`Test ${s} with ${t.test} and a bench checklist`, 6),
      ];
    case "automation":
      return [
        {
          text: `Script ${s} with ${t.lib}`,
          details: `Implement the step as a function with explicit inputs and outputs; use stable selectors or official APIs and explicit waits.`,
          weight: 7,
          category: "logic",
          priority: 1,
          obj: `the script for ${s}`,
        },
        {
          text: `Make ${s} configurable: inputs, credentials and schedule`,
          details: `Read settings from environment variables or a validated config file; never hard-code credentials.`,
          weight: 4,
          category: "tooling",
          priority: 4,
          obj: `the configuration for ${s}`,
        },
        {
          text: `Add retries, timeouts and structured logs to ${s}`,
          details: `Retry transient failures with exponential back-off and log one structured line per action with a run id.`,
          weight: 5,
          category: "logic",
          priority: 3,
          obj: `error handling for ${s}`,
        },
        {
          text: `Write the results of ${s} to ${t.output}`,
          details: `Write atomically (temp file or transaction) and use idempotency keys so reruns do not duplicate rows.`,
          weight: 5,
          category: "data",
          priority: 2,
          obj: `the output of ${s}`,
        },
        ...integ,
        tests(`Test ${s} with ${t.test} using recorded fixtures`, 5),
      ];
  }
}

/** Merged items take the most important steps of each part, alternating between parts. */
export function mergedSteps(parts: BoilerKind[], a: BriefAnalysis): StepDef[] {
  const lists = parts.map((p) => boilerSteps(p, a).sort((x, y) => x.priority - y.priority));
  const out: StepDef[] = [];
  const longest = Math.max(...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    lists.forEach((list, partIndex) => {
      const s = list[i];
      if (s) out.push({ ...s, priority: i * 10 + partIndex });
    });
  }
  return out;
}
