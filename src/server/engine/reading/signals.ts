import type { ProjectBrief } from "../planners/contract";

/**
 * What the offline planner reads from a description besides its requirements: what kind of work it is,
 * which technologies it names (in the user's own spelling, so nothing is renamed or added), and which
 * well-known domains it mentions unambiguously (for suggested checks). Every pattern is conservative:
 * a miss costs a suggestion, a false match would put words in the user's mouth.
 */

export type Deliverable = "service" | "library" | "cli" | "extension" | "mobile" | "infrastructure" | "other";

/** Technologies echoed back in the user's spelling; each pattern is case-sensitive where a word is common. */
const TECH_PATTERNS: { category: "frontend" | "backend" | "database" | "deployment"; re: RegExp }[] = [
  {
    category: "frontend",
    re: /\b(React Native|React|Next\.js|Vue(\.js)?|Nuxt|Svelte(Kit)?|Angular(JS)?|Solid(JS)?|Remix|Astro|Tailwind( CSS)?|Expo|Flutter|SwiftUI|Jetpack Compose|htmx|jQuery|Bootstrap|Sass|SCSS)\b/g,
  },
  {
    category: "backend",
    re: /\b(Node\.js|NodeJS|Deno|Bun|Express|Fastify|NestJS|Hono|Django|Flask|FastAPI|Rails|Ruby on Rails|Laravel|Symfony|Spring( Boot)?|ASP\.NET|\.NET|Phoenix|Elixir|Go|Golang|Rust|Python|TypeScript|JavaScript|Java|Kotlin|Swift|C#|C\+\+|Ruby|PHP|Scala|Haskell|OCaml|Zig|discord\.js|GraphQL|gRPC|MQTT|Kafka|RabbitMQ|NATS|Celery|Airflow|dbt|Spark|pandas|PyTorch|TensorFlow|Unity|Godot|Arduino|ESP32|Raspberry Pi|LLVM|WebAssembly|Wasm|Sinatra|Jinja2?|Knex|SignalR|Entity Framework(?: Core)?|EF Core|JavaFX|Electron|Slack|Discord|Twilio|Telegram|SendGrid|Mailgun|OpenAI|Gemini|cron|Cron|crontab)\b/g,
  },
  {
    category: "backend",
    // Spelled in lower case as often as not.
    re: /\b(?:raspberry pi|node\.js|socket\.io)\b/gi,
  },
  {
    category: "database",
    re: /\b(PostgreSQL|Postgres|TimescaleDB|MySQL|MariaDB|SQLite|MongoDB|Redis|DynamoDB|Firestore|Firebase|Supabase|Cassandra|ClickHouse|InfluxDB|Elasticsearch|OpenSearch|Snowflake|BigQuery|S3|Prisma|Drizzle|SQLAlchemy|TypeORM)\b/g,
  },
  {
    category: "deployment",
    re: /\b(fly\.io|Fly\.io|Vercel|Netlify|Heroku|Render|Railway|AWS|Amazon Web Services|GCP|Google Cloud|Azure(?! AD| Active Directory| Entra)|DigitalOcean|Cloudflare( Workers| Pages)?|Kubernetes|k8s|Docker|Terraform|Pulumi|Ansible|CloudFormation|Lambda|GitHub Actions|GitLab CI)\b/g,
  },
];
/** Words that are technologies only when they are clearly used as names. */
const AMBIGUOUS = new Set([
  "Go",
  "Swift",
  "Rust",
  "Express",
  "Render",
  "Railway",
  "Lambda",
  "Bun",
  "Spark",
  "Solid",
  "Unity",
  "Java",
  "Ruby",
  "Bootstrap",
  "Electron",
  "Gemini",
]);

const FILE_LANGUAGES: [string, string][] = [
  ["py", "Python"],
  ["rb", "Ruby"],
  ["go", "Go"],
  ["java", "Java"],
  ["kt", "Kotlin"],
  ["cs", "C#"],
  ["php", "PHP"],
  ["rs", "Rust"],
];

export type NamedTech = Record<"frontend" | "backend" | "database" | "deployment", string[]>;

/** Technologies the text names, as spelled there, by category. */
export function namedTechnologies(text: string): NamedTech {
  const out: NamedTech = { frontend: [], backend: [], database: [], deployment: [] };
  for (const { category, re } of TECH_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const name = m[0];
      if (AMBIGUOUS.has(name) && !clearlyANameAt(text, m.index ?? 0, name)) continue;
      if (!out[category].includes(name)) out[category].push(name);
    }
  }
  // "check_price.py", "main.go": a file of a language names the language.
  for (const [ext, language] of FILE_LANGUAGES)
    if (new RegExp(`\\b[\\w-]+\\.${ext}\\b`).test(text) && !allNamed(out).includes(language))
      out.backend.push(language);
  // "React" inside "React Native" is the same thing said once.
  if (out.frontend.includes("React Native")) out.frontend = out.frontend.filter((n) => n !== "React");
  return out;
}

/** "Go" is the language in "a Go CLI", "written in Go", "Go, SQLite", not in "go to the page". */
function clearlyANameAt(text: string, at: number, name: string): boolean {
  const before = text.slice(Math.max(0, at - 25), at);
  const after = text.slice(at + name.length, at + name.length + 25);
  if (
    /(\bin|\bwith|\busing|\bon|\bto|\bof)\s+$/i.test(before) &&
    !/^\s+(to|the|a|an|back|ahead|through|over)\b/i.test(after)
  )
    return true;
  if (
    /^[\s-]*(cli|service|program|module|binary|app|backend|server|api|library|crate|code|version|function|engine|project|toolchain|compiler|bot)\b/i.test(
      after,
    )
  )
    return true;
  return /^\s*[,/+)]/.test(after) || /[,(/+]\s*$/.test(before);
}

export function allNamed(tech: NamedTech): string[] {
  return [...tech.frontend, ...tech.backend, ...tech.database, ...tech.deployment];
}

/** A migration that moves data (a database, a store, records), rather than code to a new version. */
export function isDataMigration(text: string): boolean {
  return /\b(database|db|data(?:set)?s?|schema|tables?|rows?|records?|collections?|documents?|mysql|postgres(?:ql)?|mongo(?:db)?|sql server|oracle|dynamodb|redis|elasticsearch|s3|bucket|storage|heroku|aws|gcp|azure|hosting|servers?)\b/i.test(
    text,
  );
}

/** What the work delivers, from the application type chosen and the in-scope text. */
export function deliverable(brief: ProjectBrief, inScope: string): Deliverable {
  const type = brief.applicationType?.id ?? "";
  // "mobile-friendly", "responsive", "on mobile browsers" describe a web app, not a mobile app.
  const t = `${type} ${inScope}`.replace(
    /\bmobile[- ](?:friendly|first|responsive|browsers?|web)\b|\bon (?:a |their )?(?:phone|mobile)s?\b/gi,
    "",
  );
  if (/\b(browser extension|chrome extension|firefox add-?on|web extension)\b/i.test(t)) return "extension";
  if (/\b(terraform|pulumi|cloudformation|infrastructure as code|iac)\b/i.test(t)) return "infrastructure";
  if (/\b(cli|command[- ]line( tool)?|terminal (tool|app))\b/i.test(t)) return "cli";
  if (
    /\b(sdk|crate|npm package|pypi package|python package|package for|publish(?:ed)? (?:it )?(?:to|on) (?:npm|pypi|crates\.io|maven|nuget|packagist)|(?:typescript|javascript|js|python|go|rust|java|kotlin|swift|ruby|php|c#|\.net) (?:library|package|module))\b/i.test(
      t,
    )
  )
    return "library";
  if (/\b(mobile app|ios|android|expo|react native|flutter|iphone|app store|play store)\b/i.test(t))
    return "mobile";
  if (/\b(web|site|saas|api|service|server|backend|dashboard|portal|bot|app|platform|system)\b/i.test(t))
    return "service";
  return "other";
}

/** Work that people outside the team can reach or that holds their data: worth a security review. */
export function needsSecurityReview(text: string, kind: Deliverable): boolean {
  return (
    kind === "service" ||
    kind === "mobile" ||
    kind === "extension" ||
    /\b(sign[- ]?(in|up|on)|log[- ]?in|auth\w*|accounts?|passwords?|payments?|personal|patients?|health|upload|webhooks?|public|tokens?|secrets?|credentials?)\b/i.test(
      text,
    )
  );
}

/**
 * Suggested checks for domains named without ambiguity. They are added to the node that mentions the
 * domain as suggestions; they never rename it or add work of their own.
 */
export const DOMAIN_CHECKS: { name: string; re: RegExp; checks: string[] }[] = [
  {
    name: "Stripe",
    re: /\bStripe\b/i,
    checks: [
      "verify each webhook's signature before trusting it",
      "send an idempotency key with every request that creates or charges",
      "handle failed, refunded and disputed payments",
    ],
  },
  {
    name: "SAML",
    re: /\bSAML\b/,
    checks: [
      "publish the service provider (SP) metadata",
      "validate signed assertions at the ACS endpoint, including audience and expiry",
      "plan identity-provider certificate rotation without downtime",
    ],
  },
  {
    name: "OAuth / OpenID Connect",
    re: /\b(OAuth|OpenID Connect|OIDC)\b/,
    checks: [
      "use the authorization code flow with PKCE and check the state parameter",
      "validate the ID token's issuer, audience and expiry",
    ],
  },
  {
    name: "21 CFR Part 11",
    re: /\b(21 CFR Part 11|21 CFR 11|Part 11)\b/i,
    checks: [
      "keep a computer-generated, time-stamped audit trail of every change to a record",
      "bind electronic signatures to their records (who, when, meaning)",
      "document system validation for the intended use",
    ],
  },
  {
    name: "HIPAA",
    re: /\bHIPAA\b/,
    checks: [
      "encrypt protected health information at rest and in transit",
      "log access to patient records",
      "sign business associate agreements with hosting providers",
    ],
  },
  {
    name: "GDPR",
    re: /\bGDPR\b/,
    checks: [
      "let people export and delete their personal data",
      "record the legal basis or consent for each use of personal data",
    ],
  },
  {
    name: "PCI DSS",
    re: /\b(PCI|PCI[- ]DSS)\b/,
    checks: ["never store full card numbers: use the payment provider's hosted fields"],
  },
];

export function domainChecksFor(text: string): { name: string; checks: string[] }[] {
  return DOMAIN_CHECKS.filter((d) => d.re.test(text)).map(({ name, checks }) => ({ name, checks }));
}
