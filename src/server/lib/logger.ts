/** Minimal structured logger: one JSON line per entry. Whatever callers pass, secrets are scrubbed. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
};

/** Where lines go; tests capture them to check that no secret is ever logged. */
export type LogSink = (line: string, level: Exclude<LogLevel, "silent">) => void;

/**
 * A closed stdout/stderr (the parent or the log collector went away) makes every write fail with EPIPE.
 * Without a listener that error would reach the last-resort handler, which logs it, which fails again: a
 * busy loop. The first such error stops writing to that stream instead.
 */
const broken = new WeakSet<NodeJS.WriteStream>();
const guarded = new WeakSet<NodeJS.WriteStream>();
function writeLine(stream: NodeJS.WriteStream, line: string) {
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on("error", () => broken.add(stream));
  }
  if (!broken.has(stream)) stream.write(`${line}\n`);
}

const defaultSink: LogSink = (line, level) =>
  writeLine(level === "error" || level === "warn" ? process.stderr : process.stdout, line);

const SECRET_KEY = /pass(word)?|secret|token|authori[sz]ation|cookie|api[-_]?key|credential|hash|^key$/i;
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/\$argon2(id|i|d)\$[^\s"',]+/g, "[password hash]"],
  // Session, refresh and one-time tokens are `id.secret` in base32.
  [/\b[a-z2-7]{16,64}\.[a-z2-7]{16,64}\b/g, "[token]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  [/\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{16,})\b/g, "[token]"],
  [/([?&](token|key|code|state|access_token|refresh_token)=)[^&\s"]+/gi, "$1[redacted]"],
  [/(\/\/[^:/\s@]+:)[^@\s/]+@/g, "$1[redacted]@"], // credentials in URLs
];

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Drizzle reports a failed query as "Failed query: <sql>\nparams: <values>": the values can be anything a
 * user sent, password hashes included. Only the database's own message (the cause) is kept.
 */
function scrubError(err: Error): Record<string, unknown> {
  const failedQuery = /^Failed query:/.test(err.message);
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const message = failedQuery ? `Database query failed: ${cause?.message ?? "unknown error"}` : err.message;
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  const out: Record<string, unknown> = {
    name: err.name,
    message: scrubText(message),
    stack: scrubText([`${err.name}: ${message}`, ...frames].join("\n")),
  };
  const code = (failedQuery ? cause : err) as { code?: unknown } | undefined;
  if (typeof code?.code === "string") out.code = code.code;
  if (cause && !failedQuery) out.cause = scrubError(cause);
  return out;
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value instanceof Error) return scrubError(value);
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const secret = SECRET_KEY.test(k) && (typeof v === "string" || (typeof v === "object" && v !== null));
    out[k] = secret ? "[redacted]" : scrub(v, depth + 1);
  }
  return out;
}

export function createLogger(
  level: LogLevel,
  base: Record<string, unknown> = {},
  sink: LogSink = defaultSink,
): Logger {
  const write = (lvl: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    const entry = scrub({ ...base, ...fields }) as Record<string, unknown>;
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: scrubText(msg), ...entry }), lvl);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, sink),
  };
}
