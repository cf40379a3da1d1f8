import type { RepositoryMap } from "../schemas/repository-map";

/**
 * The stack a repository map shows (issue 42), from its manifests' dependencies, runtimes and base images:
 * what a planner uses instead of choosing one, and what the plan shows ("Detected: Node 20, Express,
 * PostgreSQL via Prisma, Jest"). Only what a manifest names counts; nothing is guessed from file names
 * but the language when no manifest says.
 */
export type DetectedStack = {
  runtime: string | null;
  frameworks: string[];
  databases: string[];
  orms: string[];
  tests: string[];
  /** The sentence the plan shows, or null when nothing was found. */
  sentence: string | null;
};

const FRAMEWORKS: [string, RegExp][] = [
  ["Next.js", /^next$/],
  ["NestJS", /^@nestjs\/core$/],
  ["Express", /^express$/],
  ["Fastify", /^fastify$/],
  ["Hono", /^hono$/],
  ["Koa", /^koa$/],
  ["Nuxt", /^nuxt$/],
  ["Vue", /^vue$/],
  ["Svelte", /^svelte$/],
  ["Angular", /^@angular\/core$/],
  ["React", /^react$/],
  ["Django", /^django$/],
  ["FastAPI", /^fastapi$/],
  ["Flask", /^flask$/],
  ["Rails", /^rails$/],
  ["Sinatra", /^sinatra$/],
  ["Laravel", /^laravel\/framework$/],
  ["Symfony", /^symfony\/framework-bundle$/],
  ["Spring Boot", /^spring-boot-starter(-web|-webflux)?$/],
  ["Gin", /^github\.com\/gin-gonic\/gin$/],
  ["Echo", /^github\.com\/labstack\/echo/],
  ["Fiber", /^github\.com\/gofiber\/fiber/],
  ["Chi", /^github\.com\/go-chi\/chi/],
  ["Axum", /^axum$/],
  ["Actix Web", /^actix-web$/],
  ["Rocket", /^rocket$/],
  ["ASP.NET Core", /^Microsoft\.AspNetCore/],
];

const DATABASES: [string, RegExp][] = [
  [
    "PostgreSQL",
    /^(pg|postgres|pg-promise|psycopg2?(-binary)?|psycopg|asyncpg|github\.com\/jackc\/pgx.*|github\.com\/lib\/pq|postgresql|Npgsql.*)$/i,
  ],
  [
    "MySQL",
    /^(mysql2?|mysqlclient|pymysql|github\.com\/go-sql-driver\/mysql|mysql-connector-j|MySql\.Data)$/i,
  ],
  ["SQLite", /^(sqlite3|better-sqlite3|aiosqlite|github\.com\/mattn\/go-sqlite3|rusqlite)$/i],
  ["MongoDB", /^(mongodb|mongoose|pymongo|motor|mongo)$/i],
  ["Redis", /^(redis|ioredis|github\.com\/redis\/go-redis.*)$/i],
];

const ORMS: [string, RegExp][] = [
  ["Prisma", /^(prisma|@prisma\/client)$/],
  ["Drizzle", /^drizzle-orm$/],
  ["TypeORM", /^typeorm$/],
  ["Sequelize", /^sequelize$/],
  ["Mongoose", /^mongoose$/],
  ["SQLAlchemy", /^(sqlalchemy|flask-sqlalchemy|sqlmodel)$/i],
  ["Alembic", /^alembic$/],
  ["GORM", /^gorm\.io\/gorm$/],
  ["sqlx", /^sqlx$/],
  ["Diesel", /^diesel$/],
  ["Hibernate (JPA)", /^spring-boot-starter-data-jpa$/],
  ["Entity Framework Core", /^Microsoft\.EntityFrameworkCore/],
];

const TESTS: [string, RegExp][] = [
  ["Jest", /^jest$/],
  ["Vitest", /^vitest$/],
  ["Mocha", /^mocha$/],
  ["Playwright", /^@playwright\/test$/],
  ["Cypress", /^cypress$/],
  ["pytest", /^pytest$/],
  ["RSpec", /^rspec(-rails)?$/],
  ["PHPUnit", /^phpunit\/phpunit$/],
  ["JUnit", /^(junit|junit-jupiter.*|spring-boot-starter-test)$/],
  ["xUnit", /^xunit$/],
  ["testify", /^github\.com\/stretchr\/testify$/],
];

/** Databases a compose file's or Dockerfile's images name. */
const IMAGES: [string, RegExp][] = [
  ["PostgreSQL", /(^|\/)postgres(ql)?$/],
  ["MySQL", /(^|\/)(mysql|mariadb)$/],
  ["MongoDB", /(^|\/)mongo$/],
  ["Redis", /(^|\/)redis$/],
];

function found(table: [string, RegExp][], names: string[]): string[] {
  return table.filter(([, re]) => names.some((n) => re.test(n))).map(([label]) => label);
}

function version(spec: string | null | undefined): string {
  return spec?.match(/(\d+(?:\.\d+)?)/)?.[1] ?? "";
}

export function detectStack(map: RepositoryMap): DetectedStack {
  const deps = map.manifests
    .filter((m) => m.kind !== "docker" && m.kind !== "ci" && m.kind !== "iac")
    .flatMap((m) => m.dependencies);
  const images = map.manifests.filter((m) => m.kind === "docker").flatMap((m) => m.dependencies);
  const kinds = new Set(map.manifests.map((m) => m.kind));
  const runtimeOf = (kind: string) =>
    map.manifests.find((m) => m.kind === kind && m.runtime)?.runtime ?? null;
  const languages = new Map<string, number>();
  for (const f of map.files) if (f.language) languages.set(f.language, (languages.get(f.language) ?? 0) + 1);
  let runtime: string | null = null;
  if (kinds.has("npm")) {
    const node =
      version(runtimeOf("npm")) ||
      version(
        images.find((i) => /(^|\/)node$/.test(i))
          ? map.manifests
              .find((m) => m.kind === "docker" && /node:(\d+)/.test(m.runtime ?? ""))
              ?.runtime?.match(/node:(\d+)/)?.[1]
          : null,
      );
    runtime = `${(languages.get("TypeScript") ?? 0) > (languages.get("JavaScript") ?? 0) ? "TypeScript on Node" : "Node"}${node ? ` ${node}` : ""}`;
  } else if (kinds.has("python"))
    runtime = `Python${version(runtimeOf("python")) ? ` ${version(runtimeOf("python"))}` : ""}`;
  else if (kinds.has("go")) runtime = `Go${version(runtimeOf("go")) ? ` ${version(runtimeOf("go"))}` : ""}`;
  else if (kinds.has("cargo")) runtime = "Rust";
  else if (kinds.has("maven") || kinds.has("gradle"))
    runtime =
      (languages.get("Kotlin") ?? 0) > (languages.get("Java") ?? 0)
        ? "Kotlin"
        : `Java${version(runtimeOf("maven")) ? ` ${version(runtimeOf("maven"))}` : ""}`;
  else if (kinds.has("bundler"))
    runtime = `Ruby${version(runtimeOf("bundler")) ? ` ${version(runtimeOf("bundler"))}` : ""}`;
  else if (kinds.has("composer"))
    runtime = `PHP${version(runtimeOf("composer")) ? ` ${version(runtimeOf("composer"))}` : ""}`;
  else if (kinds.has("dotnet")) runtime = ".NET";
  else {
    const top = [...languages]
      .filter(([l]) => !["Markdown", "JSON", "YAML", "TOML", "HTML", "CSS"].includes(l))
      .sort((a, b) => b[1] - a[1])[0];
    runtime = top?.[0] ?? null;
  }
  // React under Next.js, Vue under Nuxt: the framework says it.
  let frameworks = found(FRAMEWORKS, deps);
  if (frameworks.includes("Next.js")) frameworks = frameworks.filter((f) => f !== "React");
  if (frameworks.includes("Nuxt")) frameworks = frameworks.filter((f) => f !== "Vue");
  if (
    map.files.some((f) => f.path.endsWith("config/routes.rb")) &&
    !frameworks.includes("Rails") &&
    kinds.has("bundler")
  )
    frameworks.push("Rails");
  const databases = [...new Set([...found(DATABASES, deps), ...found(IMAGES, images)])];
  const orms = found(ORMS, deps);
  if (map.files.some((f) => f.path.endsWith("schema.prisma")) && !orms.includes("Prisma"))
    orms.push("Prisma");
  if (frameworks.includes("Django") && !orms.length) orms.push("Django ORM");
  if (frameworks.includes("Rails") && !orms.length) orms.push("Active Record");
  if (frameworks.includes("Laravel") && !orms.length) orms.push("Eloquent");
  const tests = found(TESTS, deps);
  if (!tests.length && map.files.some((f) => f.path.endsWith("_test.go"))) tests.push("go test");
  if (!tests.length && kinds.has("cargo") && map.tests.length) tests.push("cargo test");
  if (!tests.length && map.files.some((f) => /(^|\/)(test_\w+|\w+_test|tests)\.py$/.test(f.path)))
    tests.push("unittest");

  const data =
    databases.length && orms.length
      ? [`${databases[0]} via ${orms[0]}`, ...databases.slice(1), ...orms.slice(1)]
      : [...databases, ...orms];
  const parts = [runtime, ...frameworks, ...data, ...tests].filter((p): p is string => Boolean(p));
  return {
    runtime,
    frameworks,
    databases,
    orms,
    tests,
    sentence: parts.length ? `Detected: ${parts.join(", ")}` : null,
  };
}
