import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pkg from "../../package.json" with { type: "json" };
import { type ExportFormat, treeToCsv, treeToJson, treeToMarkdown } from "../shared/export-formats";
import { activityPage as activityAnswer } from "../shared/schemas/activity";
import {
  nextTask as nextTaskAnswer,
  projectList as projectListAnswer,
  statusChange as statusChangeAnswer,
} from "../shared/schemas/agent";
import { publicUser } from "../shared/schemas/auth";
import { reading as readingAnswer } from "../shared/schemas/reading";
import { reviewState as reviewStateAnswer } from "../shared/schemas/reviews";
import { schedule as scheduleAnswer } from "../shared/schemas/schedule";
import { task as taskAnswer, taskTreeNode } from "../shared/schemas/tasks";
import { Api, type Connection } from "./api";
import { configFile, readLogin, removeLogin, writeLogin } from "./config";
import { CliError, UsageError } from "./errors";
import {
  activityText,
  createdProject,
  nextTask,
  planOutline,
  projectList,
  readingText,
  statusChange,
} from "./format";
import { mapLocalRepository } from "./local-repository";
import { readToken } from "./read-token";
import { terminalText } from "./terminal-text";

/** `atomize`: the app's public REST API from a terminal (issue 14). Parses, calls, presents; nothing more. */

const DEFAULT_URL = "http://localhost:8080";

const USAGE = `Usage: atomize <command> [options]

Commands:
  login                  Store a personal access token (Settings → API tokens); asks for it on stdin
  logout                 Forget the stored token
  projects               List your projects
  new "<text>"           A new project from the text; --repo PATH plans it as a change to the code in
                         that checkout (a map of its paths, manifests and symbols is sent, no files)
  create <file|->        A new project from the description in a file (- reads stdin), planned at
                         once; --review only reads it, for you to check with \`atomize reading\`
  reading <id>           What was read of a project's description: its kind and each item's role;
                         --set FILE replaces it with the JSON {kind, items: [{text, role}]} in FILE
                         (- reads stdin) while the project awaits review
  plan-now <id>          Plan a project awaiting review from its reading as it stands
  plan <id>              A project's tasks as an outline, its critical path and forecast
  activity <id>          Who did what on a project (or a task), newest first: edits, status, claims,
                         comments, reviews, exports, by people and their agents
  next <id>              The next task to do in a project, with what it takes and what it unblocks
  start <task id>        Mark a task in progress
  done <task id>         Mark a task completed; --hours N records the hours it took (else the
                         working time since start is kept)
  export <id>            A project as --format md, csv or json (as the app's download), to stdout
                         or --output FILE

Options:
  --json                 Print the API's JSON instead of text (for scripts)
  --url URL              The server (else ATOMIZE_URL, the stored login, or ${DEFAULT_URL})
  --token TOKEN          The token (else ATOMIZE_TOKEN or the stored login); prefer stdin for login
  -h, --help             This text
  -v, --version          The version

Exit status: 0 done, 1 the server refused or could not be reached, 2 a wrong command line.
`;

const OPTIONS = {
  json: { type: "boolean" },
  url: { type: "string" },
  token: { type: "string" },
  format: { type: "string" },
  output: { type: "string", short: "o" },
  hours: { type: "string" },
  review: { type: "boolean" },
  repo: { type: "string" },
  set: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type Options = {
  json?: boolean;
  url?: string;
  token?: string;
  format?: string;
  output?: string;
  hours?: string;
  review?: boolean;
  repo?: string;
  set?: string;
};

type Command = {
  /** The positional arguments it needs, by name. */
  args: string[];
  /** Its options beyond --json, --url and --token. */
  options?: (keyof typeof OPTIONS)[];
  run(args: string[], opts: Options): Promise<void>;
};

/**
 * Every line for a person goes through here: it carries titles, descriptions and criteria that others
 * wrote, and a terminal would obey the escape sequences among them (terminal-text.ts).
 */
const write = (text: string): void => {
  process.stdout.write(terminalText(text));
};
/** --json is for scripts: the API's answer exactly (JSON escapes C0 controls itself). */
const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
const taskPath = (id: string, rest = "") => `/tasks/${encodeURIComponent(id)}${rest}`;

function serverUrl(opts: Options, stored: Connection | null): string {
  const raw = opts.url || process.env.ATOMIZE_URL || stored?.url || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`The server URL must start with http:// or https:// (got ${raw})`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function checkToken(token: string): string {
  const t = token.trim();
  if (t === "") throw new UsageError("No token given: pipe it on stdin or pass --token.");
  // A header cannot carry spaces or control characters; refuse here rather than echo it in an error.
  if (!/^[\x21-\x7e]+$/.test(t)) throw new UsageError("That is not an API token (they look like atz_...).");
  return t;
}

/** `--hours N`: a number of hours, 0 or more (the server checks the upper limit and says so). */
function hoursOption(text: string): number {
  const hours = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(hours) || hours < 0) {
    throw new UsageError(`--hours must be a number of hours, 0 or more (got ${text}).`);
  }
  return hours;
}

/** The server and token to use: options, then the environment, then the stored login. */
function connect(opts: Options): Api {
  const file = configFile();
  const stored = readLogin(file);
  const url = serverUrl(opts, stored);
  const explicit = opts.token || process.env.ATOMIZE_TOKEN;
  // The stored token belongs to the stored server: it is never sent anywhere else.
  const token = explicit || (stored && serverUrl({ url: stored.url }, null) === url ? stored.token : null);
  if (!token) {
    throw new CliError(
      stored
        ? `Not logged in to ${url} (the stored login is for ${stored.url}): run \`atomize login --url ${url}\`, or set ATOMIZE_TOKEN.`
        : "Not logged in: run `atomize login` with a token from Settings → API tokens, or set ATOMIZE_TOKEN.",
    );
  }
  return new Api({ url, token: checkToken(token) });
}

const commands: Record<string, Command> = {
  login: {
    args: [],
    async run(_, opts) {
      const file = configFile();
      // A stored login that cannot be read is about to be replaced, so it may not stop this one.
      let stored: Connection | null = null;
      try {
        stored = readLogin(file);
      } catch {}
      const url = serverUrl(opts, stored);
      const token = checkToken(opts.token ?? (await readToken()));
      const me = await new Api({ url, token }).get("/auth/me", publicUser);
      writeLogin(file, { url, token });
      if (opts.json) return printJson({ url, user: me });
      write(`Logged in to ${url} as ${me.full_name ? `${me.full_name} <${me.email}>` : me.email}.\n`);
      write(`The token is stored in ${file}.\n`);
    },
  },
  logout: {
    args: [],
    async run(_, opts) {
      const file = configFile();
      const removed = removeLogin(file);
      if (opts.json) return printJson({ logged_out: removed });
      write(
        removed
          ? `Logged out: removed ${file}. The token itself works until you revoke it under Settings → API tokens.\n`
          : "Not logged in: nothing to remove.\n",
      );
    },
  },
  projects: {
    args: [],
    async run(_, opts) {
      const list = await connect(opts).get("/projects?limit=100", projectListAnswer);
      if (opts.json) return printJson(list);
      write(projectList(list));
    },
  },
  new: {
    args: ["description"],
    options: ["repo"],
    async run([description], opts) {
      // On a checkout (issue 42): its map is made here, and only the map is sent, never the files.
      const map = opts.repo === undefined ? undefined : await mapLocalRepository(opts.repo);
      const task = await connect(opts).post("/tasks", taskAnswer, {
        description,
        ...(map ? { repository_map: map } : {}),
      });
      if (opts.json) return printJson(task);
      write(createdProject(task));
      if (map)
        write(
          `Mapped ${map.files.length} files of ${map.name}${map.truncated ? " (a part: it is bigger than a map holds)" : ""}.\n`,
        );
    },
  },
  create: {
    args: ["file"],
    options: ["review"],
    async run([file], opts) {
      const description = readInput(file!);
      const task = await connect(opts).post("/tasks", taskAnswer, {
        description,
        review_reading: opts.review === true,
      });
      if (opts.json) return printJson(task);
      write(createdProject(task));
    },
  },
  reading: {
    args: ["id"],
    options: ["set"],
    async run([id], opts) {
      const api = connect(opts);
      const answer =
        opts.set === undefined
          ? await api.get(taskPath(id!, "/reading"), readingAnswer)
          : await api.put(taskPath(id!, "/reading"), readingAnswer, readingFile(opts.set));
      if (opts.json) return printJson(answer);
      write(readingText(answer));
    },
  },
  "plan-now": {
    args: ["id"],
    async run([id], opts) {
      const task = await connect(opts).post(taskPath(id!, "/plan"), taskAnswer);
      if (opts.json) return printJson(task);
      write(`Planning ${task.id} (${task.status}). Follow it with: atomize plan ${task.id}\n`);
    },
  },
  plan: {
    args: ["id"],
    async run([id], opts) {
      const api = connect(opts);
      const [tree, schedule, review] = await Promise.all([
        api.get(taskPath(id!, "/tree"), taskTreeNode),
        api.get(taskPath(id!, "/schedule"), scheduleAnswer),
        api.get(taskPath(id!, "/reviews"), reviewStateAnswer),
      ]);
      if (opts.json) return printJson({ tree, schedule, review });
      write(planOutline(tree, schedule, review));
    },
  },
  activity: {
    args: ["id"],
    async run([id], opts) {
      const page = await connect(opts).get(taskPath(id!, "/activity?limit=30"), activityAnswer);
      if (opts.json) return printJson(page);
      write(activityText(page));
    },
  },
  next: {
    args: ["id"],
    async run([id], opts) {
      const next = await connect(opts).get(taskPath(id!, "/next"), nextTaskAnswer);
      if (opts.json) return printJson(next);
      write(nextTask(next));
    },
  },
  start: {
    args: ["task id"],
    async run([id], opts) {
      const change = await connect(opts).post(taskPath(id!, "/status"), statusChangeAnswer, {
        status: "in_progress",
      });
      if (opts.json) return printJson(change);
      write(statusChange("Started", change));
    },
  },
  done: {
    args: ["task id"],
    options: ["hours"],
    async run([id], opts) {
      const hours = opts.hours === undefined ? undefined : hoursOption(opts.hours);
      const api = connect(opts);
      const change = await api.post(taskPath(id!, "/status"), statusChangeAnswer, {
        status: "completed",
        ...(hours === undefined ? {} : { actual_hours: hours }),
      });
      if (opts.json) return printJson(change);
      write(statusChange("Done", change));
      const task = await api.get(taskPath(id!), taskAnswer);
      write(`What now: atomize next ${task.root_task_id ?? task.id}\n`);
    },
  },
  export: {
    args: ["id"],
    options: ["format", "output"],
    async run([id], opts) {
      const format = opts.format ?? (opts.json ? "json" : undefined);
      if (!format) throw new UsageError("Which format? Add --format md, --format csv or --format json.");
      if (!["md", "csv", "json"].includes(format)) {
        throw new UsageError(`--format must be md, csv or json (got ${format}).`);
      }
      if (opts.json && format !== "json") throw new UsageError("--json exports JSON; leave out --format.");
      const tree = await connect(opts).get(taskPath(id!, "/tree"), taskTreeNode);
      const convert = { md: treeToMarkdown, csv: treeToCsv, json: treeToJson }[format as ExportFormat];
      const text = convert(tree);
      // Redirected, it is the app's download byte for byte, and JSON stays exact as --json does; only
      // Markdown or CSV shown on a terminal is cleaned.
      const onScreen = process.stdout.isTTY && format !== "json";
      if (!opts.output) return onScreen ? write(text) : void process.stdout.write(text);
      try {
        writeFileSync(opts.output, text);
      } catch (err) {
        throw new CliError(`Cannot write ${opts.output}: ${(err as Error).message}`);
      }
      process.stderr.write(terminalText(`Wrote ${opts.output}.\n`));
    },
  },
};

/** A file's text, or stdin's for "-". */
function readInput(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (err) {
    throw new CliError(
      `Cannot read ${file === "-" ? "stdin" : file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** `--set FILE`: its JSON, as sent; the server checks its fields and names any at fault. */
function readingFile(file: string): unknown {
  const text = readInput(file);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(
      `${file === "-" ? "stdin" : file} is not JSON: give {"kind": ..., "items": [{"text": ..., "role": ...}]}.`,
    );
  }
}

function version(): string {
  return String(pkg.version);
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // Node's message goes on with advice about "--"; its first sentence says what is wrong.
    throw new UsageError((err as Error).message.split(". ")[0]!);
  }
  const { values, positionals } = parsed;
  if (values.version) return write(`${version()}\n`);
  const [name, ...args] = positionals;
  if (values.help || name === undefined || name === "help") return write(USAGE);
  const command = commands[name];
  if (!command) throw new UsageError(`Unknown command: ${name}`);
  const allowed = new Set<string>(["json", "url", "token", ...(command.options ?? [])]);
  const stray = Object.keys(values).find((k) => !allowed.has(k));
  if (stray) throw new UsageError(`--${stray} is not an option of \`atomize ${name}\``);
  const missing = command.args[args.length];
  if (missing) throw new UsageError(`Missing the ${missing}: atomize ${name} <${missing}>`);
  if (args.length > command.args.length)
    throw new UsageError(`Unexpected argument: ${args[command.args.length]}`);
  await command.run(args, values);
}

/** Tokens never reach the terminal, whatever an error message quoted. */
const redact = (text: string) => text.replace(/atz_[\w-]+/g, "atz_…");

// `atomize plan x | head` closes the pipe early: that ends the command, without a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(0);
});

try {
  await main(process.argv.slice(2));
} catch (err) {
  const usage = err instanceof UsageError;
  const message = err instanceof CliError || usage ? err.message : `unexpected error: ${String(err)}`;
  // The message may quote the server, which may quote what others wrote.
  const text = `atomize: ${message}\n${usage ? "Run `atomize help` for usage.\n" : ""}`;
  process.stderr.write(terminalText(redact(text)));
  process.exitCode = usage ? 2 : 1;
}
