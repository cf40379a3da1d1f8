import { APPLICATION_TYPES, type ApplicationTypeId, findApplicationType } from "../../../shared/catalogue";
import type { ProjectBrief } from "../planner";

/** Groups of application types that share a planning vocabulary. */
export type Family = "web" | "mobile" | "api" | "desktop" | "data" | "game" | "iot" | "automation";

const FAMILY_OF: Record<ApplicationTypeId, Family> = {
  "web-application": "web",
  ecommerce: "web",
  cms: "web",
  "mobile-application": "mobile",
  "api-backend": "api",
  "desktop-application": "desktop",
  "data-science": "data",
  game: "game",
  iot: "iot",
  automation: "automation",
};

type StackFields = {
  id: string;
  name: string;
  description: string;
  frontend_framework: string;
  backend_language: string;
  database: string;
};

/** Concrete tools per stack, so plans name real libraries rather than "the framework". */
type StackExtra = {
  project: string;
  server?: string;
  dataLib?: string;
  auth?: string;
  test?: string;
  e2e?: string;
  lint?: string;
  deploy?: string;
  realtime?: string;
  state?: string;
  platforms?: string;
  push?: string;
  validation?: string;
  payments?: string;
  viz?: string;
  ml?: string;
  save?: string;
  scene?: string;
  net?: string;
  toolchain?: string;
  board?: string;
  storage?: string;
  lib?: string;
  output?: string;
};

const EXTRAS: Record<string, StackExtra> = {
  // web
  "react-node-postgres": {
    project: "React + Express",
    server: "Express",
    dataLib: "Prisma",
    auth: "secure HTTP-only session cookies",
    deploy: "Docker on Fly.io with managed PostgreSQL",
    realtime: "Socket.IO",
  },
  "nextjs-postgres": {
    project: "Next.js",
    server: "Next.js route handlers",
    dataLib: "Prisma",
    auth: "Auth.js",
    deploy: "Vercel with a managed PostgreSQL (e.g. Neon)",
    realtime: "server-sent events",
  },
  "vue-express-mongodb": {
    project: "Vue + Express",
    server: "Express",
    dataLib: "Mongoose",
    auth: "Passport sessions",
    deploy: "Docker on Render with MongoDB Atlas",
    realtime: "Socket.IO",
  },
  "django-postgres": {
    project: "Django",
    server: "Django views",
    dataLib: "the Django ORM",
    auth: "django-allauth",
    test: "pytest-django",
    deploy: "Docker with Gunicorn on a managed host",
    realtime: "Django Channels",
  },
  "rails-postgres": {
    project: "Rails",
    server: "Rails controllers",
    dataLib: "Active Record",
    auth: "Devise",
    e2e: "Capybara",
    deploy: "a VPS with Kamal",
    realtime: "Action Cable",
  },
  "laravel-mysql": {
    project: "Laravel",
    server: "Laravel controllers",
    dataLib: "Eloquent",
    auth: "Laravel Breeze",
    test: "Pest",
    e2e: "Laravel Dusk",
    lint: "Laravel Pint",
    deploy: "Laravel Forge",
    realtime: "Laravel Reverb",
  },
  "sveltekit-supabase": {
    project: "SvelteKit",
    server: "SvelteKit endpoints",
    dataLib: "the Supabase client",
    auth: "Supabase Auth",
    deploy: "Vercel with Supabase",
    realtime: "Supabase Realtime",
  },
  "wordpress-mysql": {
    project: "WordPress",
    server: "a custom WordPress plugin",
    dataLib: "custom post types and tables",
    auth: "WordPress users and roles",
    test: "PHPUnit with the WordPress test suite",
    lint: "PHP_CodeSniffer (WordPress standards)",
    deploy: "a managed WordPress host with staging",
    realtime: "Heartbeat API polling",
  },
  // mobile
  "flutter-firebase": {
    project: "Flutter",
    server: "Cloud Functions for Firebase",
    dataLib: "the cloud_firestore package",
    auth: "Firebase Authentication",
    test: "flutter_test",
    e2e: "integration_test",
    lint: "dart analyze (flutter_lints)",
    deploy: "Fastlane and Firebase App Distribution",
    state: "Riverpod",
    platforms: "iOS and Android",
    push: "Firebase Cloud Messaging",
    realtime: "Firestore snapshot listeners",
  },
  "react-native-expo": {
    project: "React Native (Expo)",
    dataLib: "expo-sqlite",
    auth: "Expo AuthSession",
    test: "Jest with React Native Testing Library",
    e2e: "Maestro",
    deploy: "EAS Build and EAS Submit",
    state: "Zustand",
    platforms: "iOS and Android",
    push: "Expo Notifications",
  },
  "swift-ios": {
    project: "SwiftUI",
    dataLib: "SwiftData",
    auth: "Sign in with Apple",
    test: "XCTest",
    e2e: "XCUITest",
    lint: "SwiftLint",
    deploy: "Xcode Cloud and TestFlight",
    state: "the Observation framework",
    platforms: "iOS",
    push: "APNs",
  },
  "kotlin-android": {
    project: "Jetpack Compose",
    dataLib: "Room",
    auth: "Credential Manager",
    test: "JUnit and Compose UI tests",
    e2e: "Espresso",
    lint: "ktlint and Android Lint",
    deploy: "Gradle Play Publisher",
    state: "ViewModel with StateFlow",
    platforms: "Android",
    push: "Firebase Cloud Messaging",
  },
  "kotlin-multiplatform": {
    project: "Compose Multiplatform",
    dataLib: "SQLDelight",
    auth: "a shared Ktor auth client",
    test: "kotlin.test",
    e2e: "Compose UI tests",
    lint: "ktlint",
    deploy: "Fastlane",
    state: "shared ViewModels with StateFlow",
    platforms: "iOS and Android",
    push: "FCM and APNs",
  },
  "ionic-angular-capacitor": {
    project: "Ionic Angular",
    dataLib: "the Capacitor SQLite plugin",
    auth: "OAuth with Capacitor Browser",
    test: "Jest",
    e2e: "Cypress",
    deploy: "Fastlane",
    state: "Angular signals and services",
    platforms: "iOS and Android",
    push: "Capacitor Push Notifications",
  },
  "dotnet-maui": {
    project: ".NET MAUI",
    dataLib: "sqlite-net",
    auth: "MSAL",
    test: "xUnit",
    e2e: "Appium",
    deploy: "signed dotnet publish builds",
    state: "CommunityToolkit.Mvvm view models",
    platforms: "Android, iOS, Windows and macOS",
    push: "platform push services",
  },
  // api
  "fastapi-postgres": {
    project: "FastAPI",
    server: "FastAPI",
    dataLib: "SQLAlchemy with Alembic",
    auth: "OAuth2 bearer tokens (JWT)",
    test: "pytest with HTTPX",
    lint: "Ruff and mypy",
    deploy: "Docker with Uvicorn on a container platform",
    realtime: "FastAPI WebSockets",
    validation: "Pydantic models",
  },
  "go-gin-postgres": {
    project: "Gin",
    server: "Gin",
    dataLib: "pgx with sqlc and golang-migrate",
    auth: "JWT middleware",
    test: "go test with testcontainers",
    deploy: "Cloud Run as a distroless Docker image",
    validation: "go-playground/validator",
  },
  "spring-boot-postgres": {
    project: "Spring Boot",
    server: "Spring Web MVC",
    dataLib: "Spring Data JPA with Flyway",
    auth: "Spring Security (OAuth2 resource server)",
    test: "JUnit 5 with Testcontainers",
    deploy: "Kubernetes as a Docker image",
    validation: "Bean Validation",
  },
  "nestjs-postgres": {
    project: "NestJS",
    server: "NestJS controllers",
    dataLib: "Prisma",
    auth: "Passport JWT guards",
    test: "Jest with Supertest",
    deploy: "Docker on a container platform",
    validation: "class-validator DTOs",
    realtime: "NestJS gateways",
  },
  "express-mongodb": {
    project: "Express",
    server: "Express",
    dataLib: "Mongoose",
    auth: "Passport JWT",
    test: "Vitest with Supertest",
    deploy: "Docker with MongoDB Atlas",
    validation: "zod",
  },
  "aspnet-core-sqlserver": {
    project: "ASP.NET Core",
    server: "ASP.NET Core minimal APIs",
    dataLib: "Entity Framework Core",
    auth: "ASP.NET Core Identity with JWT bearer",
    test: "xUnit with WebApplicationFactory",
    deploy: "Azure App Service with Azure SQL",
    validation: "FluentValidation",
    realtime: "SignalR",
  },
  "rust-axum-postgres": {
    project: "Axum",
    server: "Axum",
    dataLib: "SQLx",
    auth: "JWT extractors",
    test: "cargo test with sqlx::test",
    deploy: "a container platform as a static Docker image",
    validation: "serde with validator",
    realtime: "Axum WebSockets",
  },
  "phoenix-postgres": {
    project: "Phoenix",
    server: "Phoenix controllers",
    dataLib: "Ecto",
    auth: "phx.gen.auth",
    test: "ExUnit",
    lint: "Credo",
    deploy: "Fly.io with Elixir releases",
    validation: "Ecto changesets",
    realtime: "Phoenix Channels",
  },
  // desktop
  "electron-react": {
    project: "Electron + React",
    dataLib: "better-sqlite3",
    e2e: "Playwright for Electron",
    deploy: "electron-builder and electron-updater",
    state: "Zustand",
    platforms: "Windows, macOS and Linux",
  },
  "tauri-react": {
    project: "Tauri + React",
    dataLib: "the Tauri SQL plugin",
    test: "Vitest and cargo test",
    e2e: "WebdriverIO with tauri-driver",
    lint: "ESLint and Clippy",
    deploy: "the Tauri bundler and updater plugin",
    state: "Zustand",
    platforms: "Windows, macOS and Linux",
  },
  "qt-cpp": {
    project: "Qt",
    dataLib: "Qt SQL",
    test: "Qt Test",
    lint: "clang-tidy and clang-format",
    deploy: "CPack, windeployqt and macdeployqt",
    platforms: "Windows, macOS and Linux",
  },
  "wpf-dotnet": {
    project: "WPF",
    dataLib: "EF Core with SQLite",
    test: "xUnit",
    e2e: "FlaUI",
    deploy: "MSIX packaging and App Installer updates",
    state: "CommunityToolkit.Mvvm",
    platforms: "Windows",
  },
  "avalonia-dotnet": {
    project: "Avalonia",
    dataLib: "EF Core with SQLite",
    test: "xUnit with Avalonia.Headless",
    deploy: "Velopack",
    state: "ReactiveUI view models",
    platforms: "Windows, macOS and Linux",
  },
  "flutter-desktop": {
    project: "Flutter desktop",
    dataLib: "drift (SQLite)",
    test: "flutter_test",
    e2e: "integration_test",
    lint: "dart analyze",
    deploy: "MSIX, DMG and AppImage packages",
    state: "Riverpod",
    platforms: "Windows, macOS and Linux",
  },
  "javafx-java": {
    project: "JavaFX",
    dataLib: "JDBC with Flyway on H2",
    test: "JUnit 5 with TestFX",
    deploy: "jpackage",
    platforms: "Windows, macOS and Linux",
  },
  // data science
  "python-pandas-jupyter": {
    project: "Jupyter + pandas",
    dataLib: "pandas with Parquet files",
    deploy: "scheduled nbconvert HTML reports",
    viz: "Matplotlib",
    ml: "scikit-learn",
  },
  "pytorch-fastapi": {
    project: "PyTorch + FastAPI",
    server: "FastAPI",
    dataLib: "SQLAlchemy",
    lint: "Ruff and mypy",
    deploy: "a GPU-enabled Docker image serving FastAPI",
    viz: "TensorBoard",
    ml: "PyTorch",
  },
  "spark-databricks": {
    project: "PySpark on Databricks",
    dataLib: "Delta Lake tables",
    test: "pytest with chispa",
    deploy: "Databricks Workflows",
    viz: "Databricks dashboards",
    ml: "Spark MLlib",
  },
  "tensorflow-keras": {
    project: "TensorFlow + Keras",
    dataLib: "tf.data pipelines",
    deploy: "TensorFlow Serving in Docker",
    viz: "TensorBoard",
    ml: "Keras",
  },
  "scikit-learn-mlflow": {
    project: "scikit-learn + MLflow",
    dataLib: "pandas and PostgreSQL",
    deploy: "the MLflow model registry and model serving",
    viz: "the MLflow UI",
    ml: "scikit-learn",
  },
  "streamlit-python": {
    project: "Streamlit",
    dataLib: "DuckDB",
    test: "pytest with Streamlit AppTest",
    deploy: "Streamlit Community Cloud",
    viz: "Streamlit with Altair",
    ml: "scikit-learn",
  },
  "r-shiny": {
    project: "R Shiny",
    dataLib: "DBI with RPostgres",
    test: "testthat and shinytest2",
    lint: "lintr",
    deploy: "Posit Connect or shinyapps.io",
    viz: "ggplot2",
    ml: "tidymodels",
  },
  // e-commerce
  "shopify-liquid": {
    project: "Shopify theme",
    server: "a Shopify app",
    dataLib: "products, metafields and metaobjects",
    auth: "Shopify customer accounts",
    test: "Shopify Theme Check",
    lint: "Shopify Theme Check",
    deploy: "the live Shopify store via the Shopify CLI",
    payments: "Shopify Payments",
  },
  "magento-php": {
    project: "Magento",
    server: "Magento modules",
    dataLib: "declarative schema (db_schema.xml)",
    auth: "Magento customer accounts",
    e2e: "the Magento Functional Testing Framework",
    lint: "PHP_CodeSniffer (Magento standard)",
    deploy: "Docker with Varnish and OpenSearch",
    payments: "Adyen or Braintree",
  },
  "medusa-nextjs": {
    project: "Medusa + Next.js",
    server: "Medusa API routes",
    dataLib: "Medusa data models",
    auth: "Medusa customer auth",
    test: "Jest",
    deploy: "Railway for Medusa and Vercel for the storefront",
    payments: "Stripe",
  },
  "woocommerce-php": {
    project: "WooCommerce",
    server: "a custom WooCommerce plugin",
    dataLib: "WooCommerce products and custom tables",
    auth: "WooCommerce customer accounts",
    lint: "PHP_CodeSniffer",
    deploy: "a managed WordPress host",
    payments: "WooPayments or Stripe",
  },
  "saleor-django": {
    project: "Saleor",
    server: "Saleor GraphQL and apps",
    dataLib: "the Django ORM",
    auth: "Saleor JWT auth",
    deploy: "Docker on Kubernetes or Saleor Cloud",
    payments: "Stripe via the Saleor app",
  },
  "sylius-symfony": {
    project: "Sylius",
    server: "Symfony controllers",
    dataLib: "Doctrine",
    auth: "Symfony Security",
    test: "PHPUnit and Behat",
    e2e: "Behat",
    lint: "PHPStan and ECS",
    deploy: "Docker on Platform.sh",
    payments: "Payum with Stripe",
  },
  // CMS
  "strapi-react": {
    project: "Strapi + React",
    server: "the Strapi content API",
    dataLib: "Strapi content types",
    auth: "Strapi users and permissions",
    test: "Jest",
    deploy: "Strapi Cloud with a static React build",
  },
  "ghost-node": {
    project: "Ghost",
    server: "the Ghost Content API",
    dataLib: "Ghost posts, tags and members",
    auth: "Ghost members",
    test: "Playwright",
    lint: "gscan",
    deploy: "Ghost(Pro) or Docker with MySQL",
  },
  "drupal-php": {
    project: "Drupal",
    server: "Drupal custom modules",
    dataLib: "content types and fields",
    auth: "Drupal roles and permissions",
    e2e: "Nightwatch",
    lint: "PHP_CodeSniffer (Drupal)",
    deploy: "Pantheon with Composer builds",
  },
  "sanity-nextjs": {
    project: "Sanity + Next.js",
    server: "Next.js route handlers",
    dataLib: "Sanity schemas and GROQ",
    auth: "Sanity Studio roles",
    deploy: "Vercel with the hosted Sanity Studio",
    realtime: "Sanity live content",
  },
  "payload-nextjs": {
    project: "Payload + Next.js",
    server: "Payload collections",
    dataLib: "Payload collections with the Postgres adapter",
    auth: "Payload auth",
    deploy: "Vercel or Docker with PostgreSQL",
  },
  // games
  "unity-csharp": {
    project: "Unity",
    test: "the Unity Test Framework",
    lint: "Roslyn analyzers",
    deploy: "Unity Build Automation",
    save: "JSON save files in persistentDataPath",
    scene: "scenes and prefabs",
    net: "Netcode for GameObjects",
    platforms: "PC and mobile",
  },
  "godot-gdscript": {
    project: "Godot",
    test: "GUT",
    lint: "gdlint",
    deploy: "Godot export templates",
    save: "ConfigFile and JSON saves in user://",
    scene: "scenes and nodes",
    net: "the high-level multiplayer API",
    platforms: "PC and web",
  },
  "unreal-cpp": {
    project: "Unreal Engine",
    test: "the Automation Test framework",
    lint: "clang-tidy",
    deploy: "the Unreal Automation Tool (BuildCookRun)",
    save: "USaveGame objects",
    scene: "levels, actors and Blueprints",
    net: "actor replication",
    platforms: "PC and consoles",
  },
  "phaser-typescript": {
    project: "Phaser",
    test: "Vitest",
    deploy: "itch.io butler uploads",
    save: "localStorage saves",
    scene: "Phaser scenes and sprites",
    net: "Colyseus",
    platforms: "the browser",
  },
  "pygame-python": {
    project: "Pygame",
    deploy: "PyInstaller",
    save: "JSON save files",
    scene: "game states and sprites",
    net: "a WebSocket game server",
    platforms: "Windows, macOS and Linux",
  },
  "bevy-rust": {
    project: "Bevy",
    deploy: "cargo (native and WASM targets)",
    save: "serde save files",
    scene: "ECS systems and bundles",
    net: "bevy_replicon",
    platforms: "PC and web",
  },
  // IoT
  "arduino-cpp": {
    project: "Arduino",
    toolchain: "PlatformIO with the Arduino framework",
    test: "PlatformIO unit tests (Unity)",
    lint: "clang-format",
    deploy: "PlatformIO USB flashing",
    storage: "EEPROM",
    board: "Arduino board",
  },
  "raspberry-pi-python": {
    project: "Raspberry Pi",
    toolchain: "Python 3 with gpiozero on Raspberry Pi OS",
    test: "pytest with mocked GPIO",
    deploy: "a systemd service on the Pi",
    storage: "a SQLite database",
    board: "Raspberry Pi",
  },
  "esp32-micropython": {
    project: "ESP32",
    toolchain: "MicroPython with mpremote",
    test: "pytest on the host with a stubbed machine module",
    deploy: "mpremote uploads and OTA updates",
    storage: "a JSON config file in flash",
    board: "ESP32",
  },
  "zephyr-rtos-c": {
    project: "Zephyr",
    toolchain: "the Zephyr SDK with west",
    test: "Ztest and Twister",
    lint: "checkpatch and clang-format",
    deploy: "west flash with MCUboot updates",
    storage: "the Zephyr settings subsystem (NVS)",
    board: "Zephyr-supported board",
  },
  "rust-embassy": {
    project: "Embassy",
    toolchain: "Rust with probe-rs and Embassy",
    test: "defmt-test",
    lint: "Clippy",
    deploy: "probe-rs flashing",
    storage: "sequential-storage in flash",
    board: "microcontroller",
  },
  "node-red-influxdb": {
    project: "Node-RED",
    toolchain: "Node-RED with Mosquitto MQTT and InfluxDB",
    test: "node-red-node-test-helper",
    deploy: "Docker Compose on an edge gateway",
    storage: "InfluxDB",
    board: "edge gateway",
  },
  // automation
  "python-selenium": {
    project: "Python + Selenium",
    deploy: "a scheduled container (cron or GitHub Actions)",
    lib: "Selenium WebDriver",
    output: "CSV files or a database",
  },
  "playwright-node": {
    project: "Playwright",
    test: "Playwright Test",
    deploy: "scheduled GitHub Actions workflows",
    lib: "Playwright",
    output: "JSON reports",
  },
  n8n: {
    project: "n8n",
    test: "n8n test executions with pinned data",
    lint: "workflow reviews",
    deploy: "self-hosted n8n in Docker with PostgreSQL",
    lib: "n8n nodes",
    output: "PostgreSQL tables",
  },
  "airflow-python": {
    project: "Airflow",
    test: "pytest DAG integrity tests",
    deploy: "Airflow on Kubernetes or a managed Airflow",
    lib: "Airflow operators",
    output: "PostgreSQL tables",
  },
  "powershell-scripts": {
    project: "PowerShell",
    test: "Pester",
    lint: "PSScriptAnalyzer",
    deploy: "Task Scheduler or Azure Automation runbooks",
    lib: "PowerShell modules",
    output: "CSV reports",
  },
  "ansible-yaml": {
    project: "Ansible",
    test: "Molecule",
    lint: "ansible-lint",
    deploy: "AWX or a CI pipeline running the playbooks",
    lib: "Ansible roles and modules",
    output: "inventory facts and reports",
  },
};

type LanguageDefaults = { test: string; lint: string; e2e: string };

function languageDefaults(language: string): LanguageDefaults {
  const l = language.toLowerCase();
  if (l.includes("typescript") || l.includes("javascript"))
    return { test: "Vitest", lint: "ESLint and Prettier", e2e: "Playwright" };
  if (l.includes("python")) return { test: "pytest", lint: "Ruff", e2e: "Playwright" };
  if (l === "go") return { test: "go test", lint: "golangci-lint", e2e: "HTTP integration tests" };
  if (l.includes("java")) return { test: "JUnit 5", lint: "Checkstyle", e2e: "Testcontainers" };
  if (l.includes("c#")) return { test: "xUnit", lint: ".NET analyzers", e2e: "Playwright for .NET" };
  if (l.includes("rust")) return { test: "cargo test", lint: "Clippy and rustfmt", e2e: "integration tests" };
  if (l.includes("ruby")) return { test: "RSpec", lint: "RuboCop", e2e: "Capybara" };
  if (l.includes("php")) return { test: "PHPUnit", lint: "PHP_CodeSniffer", e2e: "Playwright" };
  if (l.includes("elixir")) return { test: "ExUnit", lint: "Credo", e2e: "Wallaby" };
  if (l.includes("dart")) return { test: "flutter_test", lint: "dart analyze", e2e: "integration_test" };
  if (l.includes("kotlin")) return { test: "JUnit", lint: "ktlint", e2e: "Espresso" };
  if (l.includes("swift")) return { test: "XCTest", lint: "SwiftLint", e2e: "XCUITest" };
  if (l.includes("c++")) return { test: "GoogleTest", lint: "clang-format", e2e: "smoke tests" };
  if (l === "c") return { test: "Unity (ThrowTheSwitch)", lint: "clang-format", e2e: "bench tests" };
  if (l.includes("gdscript")) return { test: "GUT", lint: "gdlint", e2e: "playtests" };
  if (l === "r") return { test: "testthat", lint: "lintr", e2e: "shinytest2" };
  if (l.includes("powershell")) return { test: "Pester", lint: "PSScriptAnalyzer", e2e: "dry runs" };
  if (l.includes("yaml")) return { test: "Molecule", lint: "ansible-lint", e2e: "staging runs" };
  return { test: "unit tests", lint: "a linter and formatter", e2e: "end-to-end tests" };
}

const DEFAULT_DEPLOY: Record<Family, string> = {
  web: "Docker on a managed container host",
  mobile: "Fastlane to the App Store and Google Play",
  api: "Docker on a container platform",
  desktop: "signed installers with auto-update",
  data: "a scheduled job with versioned outputs",
  game: "platform builds",
  iot: "USB flashing",
  automation: "a scheduled job",
};

/** Everything the planner's templates need about the chosen (or inferred) stack. */
export type Tech = {
  family: Family;
  typeId: ApplicationTypeId;
  typeLabel: string;
  stack: StackFields;
  /** Short front end name ("React"), null when the stack has none. */
  frontend: string | null;
  language: string;
  runtime: string | null;
  server: string | null;
  /** Short database name ("PostgreSQL"), null when the stack has none. */
  database: string | null;
  project: string;
  dataLib: string;
  auth: string;
  test: string;
  e2e: string;
  lint: string;
  ci: string;
  deploy: string;
  realtime: string;
  state: string;
  platforms: string;
  push: string;
  validation: string;
  payments: string;
  viz: string;
  ml: string;
  save: string;
  scene: string;
  net: string;
  toolchain: string;
  board: string;
  storage: string;
  lib: string;
  output: string;
  /** Document store (MongoDB, Firestore…) rather than tables. */
  documentStore: boolean;
};

function shortName(value: string): string | null {
  const trimmed = value.replace(/\s*\([^)]*\)\s*/g, " ").trim();
  if (trimmed === "" || /^none$/i.test(trimmed)) return null;
  return trimmed;
}

const TYPE_HINTS: [ApplicationTypeId, RegExp][] = [
  ["iot", /\b(arduino|esp32|esp8266|raspberry|microcontroller|firmware|sensors?|iot|embedded|gpio|mqtt)\b/i],
  ["mobile-application", /\b(flutter|react native|ios|android|iphone|mobile app|mobile|swiftui|kotlin)\b/i],
  ["game", /\b(game|unity|godot|unreal|phaser|pygame|platformer|rpg|shooter|multiplayer)\b/i],
  [
    "data-science",
    /\b(machine learning|dataset|data set|jupyter|pandas|data analysis|model training|notebook|churn|forecast\w*)\b/i,
  ],
  [
    "automation",
    /\b(scrap\w*|crawler|automat\w*|bot|cron|selenium|playwright|workflow|ansible|powershell)\b/i,
  ],
  ["desktop-application", /\b(desktop|electron|tauri|windows app|macos app|wpf)\b/i],
  ["ecommerce", /\b(e-?commerce|online (shop|store)|shopify|webshop|woocommerce|storefront)\b/i],
  ["cms", /\b(cms|blog|content management|headless cms|wordpress)\b/i],
  ["api-backend", /\b(rest api|graphql|microservice|backend service|api service|web api)\b/i],
];

function inferTypeId(text: string): ApplicationTypeId {
  for (const [id, pattern] of TYPE_HINTS) if (pattern.test(text)) return id;
  return "web-application";
}

/** A stack named in the description ("Flutter", "Django"…), else the type's first stack. */
function inferStack(typeId: ApplicationTypeId, text: string): StackFields {
  const type = findApplicationType(typeId) ?? APPLICATION_TYPES[0]!;
  const lower = text.toLowerCase();
  let best: StackFields | null = null;
  let bestLength = 0;
  for (const stack of type.stacks) {
    for (const part of stack.name.split(/\s*\+\s*|\s*\(\s*|\)\s*/)) {
      const key = part.trim().toLowerCase();
      if (key.length < 3) continue;
      const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (new RegExp(`(^|[^a-z])${escaped}([^a-z]|$)`).test(lower) && key.length > bestLength) {
        best = stack;
        bestLength = key.length;
      }
    }
  }
  return best ?? type.stacks[0]!;
}

export function resolveTech(brief: ProjectBrief): Tech {
  const text = `${brief.description} ${brief.additionalRequirements ?? ""}`;
  let typeId: ApplicationTypeId;
  const known = brief.applicationType ? findApplicationType(brief.applicationType.id) : undefined;
  if (known) typeId = known.id;
  else if (brief.stack) {
    const owner = APPLICATION_TYPES.find((t) => t.stacks.some((s) => s.id === brief.stack?.id));
    typeId = owner?.id ?? inferTypeId(text);
  } else typeId = inferTypeId(text);
  const type = findApplicationType(typeId) ?? APPLICATION_TYPES[0]!;
  const family = FAMILY_OF[typeId];
  const stack: StackFields = brief.stack ?? inferStack(typeId, text);
  const extra: StackExtra = EXTRAS[stack.id] ?? { project: stack.name };
  const languageRaw = stack.backend_language;
  const language = shortName(languageRaw) ?? languageRaw;
  const runtimeMatch = /\(([^)]*)\)/.exec(languageRaw);
  const defaults = languageDefaults(languageRaw);
  const database = shortName(stack.database);
  const frontend = shortName(stack.frontend_framework);
  const server = extra.server ?? null;
  return {
    family,
    typeId,
    typeLabel: brief.applicationType?.label ?? type.label,
    stack,
    frontend,
    language,
    runtime: runtimeMatch?.[1] ?? null,
    server,
    database,
    project: extra.project,
    dataLib: extra.dataLib ?? (database ? `${database} migrations` : "local files"),
    auth: extra.auth ?? `${server ?? language} authentication`,
    test: extra.test ?? defaults.test,
    e2e: extra.e2e ?? defaults.e2e,
    lint: extra.lint ?? defaults.lint,
    ci: "GitHub Actions",
    deploy: extra.deploy ?? DEFAULT_DEPLOY[family],
    realtime: extra.realtime ?? "WebSockets",
    state: extra.state ?? "a view-model layer",
    platforms: extra.platforms ?? (family === "mobile" ? "iOS and Android" : "Windows, macOS and Linux"),
    push: extra.push ?? "platform push notifications",
    validation: extra.validation ?? "schema validation",
    payments: extra.payments ?? "Stripe",
    viz: extra.viz ?? "charts",
    ml: extra.ml ?? "scikit-learn",
    save: extra.save ?? "local save files",
    scene: extra.scene ?? "scenes",
    net: extra.net ?? "a networking layer",
    toolchain: extra.toolchain ?? `the ${language} toolchain`,
    board: extra.board ?? "board",
    storage: extra.storage ?? "non-volatile storage",
    lib: extra.lib ?? `${language} libraries`,
    output: extra.output ?? (database ? `${database} tables` : "CSV files"),
    documentStore: /mongo|firestore|sanity/i.test(stack.database),
  };
}
