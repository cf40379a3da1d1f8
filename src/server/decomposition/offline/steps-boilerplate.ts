import type { BriefAnalysis } from "./brief";
import type { BoilerKind, Category, StepDef } from "./spec";
import type { Family } from "./tech";
import { dbName, entityList, frontendName, theLib } from "./wording";

/** Level 2: the steps of setup, data, authentication, app shell, tests and deployment items, per family. */

export function boilerSteps(kind: BoilerKind, a: BriefAnalysis): StepDef[] {
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
