import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { Config } from "../../config";
import { hostOf, isLocalName } from "./address";
import { type Chooser, createPolicy, judge, type OutboundPolicy, type Verdict } from "./policy";

/**
 * The one way the server calls an address a person chose (docs/decisions/007, "Outbound requests"): model
 * providers and their tests, the Ollama probe, JIRA and Confluence sites, Trello and GitHub, webhook
 * registration. The check happens where the socket is made, on the address it connects to:
 * - a name is resolved once, inside the socket's own lookup, and only addresses the policy allows are
 *   handed back to it, so nothing can re-resolve between the check and the connect (DNS rebinding);
 * - an IP literal (which skips the lookup) is checked before connecting;
 * - the connected socket's remote address is checked again before a byte is sent;
 * - every redirect opens its connection through the same check, so none can lead to a refused address.
 * A refusal is an OutboundRefused error (code EOUTBOUND), which callers report as "could not connect",
 * the same words as for a host that does not exist or a closed port; the log says why.
 */

export class OutboundRefused extends Error {
  readonly code = "EOUTBOUND";
  constructor(
    readonly host: string,
    readonly verdict: Extract<Verdict, { ok: false }>,
  ) {
    super(`Refused to connect to ${host}: a ${verdict.kind} address (set OUTBOUND_ALLOW to allow it).`);
    this.name = "OutboundRefused";
  }
}

/** Whether an error (or one of its causes) is the guard's refusal. */
export function outboundRefusal(err: unknown): OutboundRefused | null {
  for (let e: unknown = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++)
    if (e instanceof OutboundRefused) return e;
  return null;
}

/** Resolves a name to every address it has (injected in tests). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The addresses of `host` that `chooser` may connect to on `port`: an IP literal is judged as it is, a
 * name by every address it resolves to (those refused are dropped). Throws OutboundRefused when none is left.
 */
export async function allowedAddresses(
  policy: OutboundPolicy,
  chooser: Chooser,
  rawHost: string,
  port: number,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number }[]> {
  const host = hostOf(rawHost) ?? rawHost;
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  let refused: Extract<Verdict, { ok: false }> = { ok: false, kind: "invalid" };
  const allowed = addresses.filter(({ address }) => {
    const verdict = judge(policy, chooser, { host, port, address });
    if (!verdict.ok) refused = verdict;
    return verdict.ok;
  });
  if (allowed.length === 0) throw new OutboundRefused(host, refused);
  return allowed;
}

const DEFAULT_PORT: Record<string, number> = { "http:": 80, "https:": 443 };

/** An undici dispatcher whose every connection goes through the policy. */
export function guardedDispatcher(
  policy: OutboundPolicy,
  chooser: Chooser,
  resolve: Resolver = systemResolver,
): Agent {
  return new Agent({
    connect(opts, callback) {
      const port = Number(opts.port) || DEFAULT_PORT[opts.protocol] || 0;
      const refuse = (err: unknown) => callback(err as Error, null);
      const lookup: LookupFunction = (hostname, options, cb) => {
        allowedAddresses(policy, chooser, hostname, port, resolve).then(
          (found) => {
            const family = (options as { family?: number }).family;
            const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
            if (usable.length === 0) {
              cb(
                Object.assign(new Error(`No IPv${family} address for ${hostname}`), { code: "ENOTFOUND" }),
                "",
              );
              return;
            }
            if ((options as { all?: boolean }).all)
              (cb as unknown as (e: null, a: typeof usable) => void)(null, usable);
            else cb(null, usable[0]!.address, usable[0]!.family);
          },
          cb as (err: Error) => void,
        );
      };
      const check = (socket: Socket) => {
        const address = socket.remoteAddress;
        const verdict = address
          ? judge(policy, chooser, { host: hostOf(opts.hostname) ?? opts.hostname, port, address })
          : ({ ok: false, kind: "invalid" } as const);
        return verdict.ok ? null : new OutboundRefused(address ?? opts.hostname, verdict);
      };
      const connectThrough = () =>
        buildConnector({ lookup, timeout: 10_000 })(opts, (err, socket) => {
          if (err || !socket) return refuse(err);
          const refusal = check(socket as Socket);
          if (refusal) {
            socket.destroy();
            return refuse(refusal);
          }
          callback(null, socket);
        });
      if (isIP(opts.hostname)) {
        // A literal is not looked up: judge it before any packet is sent.
        allowedAddresses(policy, chooser, opts.hostname, port, resolve).then(connectThrough, refuse);
      } else connectThrough();
    },
  });
}

export type OutboundFetch = typeof fetch;

/** What the guard reads of the configuration (a client made with part of it, in tests, passes that part). */
export type OutboundConfig = Partial<
  Pick<
    Config,
    | "OUTBOUND_ALLOW"
    | "ollamaUrl"
    | "ollamaUrlSet"
    | "OPENAI_BASE_URL"
    | "GITHUB_API_URL"
    | "TRELLO_API_URL"
    | "ATLASSIAN_API_URL"
  >
>;

/** The policy the configuration sets: OUTBOUND_ALLOW and the service addresses the operator configured. */
export function policyFromConfig(config: OutboundConfig): OutboundPolicy {
  return createPolicy(config.OUTBOUND_ALLOW ?? [], [
    // The default OLLAMA_URL is no address the operator chose: users reach a local Ollama only when it is set.
    config.ollamaUrlSet === false ? null : config.ollamaUrl,
    config.OPENAI_BASE_URL,
    config.GITHUB_API_URL,
    config.TRELLO_API_URL,
    config.ATLASSIAN_API_URL,
  ]);
}

/** A fetch whose connections go through `dispatcher`. */
export function fetchThrough(dispatcher: Agent): OutboundFetch {
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as OutboundFetch;
}

type Guarded = { policy: OutboundPolicy } & Record<Chooser, OutboundFetch>;
const perConfig = new WeakMap<OutboundConfig, Guarded>();

function guardedFor(config: OutboundConfig): Guarded {
  let guarded = perConfig.get(config);
  if (!guarded) {
    const policy = policyFromConfig(config);
    guarded = {
      policy,
      user: fetchThrough(guardedDispatcher(policy, "user")),
      admin: fetchThrough(guardedDispatcher(policy, "admin")),
    };
    perConfig.set(config, guarded);
  }
  return guarded;
}

/**
 * The guarded fetch for addresses `chooser` chose, under this configuration's policy: one dispatcher
 * (and its connection pool) per configuration and chooser.
 */
export function outboundFetch(config: OutboundConfig, chooser: Chooser): OutboundFetch {
  return guardedFor(config)[chooser];
}

const KIND_WORDS: Record<Exclude<Extract<Verdict, { ok: false }>["kind"], "public">, string> = {
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  "link-local": "a link-local address",
  "carrier-grade-nat": "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
  invalid: "not a valid address",
};

/**
 * What the policy says of a URL whose host is written as an address (in any spelling) or is a local name
 * such as `localhost`, before anything is resolved: a message for the person who typed it, or null (a
 * name is judged only when a connection is made, and its refusal then reads as "could not connect").
 */
export function literalRefusal(config: OutboundConfig, chooser: Chooser, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = hostOf(u.hostname);
  if (!host) return null;
  const port = Number(u.port) || DEFAULT_PORT[u.protocol] || 0;
  const { policy } = guardedFor(config);
  const addresses = isIP(host) ? [host] : isLocalName(host) ? ["127.0.0.1", "::1"] : [];
  // As a connection would: refused only when no address of the host is allowed.
  const verdicts = addresses.map((address) => judge(policy, chooser, { host, port, address }));
  const refused = verdicts[0];
  if (!refused || refused.ok || verdicts.some((v) => v.ok)) return null;
  return `${u.hostname} is ${KIND_WORDS[refused.kind as keyof typeof KIND_WORDS]}, which Atomize does not connect to for ${
    chooser === "user" ? "your settings" : "the instance's settings"
  }. An administrator can allow it with OUTBOUND_ALLOW.`;
}
