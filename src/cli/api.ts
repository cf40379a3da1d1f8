import type { z } from "zod";
import { CliError } from "./errors";

/** How long one request may take before the command gives up. */
const REQUEST_TIMEOUT_MS = 30_000;

export type Connection = { url: string; token: string };

type ErrorBody = { detail?: unknown; errors?: { field?: string; message?: string }[] };

/**
 * A client of the app's public REST API (/api), authenticated with a personal access token. Each call
 * names the schema of the answer it expects (the operation's own, from src/shared/schemas): an answer
 * that does not match is a clear error, not a crash further on.
 */
export class Api {
  constructor(private readonly conn: Connection) {}

  get<S extends z.ZodType>(path: string, answer: S): Promise<z.output<S>> {
    return this.request("GET", path, answer);
  }
  post<S extends z.ZodType>(path: string, answer: S, body: unknown = {}): Promise<z.output<S>> {
    return this.request("POST", path, answer, body);
  }
  put<S extends z.ZodType>(path: string, answer: S, body: unknown): Promise<z.output<S>> {
    return this.request("PUT", path, answer, body);
  }
  patch<S extends z.ZodType>(path: string, answer: S, body: unknown): Promise<z.output<S>> {
    return this.request("PATCH", path, answer, body);
  }

  async request<S extends z.ZodType>(
    method: string,
    path: string,
    answer: S,
    body?: unknown,
  ): Promise<z.output<S>> {
    const { url, token } = this.conn;
    let res: Response;
    try {
      res = await fetch(`${url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new CliError(`Could not reach the Atomize server at ${url} (${reasonOf(err)}). Is it running?`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      throw new CliError(
        `The server at ${url} answered ${res.status} without JSON: is that the Atomize server's address?`,
      );
    }
    if (!res.ok) throw new CliError(refusal(res, json as ErrorBody | null));
    const checked = answer.safeParse(json);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw new CliError(
        `The server at ${url} answered ${method} /api${path} with something this version of atomize does not understand (${where}${issue?.message}). Are the server and atomize the same version?`,
      );
    }
    // The answer itself, not the parsed copy: its schemas do not transform, and --json prints the
    // server's answer exactly (key order and fields this version does not know included).
    return json as z.output<S>;
  }
}

function refusal(res: Response, body: ErrorBody | null): string {
  if (res.status === 401) {
    return "The token was refused (expired or revoked?): make a new one under Settings → API tokens and run `atomize login`.";
  }
  const said = typeof body?.detail === "string" ? body.detail : `The server answered ${res.status}.`;
  // A refusal of one field says which: "items.3.role: role must be one of ...".
  const only = body?.errors?.length === 1 ? body.errors[0] : undefined;
  const named = only?.field && only.field !== "body" && only.message === said;
  const detail = named ? `${only.field}: ${said}` : said;
  const fields = (body?.errors ?? [])
    .filter((e) => e.message && e.message !== said)
    .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
  const text = fields.length ? `${detail} (${fields.join("; ")})` : detail;
  if (res.status === 429) {
    const wait = res.headers.get("retry-after");
    return `${text} Rate limited${wait ? `: try again in ${wait} s` : ""}.`;
  }
  return text;
}

function reasonOf(err: unknown): string {
  if (err instanceof Error && err.name === "TimeoutError")
    return `no answer in ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
