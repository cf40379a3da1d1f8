/**
 * The technologies the planning evaluation recognises in descriptions and plans, with what each implies.
 *
 * - `pattern`: how the name is written; boundaries are explicit (a name may contain "." or "#"), and names
 *   that are also English words ("Go", "Express", "Render", "Lambda") are matched only in technical phrasing
 *   and case-sensitively.
 * - `category`: one choice per project in EXCLUSIVE categories (a second database contradicts the first).
 * - `languages`: the languages code using the tech is written in (any of). Those of client-side techs
 *   (frontend, mobile) only widen what a named stack allows and are never held against it: a Python backend
 *   may well have a React front end.
 * - `implies`: what the tech is or requires (TimescaleDB is PostgreSQL, Expo is React Native).
 * - `partOf`: a service of a platform (S3 of AWS): compatible with, and not invented beside, the platform;
 *   naming the service does not name the platform's other choices (S3 for backups says nothing of hosting).
 * FAMILIES are techs that go together as one choice (TypeScript, JavaScript and Node.js).
 */

export type TechCategory =
  | "language"
  | "runtime"
  | "frontend"
  | "mobile"
  | "backend-framework"
  | "backend-service"
  | "database"
  | "warehouse"
  | "cache"
  | "search"
  | "orm"
  | "migration"
  | "cloud"
  | "storage"
  | "cdn"
  | "iac"
  | "config-mgmt"
  | "container"
  | "messaging"
  | "ci"
  | "testing"
  | "payments"
  | "auth"
  | "email"
  | "bot-framework"
  | "cli-framework"
  | "game-engine"
  | "embedded"
  | "hardware"
  | "ml-framework"
  | "ml-library"
  | "data"
  | "observability"
  | "build"
  | "compiler"
  | "library"
  | "task-queue";

export type Technology = {
  id: string;
  name: string;
  pattern: RegExp;
  category: TechCategory;
  languages?: string[];
  implies?: string[];
  partOf?: string;
};

/** Categories where a project makes one choice: naming another one contradicts the stated one. */
export const EXCLUSIVE_CATEGORIES: ReadonlySet<TechCategory> = new Set<TechCategory>([
  "runtime",
  "frontend",
  "mobile",
  "backend-framework",
  "backend-service",
  "database",
  "warehouse",
  "cache",
  "search",
  "orm",
  "cloud",
  "iac",
  "ci",
  "payments",
  "auth",
  "email",
  "bot-framework",
  "cli-framework",
  "game-engine",
  "embedded",
  "ml-framework",
]);

/** Client-side categories: their languages never constrain (nor are checked against) the server's. */
export const CLIENT_CATEGORIES: ReadonlySet<TechCategory> = new Set<TechCategory>(["frontend", "mobile"]);

/** Techs that are one choice. */
export const FAMILIES: readonly (readonly string[])[] = [
  ["typescript", "javascript", "nodejs"],
  ["expo", "react-native"],
];

// Boundaries: not preceded by a letter, digit, "_" or "." (so "foo.React" and "ASP.NET" are not React and
// .NET), not followed by a letter, digit or "_". `i` = case-insensitive. Letters are ASCII and Latin
// (U+00C0-U+024F) without the `u` flag: unicode-mode regexes were several times slower on a corpus run.
const W = "A-Za-z0-9_\\u00C0-\\u024F";
const B = `(?<![${W}.])`;
const E = `(?![${W}])`;
const i = (...alts: string[]) => new RegExp(`${B}(?:${alts.join("|")})${E}`, "i");
const cs = (...alts: string[]) => new RegExp(`${B}(?:${alts.join("|")})${E}`);

const JS = ["javascript", "typescript"];
const JVM = ["java", "kotlin"];

export const TECHNOLOGIES: readonly Technology[] = [
  // ---- languages
  { id: "typescript", name: "TypeScript", pattern: i("TypeScript"), category: "language" },
  {
    id: "javascript",
    name: "JavaScript",
    pattern: cs("[Jj]ava[Ss]cript", "JAVASCRIPT", "ECMAScript", "vanilla JS"),
    category: "language",
  },
  {
    id: "python",
    name: "Python",
    pattern: i("Python ?[23]?(?:\\.\\d+)?(?!-like)", "CPython"),
    category: "language",
  },
  {
    id: "go",
    name: "Go",
    pattern: new RegExp(
      `${B}(?:Go(?:lang)?(?! (?:to|back|live|through|over|ahead|on|with|from|into|out|up|down|for|beyond)${E})|golang|go(?=\\s*[+/])|(?<=in )go(?=[.,;]|$))(?![${W}-])`,
    ),
    category: "language",
  },
  { id: "rust", name: "Rust", pattern: cs("Rust", "rustc"), category: "language" },
  { id: "java", name: "Java", pattern: i("Java(?: \\d+)?"), category: "language" },
  { id: "kotlin", name: "Kotlin", pattern: i("Kotlin"), category: "language" },
  { id: "swift", name: "Swift", pattern: cs("Swift"), category: "language" },
  { id: "dart", name: "Dart", pattern: cs("Dart"), category: "language" },
  {
    id: "csharp",
    name: "C#",
    pattern: new RegExp(`${B}(?:C#|CSharp|C Sharp)(?![${W}#])`),
    category: "language",
  },
  {
    id: "cpp",
    name: "C++",
    pattern: new RegExp(`${B}(?:C\\+\\+(?:\\d\\d)?|cpp)(?![${W}+])`, "i"),
    category: "language",
  },
  {
    id: "c",
    name: "C",
    pattern: new RegExp(
      `${B}(?:(?:in|written in|using|with|pure|plain|ANSI|embedded) C(?![${W}#+&])|C(?:89|99|11|17)${E}|C (?:code|firmware|library|header|headers|compiler|API|SDK|source|program)${E})`,
    ),
    category: "language",
  },
  { id: "ruby", name: "Ruby", pattern: cs("Ruby", "ruby"), category: "language" },
  { id: "php", name: "PHP", pattern: i("PHP ?\\d*"), category: "language" },
  { id: "elixir", name: "Elixir", pattern: i("Elixir"), category: "language" },
  { id: "scala", name: "Scala", pattern: cs("Scala"), category: "language" },
  {
    id: "r-lang",
    name: "R",
    pattern: new RegExp(
      `${B}(?:R (?:script|scripts|package|packages|language|Markdown)|in R(?![${W}&])|RStudio)${E}`,
    ),
    category: "language",
  },
  { id: "lua", name: "Lua", pattern: cs("Lua"), category: "language" },
  { id: "gdscript", name: "GDScript", pattern: i("GDScript"), category: "language" },
  { id: "objective-c", name: "Objective-C", pattern: i("Objective-C"), category: "language" },
  { id: "haskell", name: "Haskell", pattern: i("Haskell"), category: "language" },
  { id: "zig", name: "Zig", pattern: cs("Zig"), category: "language" },
  { id: "hcl", name: "HCL", pattern: cs("HCL"), category: "build" },

  // ---- runtimes
  {
    id: "nodejs",
    name: "Node.js",
    pattern: cs(
      "Node\\.?js",
      "NodeJS",
      "node\\.js",
      "Node (?:\\d+|LTS|runtime|backend|API|server|service)",
      "Node(?=\\s*[/+])",
    ),
    category: "runtime",
    languages: JS,
  },
  { id: "deno", name: "Deno", pattern: cs("Deno"), category: "runtime", languages: JS },
  { id: "bun", name: "Bun", pattern: cs("Bun"), category: "runtime", languages: JS },
  {
    id: "dotnet",
    name: ".NET",
    pattern: new RegExp(`${B}(?:\\.NET(?: Core| \\d+)?|dotnet)${E}`),
    category: "runtime",
    languages: ["csharp"],
  },
  { id: "jvm", name: "JVM", pattern: cs("JVM"), category: "runtime", languages: [...JVM, "scala"] },

  // ---- frontend (client)
  {
    id: "react",
    name: "React",
    pattern: new RegExp(`${B}React(?:\\.js|JS)?${E}(?! Native)`),
    category: "frontend",
    languages: JS,
  },
  { id: "vue", name: "Vue", pattern: cs("Vue(?:\\.js|JS)?(?: ?[23])?"), category: "frontend", languages: JS },
  {
    id: "angular",
    name: "Angular",
    pattern: new RegExp(`${B}Angular(?!\\.js)${E}(?! ?1\\.)`),
    category: "frontend",
    languages: JS,
  },
  {
    id: "angularjs",
    name: "AngularJS",
    pattern: i("AngularJS", "Angular\\.js", "Angular 1(?:\\.x)?"),
    category: "frontend",
    languages: JS,
  },
  { id: "svelte", name: "Svelte", pattern: cs("Svelte"), category: "frontend", languages: JS },
  {
    id: "sveltekit",
    name: "SvelteKit",
    pattern: i("SvelteKit"),
    category: "frontend",
    languages: JS,
    implies: ["svelte"],
  },
  {
    id: "nextjs",
    name: "Next.js",
    pattern: i("Next\\.?js", "NextJS"),
    category: "frontend",
    languages: JS,
    implies: ["react"],
  },
  {
    id: "nuxt",
    name: "Nuxt",
    pattern: i("Nuxt(?:\\.js)?"),
    category: "frontend",
    languages: JS,
    implies: ["vue"],
  },
  {
    id: "remix",
    name: "Remix",
    pattern: cs("Remix"),
    category: "frontend",
    languages: JS,
    implies: ["react"],
  },
  { id: "astro", name: "Astro", pattern: cs("Astro"), category: "frontend", languages: JS },
  {
    id: "solidjs",
    name: "SolidJS",
    pattern: i("Solid(?:JS|\\.js)", "SolidStart"),
    category: "frontend",
    languages: JS,
  },
  { id: "htmx", name: "htmx", pattern: i("htmx"), category: "frontend" },
  { id: "jquery", name: "jQuery", pattern: i("jQuery"), category: "frontend", languages: JS },
  {
    id: "hotwire",
    name: "Hotwire",
    pattern: cs("Hotwire", "Turbo(?:links| Frames?| Streams?| Drive)", "Stimulus(?:JS| controllers?)"),
    category: "frontend",
  },
  { id: "blazor", name: "Blazor", pattern: i("Blazor"), category: "frontend", languages: ["csharp"] },
  { id: "livewire", name: "Livewire", pattern: i("Livewire"), category: "frontend", languages: ["php"] },

  // ---- mobile (client)
  {
    id: "react-native",
    name: "React Native",
    pattern: i("React Native"),
    category: "mobile",
    languages: JS,
    implies: ["react"],
  },
  {
    id: "expo",
    name: "Expo",
    pattern: cs("Expo(?! (?:hall|center|centre))", "EAS (?:Build|Submit|Update)"),
    category: "mobile",
    languages: JS,
    implies: ["react-native"],
  },
  { id: "flutter", name: "Flutter", pattern: i("Flutter"), category: "mobile", languages: ["dart"] },
  {
    id: "swiftui",
    name: "SwiftUI / UIKit",
    pattern: cs("SwiftUI", "UIKit"),
    category: "mobile",
    languages: ["swift"],
  },
  {
    id: "jetpack-compose",
    name: "Jetpack Compose",
    pattern: i("Jetpack Compose", "Android Jetpack"),
    category: "mobile",
    languages: ["kotlin"],
  },
  { id: "ionic", name: "Ionic", pattern: cs("Ionic"), category: "mobile", languages: JS },
  {
    id: "capacitor",
    name: "Capacitor",
    pattern: cs("CapacitorJS", "Capacitor (?:plugin|plugins|app|runtime)", "@capacitor"),
    category: "mobile",
    languages: JS,
  },
  {
    id: "maui",
    name: ".NET MAUI / Xamarin",
    pattern: cs("MAUI", "Xamarin"),
    category: "mobile",
    languages: ["csharp"],
  },
  {
    id: "kmp",
    name: "Kotlin Multiplatform",
    pattern: i("Kotlin Multiplatform", "KMP"),
    category: "mobile",
    languages: ["kotlin"],
  },

  // ---- backend frameworks
  {
    id: "express",
    name: "Express",
    pattern: cs(
      "Express(?:\\.js|JS)",
      "Express (?:server|app|API|router|middleware|route|routes|handler|handlers|backend)",
      "(?<=Node/)Express",
      "Express(?=\\s*(?:[+,)/]|$))",
      "(?<=(?:with|using) )Express(?! checkout)",
    ),
    category: "backend-framework",
    languages: JS,
    implies: ["nodejs"],
  },
  {
    id: "fastify",
    name: "Fastify",
    pattern: i("Fastify"),
    category: "backend-framework",
    languages: JS,
    implies: ["nodejs"],
  },
  {
    id: "koa",
    name: "Koa",
    pattern: cs("Koa(?:\\.js)?"),
    category: "backend-framework",
    languages: JS,
    implies: ["nodejs"],
  },
  { id: "hono", name: "Hono", pattern: cs("Hono"), category: "backend-framework", languages: JS },
  {
    id: "nestjs",
    name: "NestJS",
    pattern: i("Nest(?:JS|\\.js)"),
    category: "backend-framework",
    languages: JS,
    implies: ["nodejs"],
  },
  {
    id: "django",
    name: "Django",
    pattern: i("Django"),
    category: "backend-framework",
    languages: ["python"],
  },
  { id: "flask", name: "Flask", pattern: cs("Flask"), category: "backend-framework", languages: ["python"] },
  {
    id: "fastapi",
    name: "FastAPI",
    pattern: i("FastAPI"),
    category: "backend-framework",
    languages: ["python"],
  },
  {
    id: "rails",
    name: "Ruby on Rails",
    pattern: cs("Ruby on Rails", "Rails"),
    category: "backend-framework",
    languages: ["ruby"],
  },
  {
    id: "laravel",
    name: "Laravel",
    pattern: i("Laravel"),
    category: "backend-framework",
    languages: ["php"],
  },
  {
    id: "symfony",
    name: "Symfony",
    pattern: i("Symfony"),
    category: "backend-framework",
    languages: ["php"],
  },
  {
    id: "spring",
    name: "Spring Boot",
    pattern: cs("Spring Boot", "Spring (?:MVC|Framework|Security|Data|WebFlux)"),
    category: "backend-framework",
    languages: JVM,
  },
  {
    id: "aspnet",
    name: "ASP.NET Core",
    pattern: i("ASP\\.NET(?: Core)?"),
    category: "backend-framework",
    languages: ["csharp"],
    implies: ["dotnet"],
  },
  { id: "gin", name: "Gin", pattern: cs("Gin"), category: "backend-framework", languages: ["go"] },
  {
    id: "echo",
    name: "Echo",
    pattern: cs("Echo (?:framework|server|router)", "labstack/echo"),
    category: "backend-framework",
    languages: ["go"],
  },
  {
    id: "fiber",
    name: "Fiber",
    pattern: cs("Go Fiber", "gofiber", "Fiber (?:app|framework)"),
    category: "backend-framework",
    languages: ["go"],
  },
  { id: "axum", name: "Axum", pattern: i("Axum"), category: "backend-framework", languages: ["rust"] },
  {
    id: "actix",
    name: "Actix Web",
    pattern: i("Actix(?:-web| Web)?"),
    category: "backend-framework",
    languages: ["rust"],
  },
  {
    id: "phoenix",
    name: "Phoenix",
    pattern: cs("Phoenix(?: LiveView)?"),
    category: "backend-framework",
    languages: ["elixir"],
  },
  { id: "ktor", name: "Ktor", pattern: i("Ktor"), category: "backend-framework", languages: ["kotlin"] },
  { id: "trpc", name: "tRPC", pattern: i("tRPC"), category: "library", languages: ["typescript"] },
  { id: "socketio", name: "Socket.IO", pattern: i("Socket\\.IO"), category: "library", languages: JS },

  // ---- backend services
  {
    id: "supabase",
    name: "Supabase",
    pattern: i("Supabase"),
    category: "backend-service",
    implies: ["postgresql"],
  },
  { id: "firebase", name: "Firebase", pattern: i("Firebase"), category: "backend-service" },
  { id: "appwrite", name: "Appwrite", pattern: i("Appwrite"), category: "backend-service" },
  { id: "pocketbase", name: "PocketBase", pattern: i("PocketBase"), category: "backend-service" },

  // ---- databases
  { id: "postgresql", name: "PostgreSQL", pattern: i("Postgres(?:QL)?", "psql"), category: "database" },
  { id: "mysql", name: "MySQL", pattern: i("MySQL"), category: "database" },
  { id: "mariadb", name: "MariaDB", pattern: i("MariaDB"), category: "database", implies: ["mysql"] },
  { id: "sqlite", name: "SQLite", pattern: i("SQLite\\d?"), category: "database" },
  { id: "mongodb", name: "MongoDB", pattern: i("Mongo(?:DB)?"), category: "database" },
  { id: "dynamodb", name: "DynamoDB", pattern: i("DynamoDB"), category: "database", partOf: "aws" },
  {
    id: "firestore",
    name: "Firestore",
    pattern: i("Firestore", "Firebase Realtime Database"),
    category: "database",
    partOf: "firebase",
  },
  { id: "cassandra", name: "Cassandra", pattern: i("Cassandra", "ScyllaDB"), category: "database" },
  {
    id: "influxdb",
    name: "InfluxDB",
    pattern: i("InfluxDB", "InfluxQL", "Influx line protocol"),
    category: "database",
  },
  {
    id: "timescaledb",
    name: "TimescaleDB",
    pattern: new RegExp(`${B}(?:[Tt]imescale[Dd][Bb]|TIMESCALEDB|Timescale)${E}`),
    category: "database",
    implies: ["postgresql"],
  },
  { id: "clickhouse", name: "ClickHouse", pattern: i("ClickHouse"), category: "database" },
  {
    id: "sqlserver",
    name: "SQL Server",
    pattern: i("SQL Server", "MSSQL", "Azure SQL"),
    category: "database",
  },
  { id: "oracle-db", name: "Oracle Database", pattern: cs("Oracle (?:Database|DB)"), category: "database" },
  { id: "cockroachdb", name: "CockroachDB", pattern: i("CockroachDB"), category: "database" },
  { id: "neo4j", name: "Neo4j", pattern: i("Neo4j"), category: "database" },
  { id: "couchdb", name: "CouchDB", pattern: i("CouchDB", "PouchDB"), category: "database" },
  { id: "duckdb", name: "DuckDB", pattern: i("DuckDB"), category: "warehouse" },
  { id: "snowflake", name: "Snowflake", pattern: cs("Snowflake"), category: "warehouse" },
  { id: "bigquery", name: "BigQuery", pattern: i("BigQuery"), category: "warehouse", partOf: "gcp" },
  { id: "redshift", name: "Redshift", pattern: i("Redshift"), category: "warehouse", partOf: "aws" },
  { id: "redis", name: "Redis", pattern: i("Redis", "Valkey"), category: "cache" },
  {
    id: "elasticache",
    name: "Amazon ElastiCache",
    pattern: i("ElastiCache"),
    category: "cache",
    partOf: "aws",
    implies: ["redis"],
  },
  { id: "memcached", name: "Memcached", pattern: i("Memcached?"), category: "cache" },
  {
    id: "elasticsearch",
    name: "Elasticsearch",
    pattern: i("Elasticsearch", "Elastic Search", "OpenSearch"),
    category: "search",
  },
  { id: "meilisearch", name: "Meilisearch", pattern: i("Meilisearch"), category: "search" },
  { id: "algolia", name: "Algolia", pattern: i("Algolia"), category: "search" },
  { id: "typesense", name: "Typesense", pattern: i("Typesense"), category: "search" },

  // ---- ORMs and migration tools
  { id: "prisma", name: "Prisma", pattern: i("Prisma"), category: "orm", languages: JS },
  {
    id: "drizzle",
    name: "Drizzle",
    pattern: i("Drizzle(?: ORM| Kit)?", "drizzle-kit"),
    category: "orm",
    languages: JS,
  },
  { id: "typeorm", name: "TypeORM", pattern: i("TypeORM"), category: "orm", languages: JS },
  { id: "sequelize", name: "Sequelize", pattern: i("Sequelize"), category: "orm", languages: JS },
  {
    id: "mongoose",
    name: "Mongoose",
    pattern: cs("Mongoose"),
    category: "orm",
    languages: JS,
    implies: ["mongodb"],
  },
  { id: "knex", name: "Knex", pattern: i("Knex(?:\\.js)?"), category: "orm", languages: JS },
  { id: "sqlalchemy", name: "SQLAlchemy", pattern: i("SQLAlchemy"), category: "orm", languages: ["python"] },
  {
    id: "activerecord",
    name: "Active Record",
    pattern: cs("ActiveRecord", "Active Record"),
    category: "orm",
    languages: ["ruby"],
  },
  { id: "eloquent", name: "Eloquent", pattern: cs("Eloquent"), category: "orm", languages: ["php"] },
  {
    id: "hibernate",
    name: "Hibernate / JPA",
    pattern: cs("Hibernate", "JPA"),
    category: "orm",
    languages: JVM,
  },
  { id: "gorm", name: "GORM", pattern: i("GORM"), category: "orm", languages: ["go"] },
  { id: "diesel", name: "Diesel", pattern: cs("Diesel"), category: "orm", languages: ["rust"] },
  {
    id: "entity-framework",
    name: "Entity Framework",
    pattern: i("Entity Framework", "EF Core"),
    category: "orm",
    languages: ["csharp"],
  },
  { id: "ecto", name: "Ecto", pattern: cs("Ecto"), category: "orm", languages: ["elixir"] },
  { id: "alembic", name: "Alembic", pattern: i("Alembic"), category: "migration", languages: ["python"] },
  { id: "flyway", name: "Flyway", pattern: i("Flyway"), category: "migration" },
  { id: "liquibase", name: "Liquibase", pattern: i("Liquibase"), category: "migration" },
  {
    id: "pgloader",
    name: "pgloader",
    pattern: i("pgloader"),
    category: "migration",
    implies: ["postgresql"],
  },
  {
    id: "aws-dms",
    name: "AWS Database Migration Service",
    pattern: cs("AWS DMS", "DMS", "Database Migration Service"),
    category: "migration",
    partOf: "aws",
  },

  // ---- cloud and hosting (one provider), and their services
  { id: "aws", name: "AWS", pattern: cs("AWS", "Amazon Web Services"), category: "cloud" },
  { id: "gcp", name: "Google Cloud", pattern: cs("GCP", "Google Cloud(?: Platform)?"), category: "cloud" },
  {
    id: "azure",
    name: "Azure",
    pattern: new RegExp(`${B}Azure${E}(?! (?:AD|Active Directory|SQL)${E})`),
    category: "cloud",
  },
  {
    id: "fly",
    name: "Fly.io",
    pattern: i("Fly\\.io", "flyctl", "fly\\.toml", "fly deploy"),
    category: "cloud",
  },
  { id: "heroku", name: "Heroku", pattern: i("Heroku"), category: "cloud" },
  { id: "vercel", name: "Vercel", pattern: i("Vercel"), category: "cloud" },
  { id: "netlify", name: "Netlify", pattern: i("Netlify"), category: "cloud" },
  { id: "render", name: "Render", pattern: cs("Render\\.com", "on Render"), category: "cloud" },
  { id: "railway", name: "Railway", pattern: cs("Railway"), category: "cloud" },
  {
    id: "digitalocean",
    name: "DigitalOcean",
    pattern: i("DigitalOcean", "Digital Ocean"),
    category: "cloud",
  },
  { id: "s3", name: "Amazon S3", pattern: i("S3", "Amazon S3"), category: "storage", partOf: "aws" },
  {
    id: "gcs",
    name: "Google Cloud Storage",
    pattern: i("Google Cloud Storage", "GCS"),
    category: "storage",
    partOf: "gcp",
  },
  {
    id: "azure-blob",
    name: "Azure Blob Storage",
    pattern: i("Azure Blob(?: Storage)?"),
    category: "storage",
    partOf: "azure",
  },
  {
    id: "r2",
    name: "Cloudflare R2",
    pattern: cs("Cloudflare R2", "R2 (?:bucket|buckets|storage)"),
    category: "storage",
    partOf: "cloudflare",
  },
  { id: "minio", name: "MinIO", pattern: i("MinIO"), category: "storage" },
  {
    id: "lambda",
    name: "AWS Lambda",
    pattern: cs("AWS Lambda", "Lambda (?:function|functions|handler|handlers)"),
    category: "cloud",
    partOf: "aws",
  },
  { id: "rds", name: "Amazon RDS", pattern: cs("RDS", "Aurora"), category: "cloud", partOf: "aws" },
  {
    id: "ecs",
    name: "Amazon ECS",
    pattern: cs(
      "Amazon ECS",
      "AWS ECS",
      "ECS (?:service|services|cluster|task definition|task definitions|on Fargate)",
      "Fargate",
    ),
    category: "cloud",
    partOf: "aws",
  },
  { id: "eks", name: "Amazon EKS", pattern: cs("EKS"), category: "cloud", partOf: "aws" },
  { id: "ec2", name: "Amazon EC2", pattern: cs("EC2"), category: "cloud", partOf: "aws" },
  { id: "cloudfront", name: "CloudFront", pattern: i("CloudFront"), category: "cloud", partOf: "aws" },
  { id: "cloudwatch", name: "CloudWatch", pattern: i("CloudWatch"), category: "cloud", partOf: "aws" },
  { id: "sqs", name: "Amazon SQS", pattern: cs("SQS", "SNS"), category: "cloud", partOf: "aws" },
  { id: "route53", name: "Route 53", pattern: i("Route ?53"), category: "cloud", partOf: "aws" },
  {
    id: "ssm",
    name: "SSM Parameter Store",
    pattern: cs("SSM", "Parameter Store"),
    category: "cloud",
    partOf: "aws",
  },
  { id: "cloud-run", name: "Cloud Run", pattern: i("Cloud Run"), category: "cloud", partOf: "gcp" },
  {
    id: "pubsub",
    name: "Pub/Sub",
    pattern: cs("Pub/Sub", "Cloud Pub/Sub"),
    category: "cloud",
    partOf: "gcp",
  },
  {
    id: "azure-functions",
    name: "Azure Functions",
    pattern: cs("Azure Functions"),
    category: "cloud",
    partOf: "azure",
  },
  { id: "cloudflare", name: "Cloudflare", pattern: i("Cloudflare(?: Workers| Pages)?"), category: "cdn" },

  // ---- infrastructure as code, configuration, containers
  {
    id: "terraform",
    name: "Terraform",
    pattern: i("Terraform", "OpenTofu"),
    category: "iac",
    implies: ["hcl"],
  },
  { id: "terragrunt", name: "Terragrunt", pattern: i("Terragrunt"), category: "iac", implies: ["terraform"] },
  { id: "pulumi", name: "Pulumi", pattern: i("Pulumi"), category: "iac" },
  {
    id: "cloudformation",
    name: "CloudFormation",
    pattern: i("CloudFormation"),
    category: "iac",
    partOf: "aws",
  },
  { id: "cdk", name: "AWS CDK", pattern: cs("AWS CDK", "CDK"), category: "iac", partOf: "aws" },
  {
    id: "serverless-framework",
    name: "Serverless Framework",
    pattern: cs("Serverless Framework", "serverless\\.yml"),
    category: "iac",
  },
  { id: "ansible", name: "Ansible", pattern: i("Ansible"), category: "config-mgmt" },
  {
    id: "docker",
    name: "Docker",
    pattern: i("Docker(?:file|files| Compose)?", "docker-compose"),
    category: "container",
  },
  { id: "kubernetes", name: "Kubernetes", pattern: i("Kubernetes", "k8s"), category: "container" },
  { id: "helm", name: "Helm", pattern: cs("Helm(?: chart| charts)?"), category: "container" },

  // ---- messaging
  { id: "kafka", name: "Kafka", pattern: i("Kafka"), category: "messaging" },
  { id: "rabbitmq", name: "RabbitMQ", pattern: i("RabbitMQ"), category: "messaging" },
  { id: "mqtt", name: "MQTT", pattern: i("MQTT"), category: "messaging" },
  { id: "mosquitto", name: "Mosquitto", pattern: i("Mosquitto"), category: "messaging", implies: ["mqtt"] },
  { id: "emqx", name: "EMQX", pattern: i("EMQX"), category: "messaging", implies: ["mqtt"] },
  { id: "nats", name: "NATS", pattern: cs("NATS"), category: "messaging" },

  // ---- CI
  { id: "github-actions", name: "GitHub Actions", pattern: i("GitHub Actions?"), category: "ci" },
  {
    id: "gitlab-ci",
    name: "GitLab CI",
    pattern: i("GitLab CI(?:/CD)?", "\\.gitlab-ci\\.yml"),
    category: "ci",
  },
  { id: "circleci", name: "CircleCI", pattern: i("CircleCI"), category: "ci" },
  { id: "jenkins", name: "Jenkins", pattern: i("Jenkins(?:file)?"), category: "ci" },
  {
    id: "bitbucket-pipelines",
    name: "Bitbucket Pipelines",
    pattern: i("Bitbucket Pipelines"),
    category: "ci",
  },

  // ---- testing
  { id: "jest", name: "Jest", pattern: cs("Jest"), category: "testing", languages: JS },
  { id: "vitest", name: "Vitest", pattern: i("Vitest"), category: "testing", languages: JS },
  { id: "mocha", name: "Mocha", pattern: cs("Mocha"), category: "testing", languages: JS },
  { id: "pytest", name: "pytest", pattern: i("pytest"), category: "testing", languages: ["python"] },
  { id: "junit", name: "JUnit", pattern: i("JUnit ?\\d?"), category: "testing", languages: JVM },
  { id: "rspec", name: "RSpec", pattern: i("RSpec"), category: "testing", languages: ["ruby"] },
  { id: "phpunit", name: "PHPUnit", pattern: i("PHPUnit"), category: "testing", languages: ["php"] },
  { id: "playwright", name: "Playwright", pattern: i("Playwright"), category: "testing" },
  { id: "cypress", name: "Cypress", pattern: cs("Cypress"), category: "testing", languages: JS },
  { id: "selenium", name: "Selenium", pattern: i("Selenium(?: WebDriver)?"), category: "testing" },
  { id: "detox", name: "Detox", pattern: cs("Detox"), category: "testing", languages: JS },
  {
    id: "xctest",
    name: "XCTest",
    pattern: i("XCTest", "XCUITest"),
    category: "testing",
    languages: ["swift"],
  },
  { id: "testcontainers", name: "Testcontainers", pattern: i("Testcontainers"), category: "testing" },
  { id: "k6", name: "k6", pattern: cs("k6"), category: "testing" },

  // ---- payments, auth, e-mail
  { id: "stripe", name: "Stripe", pattern: i("Stripe"), category: "payments" },
  { id: "paypal", name: "PayPal", pattern: i("PayPal"), category: "payments" },
  { id: "braintree", name: "Braintree", pattern: i("Braintree"), category: "payments" },
  { id: "adyen", name: "Adyen", pattern: i("Adyen"), category: "payments" },
  { id: "paddle", name: "Paddle", pattern: cs("Paddle"), category: "payments" },
  { id: "chargebee", name: "Chargebee", pattern: i("Chargebee"), category: "payments" },
  { id: "lemonsqueezy", name: "Lemon Squeezy", pattern: i("Lemon ?Squeezy"), category: "payments" },
  { id: "auth0", name: "Auth0", pattern: i("Auth0"), category: "auth" },
  { id: "okta", name: "Okta", pattern: i("Okta"), category: "auth" },
  { id: "keycloak", name: "Keycloak", pattern: i("Keycloak"), category: "auth" },
  { id: "clerk", name: "Clerk", pattern: cs("Clerk"), category: "auth" },
  { id: "cognito", name: "Amazon Cognito", pattern: i("Cognito"), category: "auth", partOf: "aws" },
  {
    id: "firebase-auth",
    name: "Firebase Auth",
    pattern: i("Firebase Auth(?:entication)?"),
    category: "auth",
    partOf: "firebase",
  },
  {
    id: "azure-ad",
    name: "Microsoft Entra ID (Azure AD)",
    pattern: i("Azure AD", "Azure Active Directory", "Entra ID", "Microsoft Entra"),
    category: "auth",
  },
  {
    id: "google-workspace",
    name: "Google Workspace",
    pattern: i("Google Workspace", "G Suite"),
    category: "auth",
  },
  {
    id: "saml-python",
    name: "python3-saml / djangosaml2",
    pattern: i("djangosaml2", "python3-saml", "pysaml2", "django-saml2-auth"),
    category: "library",
    languages: ["python"],
  },
  { id: "sendgrid", name: "SendGrid", pattern: i("SendGrid"), category: "email" },
  { id: "mailgun", name: "Mailgun", pattern: i("Mailgun"), category: "email" },
  { id: "postmark", name: "Postmark", pattern: i("Postmark"), category: "email" },
  { id: "ses", name: "Amazon SES", pattern: cs("SES", "Amazon SES"), category: "email", partOf: "aws" },
  { id: "twilio", name: "Twilio", pattern: i("Twilio"), category: "library" },

  // ---- bots and CLIs
  {
    id: "discordjs",
    name: "discord.js",
    pattern: i("discord\\.js"),
    category: "bot-framework",
    languages: JS,
    implies: ["nodejs"],
  },
  {
    id: "discordpy",
    name: "discord.py",
    pattern: i("discord\\.py", "pycord", "nextcord"),
    category: "bot-framework",
    languages: ["python"],
  },
  {
    id: "slack-bolt",
    name: "Slack Bolt",
    pattern: cs("Bolt(?: for (?:Python|JavaScript|JS|Java))?", "slack_bolt", "@slack/bolt"),
    category: "bot-framework",
  },
  {
    id: "slack-sdk",
    name: "Slack SDK for Python",
    pattern: i("slack_sdk", "python-slack-sdk", "slackclient"),
    category: "bot-framework",
    languages: ["python"],
  },
  {
    id: "python-telegram-bot",
    name: "python-telegram-bot",
    pattern: i("python-telegram-bot", "aiogram"),
    category: "bot-framework",
    languages: ["python"],
  },
  {
    id: "cobra",
    name: "Cobra",
    pattern: cs("Cobra", "spf13/cobra"),
    category: "cli-framework",
    languages: ["go"],
  },
  {
    id: "urfave-cli",
    name: "urfave/cli",
    pattern: i("urfave/cli"),
    category: "cli-framework",
    languages: ["go"],
  },
  { id: "viper", name: "Viper", pattern: cs("Viper", "spf13/viper"), category: "library", languages: ["go"] },
  {
    id: "click",
    name: "Click",
    pattern: cs(
      "Click (?:command|commands|group|groups|CLI|library|app)",
      "click\\.(?:command|group|option)",
    ),
    category: "cli-framework",
    languages: ["python"],
  },
  { id: "typer", name: "Typer", pattern: cs("Typer"), category: "cli-framework", languages: ["python"] },
  {
    id: "argparse",
    name: "argparse",
    pattern: i("argparse"),
    category: "cli-framework",
    languages: ["python"],
  },
  { id: "clap", name: "clap", pattern: i("clap"), category: "cli-framework", languages: ["rust"] },
  {
    id: "commander",
    name: "Commander.js",
    pattern: i("Commander\\.js"),
    category: "cli-framework",
    languages: JS,
  },
  { id: "oclif", name: "oclif", pattern: i("oclif"), category: "cli-framework", languages: JS },
  { id: "yargs", name: "yargs", pattern: i("yargs"), category: "cli-framework", languages: JS },
  { id: "picocli", name: "picocli", pattern: i("picocli"), category: "cli-framework", languages: JVM },

  // ---- games, embedded, hardware
  {
    id: "unity",
    name: "Unity",
    pattern: cs("Unity(?: 6| \\d{4})?"),
    category: "game-engine",
    languages: ["csharp"],
  },
  {
    id: "godot",
    name: "Godot",
    pattern: i("Godot(?: \\d)?"),
    category: "game-engine",
    languages: ["gdscript", "csharp"],
  },
  {
    id: "unreal",
    name: "Unreal Engine",
    pattern: cs("Unreal(?: Engine)?"),
    category: "game-engine",
    languages: ["cpp"],
  },
  { id: "phaser", name: "Phaser", pattern: cs("Phaser(?: \\d)?"), category: "game-engine", languages: JS },
  { id: "bevy", name: "Bevy", pattern: cs("Bevy"), category: "game-engine", languages: ["rust"] },
  { id: "pygame", name: "Pygame", pattern: i("Pygame"), category: "game-engine", languages: ["python"] },
  {
    id: "love2d",
    name: "LÖVE",
    pattern: cs("LÖVE", "Love2D", "LOVE2D"),
    category: "game-engine",
    languages: ["lua"],
  },
  { id: "arduino", name: "Arduino", pattern: i("Arduino"), category: "embedded", languages: ["cpp", "c"] },
  { id: "esp-idf", name: "ESP-IDF", pattern: i("ESP-IDF"), category: "embedded", languages: ["c", "cpp"] },
  { id: "zephyr", name: "Zephyr RTOS", pattern: cs("Zephyr"), category: "embedded", languages: ["c"] },
  { id: "freertos", name: "FreeRTOS", pattern: i("FreeRTOS"), category: "embedded", languages: ["c", "cpp"] },
  {
    id: "micropython",
    name: "MicroPython",
    pattern: i("MicroPython", "CircuitPython"),
    category: "embedded",
    languages: ["python"],
  },
  { id: "embassy", name: "Embassy", pattern: cs("Embassy"), category: "embedded", languages: ["rust"] },
  { id: "platformio", name: "PlatformIO", pattern: i("PlatformIO"), category: "build" },
  { id: "esp32", name: "ESP32", pattern: i("ESP32(?:-[A-Z]\\d)?", "ESP8266"), category: "hardware" },
  {
    id: "raspberry-pi",
    name: "Raspberry Pi",
    pattern: i("Raspberry Pi(?: \\d| Pico)?"),
    category: "hardware",
  },
  { id: "stm32", name: "STM32", pattern: i("STM32\\w*"), category: "hardware" },
  { id: "lorawan", name: "LoRaWAN", pattern: i("LoRa(?:WAN)?"), category: "hardware" },

  // ---- machine learning and data
  {
    id: "pytorch",
    name: "PyTorch",
    pattern: i("PyTorch(?: Lightning)?"),
    category: "ml-framework",
    languages: ["python"],
  },
  {
    id: "tensorflow",
    name: "TensorFlow",
    pattern: i("TensorFlow(?: Lite| Serving)?", "TFLite"),
    category: "ml-framework",
    languages: ["python"],
  },
  {
    id: "keras",
    name: "Keras",
    pattern: i("Keras"),
    category: "ml-framework",
    languages: ["python"],
    implies: ["tensorflow"],
  },
  { id: "jax", name: "JAX", pattern: cs("JAX"), category: "ml-framework", languages: ["python"] },
  {
    id: "scikit-learn",
    name: "scikit-learn",
    pattern: i("scikit-learn", "sklearn"),
    category: "ml-library",
    languages: ["python"],
  },
  { id: "xgboost", name: "XGBoost", pattern: i("XGBoost"), category: "ml-library", languages: ["python"] },
  { id: "lightgbm", name: "LightGBM", pattern: i("LightGBM"), category: "ml-library", languages: ["python"] },
  { id: "pandas", name: "pandas", pattern: i("pandas"), category: "ml-library", languages: ["python"] },
  { id: "numpy", name: "NumPy", pattern: i("NumPy"), category: "ml-library", languages: ["python"] },
  { id: "polars", name: "Polars", pattern: cs("Polars"), category: "ml-library", languages: ["python"] },
  {
    id: "jupyter",
    name: "Jupyter",
    pattern: i("Jupyter(?:Lab)?"),
    category: "ml-library",
    languages: ["python"],
  },
  { id: "mlflow", name: "MLflow", pattern: i("MLflow"), category: "ml-library", languages: ["python"] },
  {
    id: "huggingface",
    name: "Hugging Face",
    pattern: i("Hugging ?Face"),
    category: "ml-library",
    languages: ["python"],
  },
  { id: "onnx", name: "ONNX", pattern: i("ONNX(?: Runtime)?"), category: "ml-library" },
  {
    id: "airflow",
    name: "Airflow",
    pattern: cs("Apache Airflow", "Airflow (?:DAG|DAGs|scheduler|task|tasks|operator|operators)"),
    category: "data",
    languages: ["python"],
  },
  { id: "dagster", name: "Dagster", pattern: i("Dagster"), category: "data", languages: ["python"] },
  { id: "prefect", name: "Prefect", pattern: cs("Prefect"), category: "data", languages: ["python"] },
  { id: "dbt", name: "dbt", pattern: cs("dbt"), category: "data" },
  { id: "spark", name: "Apache Spark", pattern: cs("Apache Spark", "PySpark", "Spark"), category: "data" },
  { id: "flink", name: "Apache Flink", pattern: i("Flink"), category: "data" },
  { id: "node-red", name: "Node-RED", pattern: i("Node-RED"), category: "data" },
  { id: "telegraf", name: "Telegraf", pattern: cs("Telegraf"), category: "data" },
  { id: "metabase", name: "Metabase", pattern: i("Metabase"), category: "data" },
  {
    id: "pgbackrest",
    name: "pgBackRest",
    pattern: i("pgBackRest"),
    category: "data",
    implies: ["postgresql"],
  },
  { id: "grafana", name: "Grafana", pattern: i("Grafana"), category: "observability" },
  { id: "prometheus", name: "Prometheus", pattern: i("Prometheus"), category: "observability" },
  { id: "datadog", name: "Datadog", pattern: i("Datadog"), category: "observability" },
  { id: "sentry", name: "Sentry", pattern: cs("Sentry"), category: "observability" },
  { id: "pagerduty", name: "PagerDuty", pattern: i("PagerDuty"), category: "observability" },
  {
    id: "opentelemetry",
    name: "OpenTelemetry",
    pattern: i("OpenTelemetry", "OTel"),
    category: "observability",
  },

  // ---- build and packaging
  { id: "npm", name: "npm", pattern: i("npm(?:js)?"), category: "build", languages: JS },
  { id: "pnpm", name: "pnpm", pattern: i("pnpm"), category: "build", languages: JS },
  { id: "yarn", name: "Yarn", pattern: cs("Yarn", "yarn"), category: "build", languages: JS },
  { id: "vite", name: "Vite", pattern: cs("Vite"), category: "build", languages: JS },
  {
    id: "create-react-app",
    name: "Create React App",
    pattern: i("Create React App", "create-react-app", "react-scripts"),
    category: "build",
    languages: JS,
    implies: ["react"],
  },
  { id: "webpack", name: "webpack", pattern: i("webpack"), category: "build", languages: JS },
  { id: "esbuild", name: "esbuild", pattern: i("esbuild"), category: "build", languages: JS },
  {
    id: "rollup",
    name: "Rollup",
    pattern: i("rollup\\.config\\.\\w+", "Rollup (?:bundle|bundler|config|plugin|plugins)"),
    category: "build",
    languages: JS,
  },
  { id: "pip", name: "pip / PyPI", pattern: i("pip", "PyPI"), category: "build", languages: ["python"] },
  { id: "poetry", name: "Poetry", pattern: cs("Poetry"), category: "build", languages: ["python"] },
  {
    id: "setuptools",
    name: "setuptools",
    pattern: i("setuptools", "setup\\.py"),
    category: "build",
    languages: ["python"],
  },
  {
    id: "pyinstaller",
    name: "PyInstaller",
    pattern: i("PyInstaller"),
    category: "build",
    languages: ["python"],
  },
  {
    id: "cargo",
    name: "Cargo",
    pattern: cs("Cargo(?:\\.toml)?", "cargo (?:build|test|run|publish|install|clippy|fmt)", "crates\\.io"),
    category: "build",
    languages: ["rust"],
  },
  {
    id: "go-modules",
    name: "Go modules",
    pattern: cs("go\\.mod", "Go modules?"),
    category: "build",
    languages: ["go"],
  },
  { id: "goreleaser", name: "GoReleaser", pattern: i("GoReleaser"), category: "build", languages: ["go"] },
  { id: "gradle", name: "Gradle", pattern: i("Gradle"), category: "build", languages: JVM },
  { id: "maven", name: "Maven", pattern: cs("Maven"), category: "build", languages: JVM },
  { id: "cmake", name: "CMake", pattern: i("CMake"), category: "build", languages: ["c", "cpp"] },

  // ---- compilers and libraries
  { id: "llvm", name: "LLVM", pattern: cs("LLVM(?: IR)?"), category: "compiler" },
  { id: "cranelift", name: "Cranelift", pattern: i("Cranelift"), category: "compiler", languages: ["rust"] },
  { id: "antlr", name: "ANTLR", pattern: i("ANTLR\\d?"), category: "compiler" },
  { id: "tree-sitter", name: "tree-sitter", pattern: i("tree-sitter"), category: "compiler" },
  { id: "lalrpop", name: "LALRPOP", pattern: i("LALRPOP"), category: "compiler", languages: ["rust"] },
  { id: "nom", name: "nom", pattern: cs("nom"), category: "compiler", languages: ["rust"] },
  { id: "wasm", name: "WebAssembly", pattern: i("WebAssembly", "WASM"), category: "compiler" },
  { id: "wxt", name: "WXT / Plasmo", pattern: cs("WXT", "Plasmo"), category: "library", languages: JS },
  { id: "date-fns", name: "date-fns", pattern: i("date-fns"), category: "library", languages: JS },
  { id: "moment", name: "Moment.js", pattern: i("Moment(?:\\.js)"), category: "library", languages: JS },
  { id: "luxon", name: "Luxon", pattern: i("Luxon"), category: "library", languages: JS },
  { id: "dayjs", name: "Day.js", pattern: i("Day\\.js", "dayjs"), category: "library", languages: JS },
  { id: "hermes", name: "Hermes", pattern: cs("Hermes"), category: "library", languages: JS },
  { id: "lodash", name: "Lodash", pattern: i("lodash"), category: "library", languages: JS },
  { id: "launchdarkly", name: "LaunchDarkly", pattern: i("LaunchDarkly"), category: "library" },
  { id: "unleash", name: "Unleash", pattern: cs("Unleash"), category: "library" },
  { id: "flagsmith", name: "Flagsmith", pattern: i("Flagsmith"), category: "library" },
  { id: "celery", name: "Celery", pattern: i("Celery"), category: "task-queue", languages: ["python"] },
  { id: "sidekiq", name: "Sidekiq", pattern: i("Sidekiq"), category: "task-queue", languages: ["ruby"] },
  { id: "bullmq", name: "BullMQ", pattern: i("BullMQ"), category: "task-queue", languages: JS },
];

export const TECH_BY_ID: ReadonlyMap<string, Technology> = new Map(TECHNOLOGIES.map((t) => [t.id, t]));

/** Ids of the technologies named in `text`, in catalogue order. */
export function technologiesIn(text: string): string[] {
  return TECHNOLOGIES.filter((t) => t.pattern.test(text)).map((t) => t.id);
}
