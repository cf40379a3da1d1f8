import { z } from "zod";
import { parseAllowList } from "./lib/outbound/policy";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const emailList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

/** Every environment variable Atomize reads; `.env.example` documents each one. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8080"),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/ })
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    TRUST_PROXY: bool.default(false),
    SUPPORT_EMAIL: z.email().default("support@atomize.local"),
    SOCIAL_GITHUB_URL: z.url().default("https://github.com/atomize-app"),
    SOCIAL_X_URL: z.url().default("https://x.com/atomize_app"),
    SOCIAL_LINKEDIN_URL: z.url().default("https://www.linkedin.com/company/atomize-app"),
    ADMIN_EMAILS: emailList.default([]),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_ISSUER_URL: z.url({ protocol: /^https?$/ }).default("https://accounts.google.com"),
    SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(60),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
    LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
    /** Failures on one account from all addresses after which every further try waits (exponential, capped). */
    LOGIN_ACCOUNT_BACKOFF_AFTER: z.coerce.number().int().min(1).default(10),
    LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Anonymous writes per client address and hour: registrations, and the rest (subscriptions, e-mails). */
    REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(10),
    ANONYMOUS_WRITES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(60),
    /** The most tasks one plan may hold, the project included; every path that adds tasks keeps it (issue 39). */
    PLAN_MAX_NODES: z.coerce.number().int().min(10).max(1_000_000).default(20_000),
    /**
     * The monthly limit counts every plan, not only those a model makes (issue 40): by default the
     * offline planner and a coding agent's own planning cost the instance nothing and do not count.
     */
    MONTHLY_LIMIT_ALL_PLANNING: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true"),
    /**
     * Whole-plan requests (a plan's tree or schedule) one client may have running at once, and start in a
     * second (rest/heavy-requests.ts; 0 lifts the bound). A person's browser stays far below both.
     */
    HEAVY_REQUESTS_PER_CLIENT: z.coerce.number().int().min(0).max(100).default(2),
    HEAVY_REQUESTS_PER_SECOND: z.coerce.number().min(0).max(1000).default(10),
    /** Memory for whole-plan reads built once per plan version (services/tasks/tree-cache.ts); 0 turns it off. */
    TREE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    /** Webhook deliveries with a bad signature one address may send in a minute; past it, 429 (issue 39). */
    WEBHOOK_BAD_SIGNATURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /** A refresh token just spent may be presented again this long (two tabs refreshing at once). */
    REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    /** Lifetime of an e-mail verification link. */
    EMAIL_VERIFICATION_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(48),
    // Resource limits: what one client can make the server hold.
    /** Whole-request deadline (headers and body); slower clients get 408 and are disconnected. */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /** Open TCP connections (HTTP and WebSocket) the process accepts; more are refused. */
    MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(2_000),
    /** Procedures in one tRPC batch (HTTP or WebSocket message). */
    TRPC_MAX_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
    WS_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).max(10_000).default(50),
    /** Bytes waiting to be sent to one WebSocket client; a client that does not read is disconnected. */
    WS_MAX_BUFFERED_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 ** 3)
      .default(4 * 1024 * 1024),
    /** How often open sockets re-check that their session still exists (expiry, revocation elsewhere). */
    WS_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** The raw /ws channels' liveness check: a protocol ping this often; a socket that missed the last one is dropped. */
    WS_PING_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    LLM_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    LLM_STRUCTURED_OUTPUT: z.enum(["jsonSchema", "functionCalling"]).default("jsonSchema"),
    /**
     * A local Ollama probed at start (GET /api/tags) so Settings can offer its models; never enabled by
     * itself. Set it empty to skip the probe.
     */
    OLLAMA_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:11434"),
    OLLAMA_DETECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(1500),
    /**
     * What calls to addresses people choose (their model provider, a JIRA site) may reach besides public
     * addresses: comma-separated hosts, host:port pairs, IP addresses or CIDR networks. The service
     * addresses set above and below (OLLAMA_URL, OPENAI_BASE_URL, GITHUB_API_URL, ...) are allowed at
     * their own host and port without being listed (docs/decisions/007-hostile-input-and-limits.md).
     */
    OUTBOUND_ALLOW: z
      .string()
      .default("")
      .transform((v, ctx) => {
        try {
          return parseAllowList(v);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message });
          return z.NEVER;
        }
      }),
    /** How long a claimed job stays claimed without a heartbeat from its worker. */
    JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
    JOBS_ENABLED: bool.default(true),
    /**
     * Parse every operation's answer with its declared output schema (operations/invoke.ts): on in the test
     * servers, so every test that calls the API checks the API reference's response bodies; off in use.
     */
    CHECK_OPERATION_OUTPUTS: bool.default(false),
    /** 32 random bytes, base64: encrypts stored third-party credentials. Generated into DATA_DIR when unset. */
    CREDENTIALS_KEY: z.string().optional(),
    /**
     * Origins a JIRA site URL may have, comma-separated, `*` as a leading subdomain wildcard and an
     * optional port wildcard. Only these are ever called, so a typed URL cannot reach our network.
     */
    JIRA_ALLOWED_ORIGINS: z
      .string()
      .default("https://*.atlassian.net")
      .transform((v) =>
        v
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean),
      ),
    /**
     * Atlassian's platform gateway: scoped API tokens reach JIRA and Confluence only through it
     * (/ex/jira/{cloudId}, /ex/confluence/{cloudId}). Tests point it at the fake site.
     */
    /** Requests one personal access token may make in a minute (scripts, the CLI, coding agents). */
    API_TOKEN_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
    /** Active (unexpired) personal access tokens one user may have; each has its own rate limit. */
    API_TOKENS_PER_USER: z.coerce.number().int().min(1).max(1000).default(20),
    ATLASSIAN_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.atlassian.com"),
    /**
     * How long a resumed JIRA export keeps looking for issues a lost answer may have created (JIRA's
     * search lags behind its writes) before it creates the rest again.
     */
    JIRA_SEARCH_SETTLE_MS: z.coerce.number().int().min(0).max(120_000).default(15_000),
    TRELLO_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.trello.com"),
    /** Trello allows 100 requests per 10 s per token; exports pace themselves to this. */
    TRELLO_REQUESTS_PER_10S: z.coerce.number().int().min(1).max(10_000).default(100),
    /** The window of TRELLO_REQUESTS_PER_10S (Trello's is 10 s; shorter only for tests). */
    TRELLO_RATE_WINDOW_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Trello's limit on /1/members/: 100 requests per 900 s per token, for all jobs and processes. */
    TRELLO_MEMBERS_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(100),
    TRELLO_MEMBERS_WINDOW_MS: z.coerce.number().int().min(100).max(3_600_000).default(900_000),
    EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(6),
    /** Retries of one request on 429/5xx/timeouts before the export job itself is retried. */
    EXPORT_HTTP_RETRIES: z.coerce.number().int().min(0).max(10).default(5),
    GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
    /** One GitHub request's deadline (a redirect included). */
    GITHUB_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Pause between content-creating GitHub requests of one token (GitHub asks for about a second). */
    GITHUB_WRITE_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /**
     * Longest wait for a GitHub rate limit to lift (Retry-After, or x-ratelimit-reset); a longer one gives
     * up at once. Exports wait up to this; what a person waits on (connect, grounding) waits at most 5 s.
     */
    GITHUB_RATE_LIMIT_MAX_WAIT_MS: z.coerce.number().int().min(0).max(7_200_000).default(900_000),
    /**
     * GitHub allows about 500 content-creating requests an hour per user: an export keeps under this many
     * in any GITHUB_WRITE_WINDOW_MS and pauses (saying when it resumes) rather than meet the limit.
     */
    GITHUB_WRITES_PER_HOUR: z.coerce.number().int().min(1).max(5000).default(480),
    GITHUB_WRITE_WINDOW_MS: z.coerce.number().int().min(100).max(7_200_000).default(3_600_000),
    /** The wait after a secondary limit without retry-after (GitHub: at least one minute). */
    GITHUB_SECONDARY_LIMIT_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    // Blog e-mail (issue 6). SMTP server for outgoing mail (smtp:// or smtps://, credentials in the URL);
    // unset, mail is kept in the mail_outbox table instead (readable at GET /api/admin/outbox).
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default("Atomize <no-reply@atomize.local>"),
    /** Signs blog unsubscribe links; defaults to a key derived from the credentials key. */
    BLOG_UNSUBSCRIBE_SECRET: z.string().min(16).optional(),
  })
  .superRefine((c, ctx) => {
    if (Boolean(c.GOOGLE_CLIENT_ID) !== Boolean(c.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [c.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"],
        message: "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
      });
    }
    const issuer = new URL(c.GOOGLE_ISSUER_URL);
    if (issuer.protocol === "http:" && !isLoopback(issuer.hostname)) {
      ctx.addIssue({
        code: "custom",
        path: ["GOOGLE_ISSUER_URL"],
        message: "must be https (plain http is accepted only on a loopback address)",
      });
    }
  });

export type Config = z.infer<typeof configSchema> & {
  googleEnabled: boolean;
  /** A language model is configured (a key, or a base URL for a local server such as Ollama). */
  llmEnabled: boolean;
  /** Where to look for a local Ollama; null when OLLAMA_URL is set empty (no probe). */
  ollamaUrl: string | null;
  /**
   * OLLAMA_URL was set by the operator (not the default): only then may users' own providers connect to it
   * (issue 39; decision 012, amended). The default address is probed, and an admin may use it for the instance.
   */
  ollamaUrlSet: boolean;
  cookieSecure: boolean;
  publicOrigin: string;
};

export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127\./.test(hostname);
}

export class ConfigError extends Error {}

/** Parses the environment once. A bad value throws a one-line ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    const value = cleaned[name];
    const shown =
      value === undefined || /SECRET|PASSWORD|KEY|TOKEN|DATABASE_URL|SMTP_URL/.test(name)
        ? ""
        : ` (got "${value}")`;
    throw new ConfigError(`Invalid configuration: ${name}: ${issue.message}${shown}`);
  }
  const c = parsed.data;
  const publicUrl = new URL(c.PUBLIC_URL);
  return {
    ...c,
    googleEnabled: Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
    llmEnabled: Boolean(c.OPENAI_API_KEY || c.OPENAI_BASE_URL),
    // Empty values count as unset everywhere else; an OLLAMA_URL set empty is the way to turn the probe off.
    ollamaUrl: env.OLLAMA_URL !== undefined && env.OLLAMA_URL.trim() === "" ? null : c.OLLAMA_URL,
    ollamaUrlSet: Boolean(env.OLLAMA_URL?.trim()),
    cookieSecure: publicUrl.protocol === "https:",
    publicOrigin: publicUrl.origin,
  };
}
