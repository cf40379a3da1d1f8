/** Minimal structured logger: one JSON line per entry. Callers never pass secrets. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
};

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const write = (lvl: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: lvl,
      msg,
      ...base,
      ...fields,
    };
    if (entry.err instanceof Error)
      entry.err = { name: entry.err.name, message: entry.err.message, stack: entry.err.stack };
    const line = JSON.stringify(entry);
    if (lvl === "error" || lvl === "warn") process.stderr.write(`${line}\n`);
    else process.stdout.write(`${line}\n`);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
