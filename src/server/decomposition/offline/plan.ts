import type { PlannedSubtask } from "../../../shared/schemas/plan";
import type { SplitRequest } from "../planner";
import { type BriefAnalysis, type Entity, entityFromPascal, type Feature } from "./brief";
import type { Family, Tech } from "./tech";
import { capitalise, clipWords, collapseSpaces, fitSentence, listJoin, lowerFirst, words } from "./text";
import { detectTopic, isUserFacing } from "./topics";

export type BoilerKind = "setup" | "data" | "auth" | "shell" | "tests" | "deploy";
export type ItemKind = BoilerKind | "feature" | "bundle" | "foundation" | "delivery" | "groundwork";
export type Category =
  | "tooling"
  | "model"
  | "api"
  | "ui"
  | "integration"
  | "tests"
  | "infra"
  | "hardware"
  | "firmware"
  | "logic"
  | "data"
  | "auth"
  | "docs"
  | "scene"
  | "generic";

type Level = "root" | "item" | "step" | "micro" | "leaf" | "deep" | "deeper";

/** What the planner knows about one node: enough to describe it and to derive its children. */
export type Spec = {
  level: Level;
  description: string;
  details: string;
  /** Intrinsic difficulty 1-10; decides how far below its parent the node scores. */
  weight: number;
  /** Lower is kept first when a split has to be trimmed. */
  priority: number;
  category: Category;
  /** The object phrase children reuse ("the Express endpoints for search"). */
  obj: string;
  itemKind?: ItemKind;
  feature?: Feature;
  features?: Feature[];
  parts?: BoilerKind[];
  /** Epic title and priority (items only). */
  label?: string;
  epicPriority?: number;
};

// ---------------------------------------------------------------------------------------------------------
// Scoring

export function storyPointsFor(score: number): 1 | 2 | 3 | 5 | 8 | 13 {
  if (score <= 2) return 1;
  if (score === 3) return 2;
  if (score === 4) return 3;
  if (score <= 6) return 5;
  if (score <= 8) return 8;
  return 13;
}

/** Children sit 1-3 points below their parent: heavy work 1 below, light work 3 below, never above. */
function childScore(parent: number, weight: number): number {
  const offset = weight >= 8 ? 1 : weight >= 6 ? 2 : 3;
  const ceiling = parent > 1 ? parent - 1 : 1;
  return Math.max(1, Math.min(ceiling, parent - offset));
}

function childCount(parent: number, maxSubtasks: number, available: number): number {
  const wanted = parent >= 9 ? 6 : parent >= 8 ? 5 : parent >= 6 ? 4 : parent >= 4 ? 3 : 2;
  const cap = Math.max(1, Math.min(10, maxSubtasks));
  let n = Math.min(wanted, cap, available);
  if (n < 2 && cap >= 2 && available >= 2) n = 2;
  return Math.max(1, n);
}

/** Keeps the n candidates with the best priority, in their original order. */
function select(candidates: Spec[], n: number): Spec[] {
  const ranked = candidates
    .map((spec, index) => ({ spec, index }))
    .sort((x, y) => x.spec.priority - y.spec.priority || x.index - y.index)
    .slice(0, n)
    .sort((x, y) => x.index - y.index);
  return ranked.map((r) => r.spec);
}

// ---------------------------------------------------------------------------------------------------------
// Shared wording

function serverName(t: Tech): string {
  if (!t.server) return t.language;
  return t.server
    .replace(/^(a|an|the)\s+(custom\s+)?/i, "")
    .replace(
      /\s+(controllers|views|route handlers|endpoints|API routes|modules|collections|content API|GraphQL and apps|minimal APIs|Web MVC)$/i,
      "",
    );
}

/** "the Django ORM" stays, "Prisma" becomes "the Prisma": avoids "the the" in templates. */
function theLib(name: string): string {
  return /^(the|a|an)\s/i.test(name) ? name : `the ${name}`;
}

function frontendName(t: Tech): string {
  return t.frontend ?? t.project;
}

function dbName(t: Tech): string {
  return t.database ?? "local storage";
}

function stores(t: Tech): string {
  const p = t.platforms.toLowerCase();
  if (p.includes("ios") && p.includes("android")) return "the App Store and Google Play";
  if (p.includes("android")) return "Google Play";
  if (p.includes("ios")) return "the App Store";
  return "the app stores";
}

function defaultActors(t: Tech): string {
  switch (t.typeId) {
    case "ecommerce":
      return "customers";
    case "cms":
      return "editors";
    case "api-backend":
      return "API clients";
    case "game":
      return "players";
    default:
      return "users";
  }
}

function entityList(a: BriefAnalysis, max = 4): string {
  const names = a.entities.slice(0, max).map((e) => e.plural);
  return names.length > 0 ? listJoin(names) : `the ${a.title} data`;
}

const LEADING_VERB_PHRASE =
  /^(set up|lay out|roll out|write and apply|sign and notarise|package, sign and publish|flash, enclose and install|ingest, clean and validate|deploy and schedule|build and release|clean, deduplicate and type|wire and bench-test|check and record|playtest, test with [^ ]+ and)\s+/i;

const LEADING_VERBS = new Set(
  `add build create write configure install run provision deploy define document test check draw assemble plan prepare
   flash package publish profile plot summarise inventory clean implement issue protect persist gate record send tune show
   handle store make validate connect release integrate train load visualise playtest script wire enforce model design
   ingest sketch explore push synchronise compute bench-test unit-test automate monitor share schedule secure scaffold
   restrict delivery let lay`.split(/\s+/),
);

/** "Build the Express endpoints for search" -> "the Express endpoints for search". */
function objFromText(text: string): string {
  const multi = LEADING_VERB_PHRASE.exec(text);
  if (multi) return text.slice(multi[0].length);
  const ws = words(text);
  if (ws.length > 1 && LEADING_VERBS.has(ws[0]!.toLowerCase())) return ws.slice(1).join(" ");
  return text;
}

// ---------------------------------------------------------------------------------------------------------
// Level 1: the project plan

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
        web: `Write automated tests with ${t.test} and ${t.e2e} for the critical user flows`,
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
        details: `Cover the critical flows (${flows}) with ${t.test} and ${t.e2e}, run them in ${t.ci} on every push, and fail the build on regressions.`,
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

function hardwareList(a: BriefAnalysis): string {
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
      web: `Test with ${t.test} and ${t.e2e}, then deploy to ${t.deploy}`,
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
      return `${dbName(t)} tables, ${srv} endpoints and validation`;
    case "desktop":
      return `${dbName(t)} storage, ${t.language} logic and ${frontendName(t)} views`;
    case "data":
      return `data preparation, analysis and ${t.viz} visuals`;
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

function featureItem(feature: Feature, a: BriefAnalysis, index: number): Spec {
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

function bundleItem(features: Feature[], a: BriefAnalysis): Spec {
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
export function planItems(a: BriefAnalysis, maxSubtasks: number): Spec[] {
  const slots = Math.max(1, Math.min(10, maxSubtasks));
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

// ---------------------------------------------------------------------------------------------------------
// Level 2: engineering steps

type StepDef = {
  text: string;
  details: string;
  weight: number;
  category: Category;
  priority: number;
  obj?: string;
};

function step(def: StepDef, fallbackPad: string): Spec {
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

function featureSteps(feature: Feature, a: BriefAnalysis): StepDef[] {
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
        tests(`Write ${t.test} and ${t.e2e} tests for ${s}`, 4),
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
              text: `Create the ${db} tables for ${e.plural} with ${t.dataLib}`,
              details: `Write a migration for \`${e.table}\` with constraints and indexes matching the API's filters and sort orders.`,
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

function boilerSteps(kind: BoilerKind, a: BriefAnalysis): StepDef[] {
  const t = a.tech;
  const f = t.family;
  const db = dbName(t);
  const ents = entityList(a);
  const d = (
    text: string,
    details: string,
    weight: number,
    category: Category,
    priority: number,
  ): StepDef => ({
    text,
    details,
    weight,
    category,
    priority,
  });
  const ci = d(
    `Set up ${t.ci} CI running lint, type checks and ${t.test} on every push`,
    "Cache dependencies, run every check in parallel jobs, and block merging on failure.",
    4,
    "infra",
    2,
  );
  switch (kind) {
    case "setup":
      switch (f) {
        case "mobile":
          return [
            d(
              `Create the ${t.project} app for ${t.platforms} with dev and prod flavours`,
              "Use separate bundle ids and backend projects per flavour so test data never reaches production.",
              4,
              "tooling",
              1,
            ),
            d(
              `Configure ${t.lint} and a pre-commit hook`,
              "Fail CI on lint warnings so the codebase stays consistent.",
              3,
              "tooling",
              3,
            ),
            d(
              "Configure app icons, splash screen and bundle identifiers",
              "Generate icons for every density from one source image.",
              3,
              "tooling",
              5,
            ),
            d(
              `Set up CI building and testing ${t.platforms} builds on every push`,
              `Run ${t.test} and produce signed debug builds in ${t.ci}.`,
              4,
              "infra",
              2,
            ),
            d(
              `Connect the app to ${db} with separate dev and prod environments`,
              "Keep environment config out of source control and document how to switch.",
              4,
              "tooling",
              4,
            ),
          ];
        case "data":
          return [
            d(
              `Create the ${t.language} environment with pinned dependencies for ${t.project}`,
              "Use uv, Poetry or conda with a lock file so results are reproducible.",
              4,
              "tooling",
              1,
            ),
            d(
              "Lay out the repository: data, notebooks, source package and reports",
              "Keep reusable code in a package that notebooks import, not in notebook cells.",
              3,
              "tooling",
              2,
            ),
            d(
              `Configure ${t.lint} and strip notebook outputs before commits`,
              "Use nbstripout or jupytext so diffs stay readable.",
              3,
              "tooling",
              4,
            ),
            ci,
            d(
              "Configure read-only access to the data sources and secrets",
              "Use a service account with the least privilege and load secrets from the environment.",
              3,
              "tooling",
              3,
            ),
          ];
        case "game":
          return [
            d(
              `Create the ${t.project} project with folder conventions and Git LFS for assets`,
              "Agree on folders for scenes, scripts, art and audio before content arrives.",
              4,
              "tooling",
              1,
            ),
            d(
              "Configure input mapping for keyboard, mouse and gamepad",
              "Map actions, not keys, so controls can be rebound later.",
              3,
              "tooling",
              2,
            ),
            d(
              "Set up the boot flow: splash, main menu and gameplay scenes",
              "Load scenes asynchronously and keep a persistent manager for global state.",
              4,
              "tooling",
              3,
            ),
            d(
              `Set up CI builds for ${t.platforms}`,
              `Build every push with ${t.deploy} so broken builds are caught early.`,
              4,
              "infra",
              4,
            ),
            d(
              `Configure ${t.lint} and a shared code style`,
              "Keep formatting automatic so reviews focus on behaviour.",
              3,
              "tooling",
              5,
            ),
          ];
        case "iot":
          return [
            d(
              `Install ${t.toolchain} and pin library versions`,
              "Record exact library versions in the project file so builds are reproducible.",
              3,
              "tooling",
              1,
            ),
            d(
              "Create the firmware project with pin definitions and a config header",
              "Keep all pins, intervals and thresholds in one header or config module.",
              4,
              "tooling",
              2,
            ),
            d(
              "Configure serial logging and a debug build",
              "Log with levels and timestamps; compile debug output out of release builds.",
              3,
              "tooling",
              4,
            ),
            d(
              `Set up ${t.ci} CI compiling the firmware on every push`,
              `Compile for the target board and run ${t.test} host tests.`,
              4,
              "infra",
              3,
            ),
            d(
              `Prepare a bench rig with the ${t.board}, power supply and test parts`,
              "Use a current-limited bench supply while developing.",
              3,
              "hardware",
              5,
            ),
          ];
        case "automation":
          return [
            d(
              `Create the ${t.project} project with pinned dependencies`,
              "Use a lock file and a README with one command to run locally.",
              3,
              "tooling",
              1,
            ),
            d(
              `Configure ${t.lint} and formatting with a pre-commit hook`,
              "Run the same checks in CI.",
              3,
              "tooling",
              4,
            ),
            d(
              "Load configuration and secrets from environment variables",
              "Validate configuration at start-up and fail fast with a clear message.",
              3,
              "tooling",
              2,
            ),
            ci,
            d(
              "Add a dry-run mode that logs actions without performing them",
              "Make dry-run the default outside production.",
              4,
              "logic",
              5,
            ),
          ];
        default:
          return [
            d(
              `Scaffold the ${t.project} repository with ${t.language} and a clear folder structure`,
              "Use the framework's generator, then commit a README with run instructions and an .editorconfig.",
              4,
              "tooling",
              1,
            ),
            d(
              `Configure ${t.lint} with pre-commit hooks`,
              "Add lint and format scripts and a pre-commit hook so style issues never reach review.",
              3,
              "tooling",
              3,
            ),
            d(
              "Add environment configuration and secret handling with an example env file",
              "Validate environment variables at start-up, commit .env.example and keep real secrets out of Git.",
              3,
              "tooling",
              4,
            ),
            ci,
            d(
              t.database
                ? `Run a local ${db} with Docker Compose for development`
                : "Add a one-command local dev script",
              "Make a fresh clone runnable in one command, including seed data.",
              3,
              "infra",
              5,
            ),
          ];
      }
    case "data":
      switch (f) {
        case "data":
          return [
            d(
              "Inventory the data sources, owners and refresh frequency",
              "Note access method, size and known quality issues for each source.",
              3,
              "docs",
              4,
            ),
            d(
              `Write ingestion code loading the raw data with ${t.dataLib}`,
              "Keep raw data immutable and write cleaned data to a separate layer.",
              6,
              "data",
              1,
            ),
            d(
              "Clean, deduplicate and type the raw data",
              "Fix types, parse dates with explicit time zones and remove duplicates by key.",
              5,
              "data",
              2,
            ),
            d(
              "Add data validation checks for schema, ranges and nulls",
              "Use pandera or Great Expectations and fail the run on violations.",
              5,
              "tests",
              3,
            ),
            d(
              "Document the data dictionary and known data issues",
              "One table per dataset: column, type, meaning, caveats.",
              2,
              "docs",
              5,
            ),
          ];
        case "game":
          return [
            d(
              `Implement the player controller and camera in ${t.language}`,
              "Tune acceleration and camera follow until movement feels responsive.",
              7,
              "logic",
              1,
            ),
            d(
              "Build the game state machine: menu, playing, paused and game over",
              "Centralise state transitions so UI and audio react to events.",
              6,
              "logic",
              2,
            ),
            d(
              "Set up collision layers, physics and a graybox test level",
              "Use layers to control what collides and keep the test level in the repository.",
              5,
              "ui",
              3,
            ),
            d(
              "Add scoring, health and lose conditions",
              "Keep rules in one component with unit tests.",
              5,
              "logic",
              4,
            ),
            d(
              "Tune controls and game feel in a short playtest",
              "Watch a new player for ten minutes and note every moment of confusion.",
              4,
              "tests",
              5,
            ),
          ];
        case "iot":
          return [
            d(
              `Draw the wiring diagram and pin map for the ${t.board}`,
              "Use Fritzing or KiCad and keep the diagram in the repository.",
              4,
              "hardware",
              1,
            ),
            d(
              "Check sensor, actuator and power supply ratings against the datasheets",
              "Budget current for every part and check logic levels (3.3 V vs 5 V).",
              4,
              "hardware",
              2,
            ),
            d(
              "Assemble the circuit on a breadboard and test each part alone",
              "Verify each part with a minimal sketch before combining them.",
              5,
              "hardware",
              3,
            ),
            d(
              "Add protection: flyback diodes, level shifting and a fuse",
              "Protect the board from inductive loads and reversed power.",
              4,
              "hardware",
              4,
            ),
            d(
              "Plan the enclosure, cable runs and mounting",
              "Choose an IP-rated enclosure if the device lives in a damp place.",
              3,
              "hardware",
              5,
            ),
          ];
        case "automation":
          return [
            d(
              "Define the input sources and their formats",
              "Write a short spec per source with an example record.",
              3,
              "docs",
              1,
            ),
            d(
              "Define the configuration schema with defaults and validation",
              "Validate configuration before any side effect happens.",
              4,
              "logic",
              2,
            ),
            d(
              `Set up storage for results in ${t.output}`,
              "Create the target structure once, idempotently.",
              4,
              "data",
              3,
            ),
            d(
              "Add idempotency keys so reruns never duplicate work",
              "Derive keys from source ids and dates.",
              5,
              "logic",
              4,
            ),
            d(
              "Write the operator runbook for the automation",
              "Explain how to run, rerun and roll back.",
              2,
              "docs",
              5,
            ),
          ];
        default:
          return [
            d(
              `Sketch the entity-relationship model for ${ents}`,
              "Agree on names, cardinalities and ownership before writing migrations.",
              4,
              "model",
              2,
            ),
            d(
              t.documentStore
                ? /firestore/i.test(db)
                  ? `Define the ${db} collections and security rules for ${ents}`
                  : `Define ${theLib(t.dataLib)} document schemas for ${ents}`
                : `Write ${theLib(t.dataLib)} schema and first migration for ${ents}`,
              `Use ${t.dataLib}; add created_at/updated_at to every record and make migrations reversible.`,
              6,
              "model",
              1,
            ),
            d(
              t.documentStore
                ? "Add indexes and validation rules for the main queries"
                : "Add indexes, constraints and foreign keys for the main queries",
              "Index every foreign key and the columns used in filters and sorting.",
              5,
              "model",
              3,
            ),
            d(
              "Create seed data and test factories for local development",
              "Seed realistic sample data so every screen has something to show.",
              3,
              "model",
              4,
            ),
            d(
              "Document the data model and data retention rules",
              "Keep an ER diagram and retention rules next to the migrations.",
              2,
              "docs",
              5,
            ),
          ];
      }
    case "auth":
      if (f === "mobile")
        return [
          d(
            `Configure ${t.auth} for ${t.platforms}`,
            "Register the app ids and redirect URIs per flavour.",
            4,
            "auth",
            1,
          ),
          d(
            `Build the sign-in, sign-up and onboarding screens in ${frontendName(t)}`,
            "Support password managers and show clear, generic error messages.",
            6,
            "ui",
            2,
          ),
          d(
            "Persist the session securely and refresh tokens",
            "Store tokens in the Keychain/Keystore, never in plain preferences.",
            5,
            "auth",
            3,
          ),
          d(
            "Gate screens on sign-in state and handle sign-out",
            "Clear cached user data on sign-out.",
            4,
            "logic",
            4,
          ),
          d(
            "Test the sign-in flows including failures",
            `Use ${t.test} with a fake auth provider.`,
            4,
            "tests",
            5,
          ),
        ];
      if (f === "api")
        return [
          d(
            `Issue and verify tokens with ${t.auth}`,
            "Use short-lived access tokens and rotate signing keys.",
            6,
            "auth",
            1,
          ),
          d("Add scopes and roles and protect each route", "Deny by default; allow per route.", 5, "auth", 2),
          d(
            "Add rate limiting and brute-force protection",
            "Limit per IP and per account; return 429 with Retry-After.",
            4,
            "api",
            3,
          ),
          d(
            "Test authentication and authorization failures",
            `Cover 401, 403 and 429 with ${t.test}.`,
            4,
            "tests",
            4,
          ),
        ];
      return [
        d(
          "Create the users and sessions tables with hashed passwords",
          "Hash with argon2id; store only a hash of session tokens.",
          5,
          "model",
          1,
        ),
        d(
          `Build sign-up, sign-in and sign-out with ${t.auth}`,
          "Use HTTP-only, SameSite cookies and regenerate the session on sign-in.",
          6,
          "auth",
          1,
        ),
        d(
          "Add password reset and e-mail verification",
          "Use single-use, expiring tokens and do not reveal whether an e-mail exists.",
          5,
          "auth",
          3,
        ),
        d(
          "Protect routes and endpoints with role-based access checks",
          "Check roles on the server in one middleware.",
          5,
          "api",
          2,
        ),
        d(
          "Write tests for sign-up, sign-in and access control",
          `Use ${t.test}; include wrong passwords and expired sessions.`,
          4,
          "tests",
          4,
        ),
      ];
    case "shell": {
      const byFamily: Record<Family, [string, string][]> = {
        web: [
          [
            `Set up routing and the main layout with navigation in ${frontendName(t)}`,
            "Lazy-load feature routes.",
          ],
          [
            "Create shared UI components: buttons, forms, modals and toasts",
            "Keep them accessible by default.",
          ],
          ["Add responsive styles and a consistent theme", "Define colour and spacing tokens once."],
          ["Add error boundaries and a not-found page", "Report unexpected errors to the error tracker."],
        ],
        mobile: [
          [`Set up tab and stack navigation in ${frontendName(t)}`, "Support deep links from notifications."],
          ["Define the theme, typography and shared components", "Support dark mode and dynamic type."],
          [
            "Add the onboarding flow and empty states",
            "Explain the value of the app in three screens or fewer.",
          ],
          ["Add crash reporting and global error handling", "Use Crashlytics or Sentry."],
        ],
        api: [
          [
            "Write the OpenAPI specification for all resources",
            "Generate server stubs or validate against it in tests.",
          ],
          [
            "Define the error format and pagination conventions",
            "Use RFC 9457 problem details and cursor pagination.",
          ],
          ["Add API versioning and request ids", "Return the request id in every response and log line."],
          ["Publish interactive API documentation", "Serve Swagger UI or Redoc from the service."],
        ],
        desktop: [
          ["Build the main window layout, menus and navigation", "Follow each platform's menu conventions."],
          ["Add a settings screen persisted to disk", "Store settings in the platform's app-data folder."],
          ["Add theming and accessibility support", "Respect the system theme and screen readers."],
          ["Add crash reporting and log files", "Rotate logs and let users attach them to bug reports."],
        ],
        data: [
          [
            "Profile the data: distributions, missing values and outliers",
            "Use ydata-profiling or pandas describe().",
          ],
          [`Plot the key relationships with ${t.viz}`, "Keep plots reproducible from code."],
          ["Write down hypotheses and baseline metrics", "Agree with stakeholders on what success means."],
          ["Summarise the findings for stakeholders", "One page: question, method, result, caveats."],
        ],
        game: [
          [
            "Build the main menu, pause menu and settings screens",
            "Support gamepad navigation in every menu.",
          ],
          ["Build the HUD for score, health and timers", "Keep it readable at small resolutions."],
          [`Add saving and loading with ${t.save}`, "Version the save format."],
          ["Add audio mixing and volume settings", "Separate music, effects and UI buses."],
        ],
        iot: [
          [
            "Write the main loop with non-blocking timers",
            "Use millis()-style timers or RTOS tasks, never long delays.",
          ],
          ["Implement the device state machine and error states", "Make every state visible over serial."],
          ["Add a watchdog and safe defaults after reset", "Outputs must start in their safe state."],
          ["Log status over serial for debugging", "Include uptime and free memory."],
        ],
        automation: [
          ["Add structured logging with run ids", "Log JSON lines with a run id and step name."],
          ["Add retries with back-off and timeouts", "Retry only transient errors."],
          ["Send failure notifications by e-mail or chat", "Include the run id and the failing step."],
          ["Record run history and basic metrics", "Keep duration, items processed and failures per run."],
        ],
      };
      return byFamily[f].map(([text, details], i) => d(text, details, i === 0 ? 5 : 4, "ui", i + 1));
    }
    case "tests": {
      const byFamily: Record<Family, [string, number, Category][]> = {
        web: [
          [`Set up ${t.test} with a test database and fixtures`, 4, "tests"],
          ["Write unit tests for the domain and service logic", 5, "tests"],
          ["Write integration tests for the API endpoints", 5, "tests"],
          [`Write ${t.e2e} end-to-end tests for the critical user flows`, 6, "tests"],
          ["Run all suites in CI with coverage reporting", 3, "infra"],
        ],
        api: [
          [`Set up ${t.test} with a disposable test database`, 4, "tests"],
          ["Write unit tests for the service layer", 5, "tests"],
          ["Write HTTP integration tests for every endpoint", 5, "tests"],
          ["Add contract tests against the OpenAPI specification", 4, "tests"],
          ["Run all suites in CI with coverage reporting", 3, "infra"],
        ],
        mobile: [
          [`Write unit tests for repositories and state with ${t.test}`, 5, "tests"],
          ["Write widget and screen tests for the main screens", 5, "tests"],
          [`Write ${t.e2e} flows for sign-in and the core journey`, 6, "tests"],
          ["Run the tests on emulators in CI", 4, "infra"],
          ["Test on a few real devices before each release", 3, "tests"],
        ],
        desktop: [
          [`Write ${t.test} unit tests for the core logic`, 5, "tests"],
          [`Write ${t.e2e} UI smoke tests`, 5, "tests"],
          [`Test installers on clean ${t.platforms} machines`, 4, "tests"],
          ["Run all suites in CI with coverage reporting", 3, "infra"],
        ],
        data: [
          [`Unit-test the transformations with ${t.test}`, 5, "tests"],
          ["Add data validation tests on sample inputs", 4, "tests"],
          ["Check results against a baseline and known totals", 5, "tests"],
          ["Run all checks in CI on every push", 3, "infra"],
        ],
        game: [
          [`Unit-test game rules and scoring with ${t.test}`, 5, "tests"],
          ["Run structured playtests and log every issue", 4, "tests"],
          ["Profile frame rate and memory on target hardware", 5, "tests"],
          ["Test saving and loading across versions", 4, "tests"],
        ],
        iot: [
          [`Unit-test pure firmware logic on the host with ${t.test}`, 5, "tests"],
          ["Write a hardware-in-the-loop test checklist", 4, "tests"],
          ["Run a 48-hour soak test on the bench", 4, "tests"],
          ["Test power loss and brown-out recovery", 4, "tests"],
        ],
        automation: [
          [`Unit-test parsing and transformation with ${t.test}`, 5, "tests"],
          ["Record fixtures of the target pages or APIs", 4, "tests"],
          ["Run a full dry run against a staging target", 4, "tests"],
          ["Run all tests in CI on every push", 3, "infra"],
        ],
      };
      return byFamily[f].map(([text, weight, category], i) =>
        d(
          text,
          `Use ${t.test}; name each test after the behaviour it checks and keep tests independent and fast.`,
          weight,
          category,
          i + 1,
        ),
      );
    }
    case "deploy": {
      const byFamily: Record<Family, [string, string][]> = {
        web: [
          [
            "Write a production Dockerfile and build configuration",
            "Use a multi-stage build and a non-root user.",
          ],
          [
            `Provision ${t.deploy}`,
            `Create staging and production environments with the production ${db} database.`,
          ],
          [
            "Set up continuous deployment with migrations on release",
            "Run migrations before switching traffic.",
          ],
          [
            "Configure the domain, HTTPS and security headers",
            "Enable HSTS and a strict Content-Security-Policy.",
          ],
          ["Add monitoring, error tracking and automated backups", "Alert on error rate and test a restore."],
        ],
        api: [
          ["Build a small production Docker image", "Use a multi-stage build and a non-root user."],
          [`Deploy to ${t.deploy} with health checks`, "Expose liveness and readiness endpoints."],
          [
            "Run migrations in the release pipeline",
            "Make migrations backwards-compatible for zero-downtime deploys.",
          ],
          ["Add metrics, tracing and alerting", "Use OpenTelemetry and alert on latency and error rate."],
          ["Schedule database backups and test a restore", "Keep point-in-time recovery enabled."],
        ],
        mobile: [
          [`Configure code signing for ${t.platforms}`, "Keep certificates and keystores in CI secrets."],
          [`Automate store builds with ${t.deploy}`, "Bump build numbers automatically."],
          [
            "Prepare store listings, screenshots and privacy details",
            "Fill in data-safety and privacy labels.",
          ],
          ["Run a beta through TestFlight and Play internal testing", "Collect feedback for one week."],
          ["Add crash reporting and release monitoring", "Watch crash-free sessions after each release."],
        ],
        desktop: [
          [`Package installers with ${t.deploy}`, "Produce one installer per platform."],
          ["Sign and notarise the builds", "Use an EV certificate on Windows and notarisation on macOS."],
          ["Set up automatic updates", "Roll out gradually and allow rollback."],
          ["Publish release notes and a download page", "Link checksums for every file."],
        ],
        data: [
          [
            `Package the pipeline for scheduled runs with ${t.deploy}`,
            "Pin versions and parameters per run.",
          ],
          ["Monitor data freshness and result quality", "Alert when inputs are late or metrics drift."],
          ["Document how to reproduce the results", "One command from raw data to report."],
          ["Share the results with stakeholders", "Send a summary with links to the full report."],
        ],
        game: [
          [`Set up build profiles for ${t.platforms}`, "Separate development and release settings."],
          [`Automate builds with ${t.deploy}`, "Produce versioned artefacts for every tag."],
          ["Prepare the store page, trailer and screenshots", "Capture footage from the release build."],
          [
            "Run a release-candidate checklist and submit",
            "Check performance, saves and input on every platform.",
          ],
        ],
        iot: [
          [
            `Flash the release firmware with ${t.deploy}`,
            "Tag the release and record the firmware version on the device.",
          ],
          [
            "Assemble the device in its enclosure and label the wiring",
            "Add strain relief and keep electronics away from water.",
          ],
          [
            "Install and commission the device on site",
            "Verify every sensor and output against a checklist.",
          ],
          [
            "Document calibration, maintenance and update steps",
            "Include how to recalibrate sensors and update firmware.",
          ],
        ],
        automation: [
          [`Package the automation for ${t.deploy}`, "Build one immutable artefact per release."],
          ["Configure schedules and triggers", "Avoid overlapping runs with a lock."],
          ["Set up failure alerts and log retention", "Alert on failures and on runs that did nothing."],
          ["Write the operations runbook", "Explain reruns, credentials rotation and rollback."],
        ],
      };
      return byFamily[f].map(([text, details], i) => d(text, details, i === 1 ? 5 : 4, "infra", i + 1));
    }
  }
}

/** Merged items take the most important steps of each part, alternating between parts. */
function mergedSteps(parts: BoilerKind[], a: BriefAnalysis): StepDef[] {
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

// ---------------------------------------------------------------------------------------------------------
// Levels 3+: smaller steps

const MICRO: Record<Category, [string, number][]> = {
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

function categoryHint(category: Category, t: Tech): string {
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

function microSpecs(parent: Spec, a: BriefAnalysis): Spec[] {
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

function leafSpecs(parent: Spec, a: BriefAnalysis, level: "leaf" | "deep" | "deeper"): Spec[] {
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

// ---------------------------------------------------------------------------------------------------------
// Children of any node, and reconstruction of a node from its path

/** Every child a node could have, before trimming (used both to split and to recognise a child's text). */
function candidates(spec: Spec, a: BriefAnalysis): Spec[] {
  switch (spec.level) {
    case "root":
      return planItems(a, 10);
    case "item": {
      const pad = `for ${a.title}`;
      if (spec.itemKind === "feature" && spec.feature)
        return featureSteps(spec.feature, a).map((d) => step(d, pad));
      if (spec.itemKind === "bundle" && spec.features) {
        const fs = spec.features;
        const items = fs.map((f, i) => featureItem(f, a, i));
        const nested = fs.slice(1, -1).map((_, k) => bundleItem(fs.slice(k + 1), a));
        return [...items, ...nested];
      }
      if (spec.parts) return mergedSteps(spec.parts, a).map((d) => step(d, pad));
      if (spec.itemKind && spec.itemKind !== "feature" && spec.itemKind !== "bundle")
        return boilerSteps(spec.itemKind as BoilerKind, a).map((d) => step(d, pad));
      return MICRO.generic.map(([template, weight], i) =>
        step(
          {
            text: template.replace("{obj}", clipWords(spec.obj, 12)),
            details: categoryHint("generic", a.tech),
            weight,
            category: "generic",
            priority: i,
          },
          pad,
        ),
      );
    }
    case "step":
      return microSpecs(spec, a);
    case "micro":
      return leafSpecs(spec, a, "leaf");
    case "leaf":
      return leafSpecs(spec, a, "deep");
    default:
      return leafSpecs(spec, a, "deeper");
  }
}

function chooseChildren(spec: Spec, a: BriefAnalysis, parentScore: number, maxSubtasks: number): Spec[] {
  if (spec.level === "root") return planItems(a, maxSubtasks);
  if (spec.level === "item" && spec.itemKind === "bundle" && spec.features) {
    const fs = spec.features;
    const n = childCount(parentScore, maxSubtasks, fs.length);
    if (fs.length <= n) return fs.map((f, i) => featureItem(f, a, i));
    const keep = Math.max(1, n - 1);
    return [...fs.slice(0, keep).map((f, i) => featureItem(f, a, i)), bundleItem(fs.slice(keep), a)];
  }
  const all = candidates(spec, a);
  return select(all, childCount(parentScore, maxSubtasks, all.length));
}

function normalise(text: string): string {
  return collapseSpaces(text)
    .toLowerCase()
    .replace(/[.\s]+$/, "");
}

const ITEM_KIND_PATTERNS: [BoilerKind, RegExp][] = [
  ["setup", /\b(set ?up|scaffold|bootstrap|toolchain|initiali[sz]e|project structure|repository)\b/i],
  ["data", /\b(schema|data model|database|migrations?|persistence|storage|wire|wiring|ingest\w*)\b/i],
  ["auth", /\b(auth\w*|sign[- ]?in|log ?in|accounts?|sign[- ]?up)\b/i],
  ["tests", /\b(tests?|testing|qa|playtest\w*)\b/i],
  ["deploy", /\b(deploy\w*|release|publish|hosting|ship|launch|flash|install|package)\b/i],
];

const CATEGORY_PATTERNS: [Category, RegExp][] = [
  ["tests", /\b(tests?|testing|playtest\w*|qa|checklist|verify)\b/i],
  [
    "infra",
    /\b(deploy\w*|release|provision\w*|docker\w*|ci|hosting|backups?|https|domain|flash\w*|package|installers?)\b/i,
  ],
  [
    "model",
    /\b(schema|migrations?|tables?|data model|database|entity|entities|collections?|seed|index(es)?)\b/i,
  ],
  ["api", /\b(endpoints?|api|routes?|handlers?|controllers?|rest|graphql)\b/i],
  ["ui", /\b(pages?|screens?|views?|forms?|components?|ui|layout|widgets?|dialogs?|hud|menus?)\b/i],
  ["hardware", /\b(wire|wiring|breadboard|circuit|pins?|solder\w*|enclosure)\b/i],
  ["firmware", /\b(firmware|driver|sensors?|gpio|i2c|spi|interrupts?)\b/i],
  ["auth", /\b(auth\w*|sign[- ]?in|login|passwords?|sessions?|tokens?)\b/i],
  ["integration", /\b(integrat\w*|webhooks?|sdk|third[- ]party|provider)\b/i],
  ["tooling", /\b(set ?up|configure|install|scaffold|lint\w*)\b/i],
  ["data", /\b(data|clean|ingest\w*|features?|pipeline|transform\w*)\b/i],
  ["docs", /\b(document\w*|readme|docs)\b/i],
  ["scene", /\b(scenes?|prefabs?|sprites?|levels?|animations?)\b/i],
];

function classifyCategory(text: string): Category {
  for (const [category, pattern] of CATEGORY_PATTERNS) if (pattern.test(text)) return category;
  return "logic";
}

/** A node whose text the planner did not write (edited, added by hand, or from another planner). */
function classify(text: string, depth: number, a: BriefAnalysis): Spec {
  const base = { description: text, details: "", priority: 0, obj: objFromText(text) };
  if (depth <= 1) {
    const kinds = ITEM_KIND_PATTERNS.filter(([, p]) => p.test(text)).map(([k]) => k);
    const looksBoiler = kinds.length > 0 && !/^(let|implement|build the \w+ feature)\b/i.test(text);
    if (looksBoiler && kinds.length > 1)
      return { ...base, level: "item", itemKind: "foundation", parts: kinds, weight: 8, category: "generic" };
    if (looksBoiler) return { ...base, level: "item", itemKind: kinds[0]!, weight: 6, category: "generic" };
    const stripped = text
      .replace(/^(let|allow)\s+\w+\s+/i, "")
      .replace(/^(implement|build|add|create|develop|support)\s+/i, "")
      .split(":")[0]!
      .trim();
    const topic = detectTopic(stripped, a.tech.family);
    const feature: Feature = {
      phrase: lowerFirst(stripped),
      actor: null,
      verbal: false,
      verb: null,
      topic,
      entity: topic ? entityFromPascal(topic.entity) : entityFromPascal("Item"),
      label: capitalise(clipWords(stripped, 9)),
      subject: clipWords(lowerFirst(stripped), 9),
      weight: Math.max(6, topic?.weight ?? 6),
    };
    return {
      ...base,
      level: "item",
      itemKind: "feature",
      feature,
      weight: feature.weight,
      category: "generic",
    };
  }
  const level: Level = depth === 2 ? "step" : depth === 3 ? "micro" : depth === 4 ? "leaf" : "deep";
  return { ...base, level, weight: 6, category: classifyCategory(text) };
}

/** Rebuilds the spec of the node being split by walking its ancestors from the root. */
export function resolveSpec(a: BriefAnalysis, request: SplitRequest): Spec {
  const rootSpec: Spec = {
    level: "root",
    description: request.task.description,
    details: "",
    weight: 10,
    priority: 0,
    category: "generic",
    obj: a.title,
  };
  if (request.depth <= 0) return rootSpec;
  const consistent = request.ancestors.length === request.depth;
  const path = consistent
    ? [...request.ancestors.slice(1), request.task.description]
    : [request.task.description];
  let spec: Spec = rootSpec;
  path.forEach((text, i) => {
    const depth = consistent ? i + 1 : request.depth;
    const pool =
      depth === 1
        ? [
            ...planItems(a, request.maxSubtasks),
            ...Array.from({ length: 9 }, (_, k) => planItems(a, k + 2)).flat(),
          ]
        : consistent
          ? candidates(spec, a)
          : [];
    const wanted = normalise(text);
    spec = pool.find((c) => normalise(c.description) === wanted) ?? classify(text, depth, a);
  });
  return spec;
}

/** The first-level item a task description came from, if the offline planner wrote it. */
export function findItem(a: BriefAnalysis, description: string): Spec {
  const wanted = normalise(description);
  for (let n = 10; n >= 1; n--) {
    const found = planItems(a, n).find((c) => normalise(c.description) === wanted);
    if (found) return found;
  }
  return classify(description, 1, a);
}

export function splitNode(a: BriefAnalysis, request: SplitRequest): PlannedSubtask[] {
  const spec = resolveSpec(a, request);
  const parentScore = Math.max(
    1,
    Math.min(
      10,
      Math.round(
        request.task.complexity_score ?? Math.max(1, a.assessment.score - Math.max(0, request.depth)),
      ),
    ),
  );
  const maxSubtasks = Math.max(1, Math.min(10, Math.floor(request.maxSubtasks)));
  const chosen = chooseChildren(spec, a, parentScore, maxSubtasks).slice(0, maxSubtasks);
  const seen = new Set<string>();
  const out: PlannedSubtask[] = [];
  for (const child of chosen) {
    const key = normalise(child.description);
    if (seen.has(key)) continue;
    seen.add(key);
    const score = childScore(parentScore, child.weight);
    out.push({
      description: child.description,
      complexity_score: score,
      story_points: storyPointsFor(score),
      implementation_details: child.details.trim() || categoryHint(child.category, a.tech),
    });
  }
  return out;
}
