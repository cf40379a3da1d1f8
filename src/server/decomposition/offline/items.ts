import type { BriefAnalysis, Feature } from "./brief";
import type { BoilerKind, Spec } from "./spec";
import type { Family, Tech } from "./tech";
import { capitalise, clipWords, fitSentence, listJoin, lowerFirst, words } from "./text";
import { isUserFacing } from "./topics";
import {
  dbName,
  defaultActors,
  entityList,
  frontendName,
  objFromText,
  serverName,
  stores,
  testTools,
  theLib,
} from "./wording";

/** Level 1: the project plan (setup, data, auth, one item per feature, tests, deployment). */

type ItemText = { description: string; details: string; weight: number; label: string; epicPriority: number };

function boilerItem(kind: BoilerKind, a: BriefAnalysis): ItemText {
  const t = a.tech;
  const f = t.family;
  const db = dbName(t);
  const ents = entityList(a);
  switch (kind) {
    case "setup": {
      const description = {
        web: `Set up the ${t.project} project with ${t.language}, linting and ${t.ci} CI`,
        api: `Set up the ${t.project} service with ${t.language}, linting, Docker and ${t.ci} CI`,
        mobile: `Set up the ${t.project} app for ${t.platforms} with linting and CI builds`,
        desktop: `Set up the ${t.project} desktop project for ${t.platforms} with linting and CI`,
        data: `Set up the ${t.project} environment with pinned ${t.language} dependencies and linting`,
        game: `Set up the ${t.project} project with input mapping, version control and CI builds`,
        iot: `Set up ${t.toolchain}, the board configuration and the firmware project structure`,
        automation: `Set up the ${t.project} project with configuration, secrets handling and linting`,
      }[f];
      return {
        description,
        details: `Create the repository skeleton for ${t.stack.name}, add ${t.lint} with a pre-commit hook and a ${t.ci} workflow running lint and ${t.test} on every push. Document the one-command local setup in the README.`,
        weight: 5,
        label: "Project setup",
        epicPriority: 1,
      };
    }
    case "data": {
      const byFamily: Record<Family, ItemText> = {
        web: {
          description: `Design the ${db} schema for ${ents}`,
          details: `Model ${ents} with ${t.dataLib}: ids, foreign keys, created_at/updated_at and indexes for the main lookups. Commit the migrations and a seed script for local development.`,
          weight: a.entities.length >= 4 ? 7 : 6,
          label: "Data model",
          epicPriority: 1,
        },
        api: {
          description: `Design the ${db} schema and migrations for ${ents}`,
          details: `Write versioned migrations with ${t.dataLib}, add constraints and indexes that match the API's filters, and seed a disposable database for integration tests.`,
          weight: a.entities.length >= 4 ? 7 : 6,
          label: "Data model",
          epicPriority: 1,
        },
        mobile: {
          description: `Design the ${db} data model for ${ents}`,
          details: t.documentStore
            ? `Define the ${db} collections for ${ents} scoped by user id, write security rules that only allow owners to read and write, and add the composite indexes the queries need.`
            : `Define ${t.dataLib} tables for ${ents} with migrations, and wrap them in repositories so screens never query storage directly.`,
          weight: 6,
          label: "Data model",
          epicPriority: 1,
        },
        desktop: {
          description: `Design the local ${db} storage for ${ents}`,
          details: `Create ${theLib(t.dataLib)} schema and migrations in the user's app-data folder, with a backup before each migration.`,
          weight: 6,
          label: "Local storage",
          epicPriority: 1,
        },
        data: {
          description: `Ingest, clean and validate the source data with ${t.dataLib}`,
          details: `Load raw data into versioned raw/ and clean/ layers, fix types, deduplicate, and add validation checks (schema, ranges, nulls) that fail the run loudly.`,
          weight: 7,
          label: "Data ingestion",
          epicPriority: 1,
        },
        game: {
          description: `Build the core game loop: player controller, camera and game states in ${t.language}`,
          details: `Implement the player controller and camera, a state machine for menu/playing/paused/game over, and a graybox test level in ${t.project}. Make it fun before adding content.`,
          weight: 8,
          label: "Core game loop",
          epicPriority: 1,
        },
        iot: {
          description: `Wire ${hardwareList(a)} to the ${t.board} and document the pin map`,
          details: `Draw the wiring diagram, check voltage levels and current draw against the datasheets, and add flyback diodes and fuses where loads are switched. Record every pin in a config header.`,
          weight: 7,
          label: "Hardware and wiring",
          epicPriority: 1,
        },
        automation: {
          description: `Define the inputs, configuration schema and result storage for the automation`,
          details: `Describe each input source and its format, validate configuration at start-up, and store results in ${t.output} with idempotency keys so reruns never duplicate work.`,
          weight: 6,
          label: "Configuration and data",
          epicPriority: 1,
        },
      };
      return byFamily[f];
    }
    case "auth": {
      const description = {
        web: `Add authentication with ${t.auth}: sign-up, sign-in, sessions and roles`,
        api: `Secure the API with ${t.auth}, scopes and rate limiting`,
        mobile: `Add sign-in with ${t.auth}: onboarding, session persistence and sign-out`,
        desktop: "Add user sign-in with secure credential storage in the OS keychain",
        game: "Add player accounts and sign-in for the online features",
        data: "Restrict access to the results with sign-in and role checks",
        iot: "Secure device provisioning, credentials and encrypted connections",
        automation: "Store credentials for the target services in a secrets manager",
      }[f];
      return {
        description,
        details: `Use ${t.auth}; hash passwords with argon2id or bcrypt (or delegate to the provider), rate-limit sign-in attempts and check roles on the server for every protected action.`,
        weight: 7,
        label: "Authentication",
        epicPriority: 2,
      };
    }
    case "shell": {
      const description = {
        web: `Build the ${frontendName(t)} app shell: routing, layout, navigation and shared components`,
        api: "Define the OpenAPI contract, error format and pagination conventions",
        mobile: `Build the ${frontendName(t)} app shell: navigation, theming and shared components`,
        desktop: `Build the main window, menus, navigation and settings screen in ${frontendName(t)}`,
        data: "Explore the data: distributions, missing values and baseline metrics",
        game: `Build the menus, HUD, pause screen and settings in ${t.project}`,
        iot: "Write the main firmware loop with non-blocking timers and a watchdog",
        automation: "Add structured logging, retries and failure notifications to every run",
      }[f];
      return {
        description,
        details: `Put the shared structure in place once so every feature plugs into it: consistent layout, error handling and logging for ${t.stack.name}.`,
        weight: 5,
        label: f === "data" ? "Exploratory analysis" : f === "iot" ? "Main loop" : "App shell",
        epicPriority: 3,
      };
    }
    case "tests": {
      const description = {
        web: `Write automated tests with ${testTools(t)} for the critical user flows`,
        api: `Write ${t.test} unit and integration tests against a disposable test database`,
        mobile: `Write ${t.test} unit and widget tests plus ${t.e2e} flows on emulators`,
        desktop: `Write ${t.test} tests for the core logic and ${t.e2e} UI smoke tests`,
        data: `Add ${t.test} tests and data quality checks for the pipeline`,
        game: `Playtest regularly and cover game rules with ${t.test} tests`,
        iot: `Test the firmware with ${t.test} and a hardware-in-the-loop checklist`,
        automation: `Write ${t.test} tests with recorded fixtures for every automation step`,
      }[f];
      const flows = a.features
        .slice(0, 3)
        .map((x) => lowerFirst(x.label))
        .join("; ");
      return {
        description,
        details: `Cover the critical flows (${flows}) with ${testTools(t)}, run them in ${t.ci} on every push, and fail the build on regressions.`,
        weight: 6,
        label: "Quality and testing",
        epicPriority: 3,
      };
    }
    case "deploy": {
      const description = {
        web: `Deploy to ${t.deploy}: migrations, HTTPS, monitoring and backups`,
        api: `Deploy the service to ${t.deploy}: health checks, logs and backups`,
        mobile: `Release the app to ${stores(t)} with ${t.deploy}: signing, builds and listings`,
        desktop: `Package, sign and publish installers with ${t.deploy} and auto-updates`,
        data: `Deliver the results with ${t.deploy} and document how to reproduce them`,
        game: `Build and release for ${t.platforms} with ${t.deploy}`,
        iot: `Flash, enclose and install the device with ${t.deploy} and document calibration`,
        automation: `Deploy and schedule the automation with ${t.deploy} and alert on failures`,
      }[f];
      return {
        description,
        details: `Automate the release with ${t.deploy}; keep secrets in the platform's secret store, and add monitoring, error tracking and backups before the first real users arrive.`,
        weight: 6,
        label: f === "mobile" || f === "game" ? "Release" : "Deployment",
        epicPriority: 4,
      };
    }
  }
}

export function hardwareList(a: BriefAnalysis): string {
  const ids = new Set(a.features.map((f) => f.topic?.id));
  const parts: string[] = [];
  if (ids.has("sensors")) parts.push("the sensors");
  if (ids.has("actuators")) parts.push("relays for the outputs");
  if (ids.has("display")) parts.push("the display");
  if (ids.has("logging")) parts.push("the storage module");
  return parts.length > 0 ? listJoin(parts) : "the sensors and outputs";
}

function mergedItem(kind: "foundation" | "delivery" | "groundwork", a: BriefAnalysis): ItemText {
  const t = a.tech;
  const f = t.family;
  const db = dbName(t);
  const auth = a.needsAuth;
  if (kind === "foundation") {
    const description = {
      web: `Set up the ${t.project} project and ${db} schema${auth ? " with authentication" : ""}`,
      api: `Set up the ${t.project} service and ${db} schema${auth ? " with token authentication" : ""}`,
      mobile: `Set up the ${t.project} app and ${db} data model${auth ? ` with ${t.auth}` : ""}`,
      desktop: `Set up the ${t.project} project and local ${db} storage${auth ? " with sign-in" : ""}`,
      data: `Set up the ${t.project} environment and ingest and clean the source data`,
      game: `Set up the ${t.project} project and build the core game loop`,
      iot: `Set up ${t.toolchain} and wire the hardware to the ${t.board}`,
      automation: `Set up the ${t.project} project with its configuration, secrets and storage`,
    }[f];
    return {
      description,
      details: `Create the ${t.stack.name} repository with ${t.lint} and ${t.ci} CI, then ${f === "iot" ? `wire and document ${hardwareList(a)}` : `model ${entityList(a)} with ${t.dataLib}`}${auth ? ` and add sign-in with ${t.auth}` : ""}. Everything later builds on this, so keep it small and solid.`,
      weight: 8,
      label: "Foundation",
      epicPriority: 1,
    };
  }
  if (kind === "delivery") {
    const description = {
      web: `Test with ${testTools(t)}, then deploy to ${t.deploy}`,
      api: `Test with ${t.test}, then deploy the service to ${t.deploy}`,
      mobile: `Test with ${t.test} and release to ${stores(t)} with ${t.deploy}`,
      desktop: `Test with ${t.test} and ship signed installers with ${t.deploy}`,
      data: `Validate with ${t.test} and deliver the results with ${t.deploy}`,
      game: `Playtest, test with ${t.test} and release builds with ${t.deploy}`,
      iot: "Bench-test the firmware, then flash, enclose and install the device",
      automation: `Test with ${t.test} and schedule the automation with ${t.deploy}`,
    }[f];
    return {
      description,
      details: `Run ${t.test}${f === "web" || f === "mobile" ? ` and ${t.e2e}` : ""} in ${t.ci} on every push, then automate the release with ${t.deploy}, with monitoring and a rollback path.`,
      weight: 7,
      label: f === "mobile" || f === "game" ? "Testing and release" : "Testing and deployment",
      epicPriority: 3,
    };
  }
  const base = f === "iot" ? "wired hardware" : `the ${db} ${t.documentStore ? "data model" : "schema"}`;
  return {
    description: `Set up, test and ship the ${t.project} project with ${base}${auth ? " and authentication" : ""}`,
    details: `Create the ${t.stack.name} repository with ${t.lint} and ${t.ci} CI, model ${entityList(a)} with ${t.dataLib}, cover the main flows with ${t.test} and automate releases with ${t.deploy}.`,
    weight: 9,
    label: "Foundation and delivery",
    epicPriority: 1,
  };
}

const MERGED_PARTS: Record<"foundation" | "delivery" | "groundwork", (a: BriefAnalysis) => BoilerKind[]> = {
  foundation: (a) => (a.needsAuth ? ["setup", "data", "auth"] : ["setup", "data"]),
  delivery: () => ["tests", "deploy"],
  groundwork: (a) =>
    a.needsAuth ? ["setup", "data", "auth", "tests", "deploy"] : ["setup", "data", "tests", "deploy"],
};

function genericScope(t: Tech): string {
  const srv = serverName(t);
  switch (t.family) {
    case "web":
      return `${dbName(t)} model, ${srv} API and ${frontendName(t)} UI`;
    case "mobile":
      return `${dbName(t)} data, ${t.state} state and ${frontendName(t)} screens`;
    case "api":
      return `${dbName(t)} ${t.documentStore ? "collections" : "tables"}, ${srv} endpoints and validation`;
    case "desktop":
      return `${dbName(t)} storage, ${t.language} logic and ${frontendName(t)} views`;
    case "data":
      return `data preparation, analysis and charts in ${t.viz}`;
    case "game":
      return `${t.scene}, ${t.language} scripts and tuning`;
    case "iot":
      return `${t.language} driver, control logic and calibration`;
    case "automation":
      return `${t.lib} steps, error handling and logs`;
  }
}

function featureLead(feature: Feature, t: Tech): string {
  if (feature.verbal) {
    if (isUserFacing(t)) return `Let ${feature.actor ?? defaultActors(t)} ${feature.phrase}`;
    return capitalise(feature.phrase);
  }
  return `Implement ${feature.phrase}`;
}

function featureEntitySentence(feature: Feature, t: Tech): string {
  const e = feature.entity;
  const srv = serverName(t);
  switch (t.family) {
    case "web":
      return `Store ${e.plural} in the \`${e.table}\` ${t.documentStore ? "collection" : "table"} via ${t.dataLib}, expose them under \`/api/${e.slug}\` with ${srv}, and build the ${frontendName(t)} views.`;
    case "mobile":
      return `Keep ${e.plural} in ${dbName(t)} (\`${e.table}\`) behind a repository, expose them through ${t.state}, and build the ${frontendName(t)} screens.`;
    case "api":
      return `Store ${e.plural} in \`${e.table}\` via ${t.dataLib} and expose \`/v1/${e.slug}\` with ${srv}, validated by ${t.validation}.`;
    case "desktop":
      return `Persist ${e.plural} with ${t.dataLib}, keep the logic in ${t.language} services, and build the ${frontendName(t)} views.`;
    case "data":
      return `Produce ${e.plural} as a reproducible pipeline step with ${t.dataLib}, and report the results with ${t.viz}.`;
    case "game":
      return `Implement it as ${t.language} components in ${t.project} ${t.scene}, with tunable values kept in data assets.`;
    case "iot":
      return `Implement it as a ${t.language} module with init() and update() functions called from the main loop on the ${t.board}.`;
    case "automation":
      return `Implement it as one ${t.lib} step with explicit inputs and outputs, writing results to ${t.output}.`;
  }
}

export function featureItem(feature: Feature, a: BriefAnalysis, index: number): Spec {
  const t = a.tech;
  const lead = featureLead(feature, t);
  const scope = feature.topic?.scope(t) ?? genericScope(t);
  let description = `${lead}: ${scope}`;
  if (words(description).length > 20) description = `${lead}: ${genericScopeShort(t)}`;
  const hint = feature.topic ? ` ${feature.topic.hint(t)}` : "";
  return {
    level: "item",
    itemKind: "feature",
    description: fitSentence(description, `in ${t.project}`),
    details: `${featureEntitySentence(feature, t)}${hint}`,
    weight: feature.weight,
    priority: index,
    category: "generic",
    obj: feature.subject,
    feature,
    label: feature.label,
    epicPriority: index < 2 || feature.weight >= 8 ? 2 : index < 5 ? 3 : 4,
  };
}

function genericScopeShort(t: Tech): string {
  return t.family === "web" || t.family === "api" ? "model, API and UI" : "data, logic and interface";
}

export function bundleItem(features: Feature[], a: BriefAnalysis): Spec {
  const labels = features.map((f) => lowerFirst(clipWords(f.label, 4)));
  const shown = labels.length > 3 ? [...labels.slice(0, 3), `${labels.length - 3} more`] : labels;
  return {
    level: "item",
    itemKind: "bundle",
    description: fitSentence(`Implement the remaining features: ${listJoin(shown)}`, `in ${a.tech.project}`),
    details: `Build each of these as a thin vertical slice in ${a.tech.stack.name}: ${listJoin(features.map((f) => lowerFirst(f.label)))}. Ship them one at a time behind the same patterns as the earlier features.`,
    weight: Math.min(9, Math.max(...features.map((f) => f.weight)) + 1),
    priority: 50,
    category: "generic",
    obj: "the remaining features",
    features,
    label: "Further features",
    epicPriority: 4,
  };
}

function boilerSpec(kind: BoilerKind, a: BriefAnalysis, priority: number): Spec {
  const item = boilerItem(kind, a);
  return {
    level: "item",
    itemKind: kind,
    description: fitSentence(item.description, `for ${a.title}`),
    details: item.details,
    weight: item.weight,
    priority,
    category: "generic",
    obj: objFromText(item.description),
    label: item.label,
    epicPriority: item.epicPriority,
  };
}

function mergedSpec(
  kind: "foundation" | "delivery" | "groundwork",
  a: BriefAnalysis,
  priority: number,
): Spec {
  const item = mergedItem(kind, a);
  return {
    level: "item",
    itemKind: kind,
    description: fitSentence(item.description, `for ${a.title}`),
    details: item.details,
    weight: item.weight,
    priority,
    category: "generic",
    obj: objFromText(item.description),
    parts: MERGED_PARTS[kind](a),
    label: item.label,
    epicPriority: item.epicPriority,
  };
}

/**
 * The first-level plan. Features come first: when the plan is too long the boilerplate items merge
 * (setup+schema+auth, tests+deploy, then all of them), and only then do trailing features share one item.
 */
const planCache = new WeakMap<BriefAnalysis, Map<number, Spec[]>>();

export function planItems(a: BriefAnalysis, maxSubtasks: number): Spec[] {
  const slots = Math.max(1, Math.min(10, maxSubtasks));
  let byCount = planCache.get(a);
  if (!byCount) {
    byCount = new Map();
    planCache.set(a, byCount);
  }
  const cached = byCount.get(slots);
  if (cached) return cached;
  const plan = buildPlan(a, slots);
  byCount.set(slots, plan);
  return plan;
}

function buildPlan(a: BriefAnalysis, slots: number): Spec[] {
  const features = a.features;
  const head: BoilerKind[] = a.needsAuth ? ["setup", "data", "auth"] : ["setup", "data"];
  if (features.length <= 2) head.push("shell");
  const tail: BoilerKind[] = ["tests", "deploy"];
  const featureSpecs = features.map((f, i) => featureItem(f, a, i));
  if (features.length + head.length + tail.length <= slots) {
    return [
      ...head.map((k, i) => boilerSpec(k, a, 10 + i)),
      ...featureSpecs,
      ...tail.map((k, i) => boilerSpec(k, a, 20 + i)),
    ];
  }
  if (features.length + 2 <= slots) {
    return [mergedSpec("foundation", a, 10), ...featureSpecs, mergedSpec("delivery", a, 20)];
  }
  if (features.length + 1 <= slots || slots === 1) {
    return [mergedSpec("groundwork", a, 10), ...featureSpecs].slice(0, slots);
  }
  const keep = slots - 2;
  return [
    mergedSpec("groundwork", a, 10),
    ...featureSpecs.slice(0, keep),
    bundleItem(features.slice(keep), a),
  ];
}
