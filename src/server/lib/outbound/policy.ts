import {
  type AddressBytes,
  type AddressKind,
  embeddedIPv4,
  hostOf,
  inPrefix,
  kindOfBytes,
  parseAddress,
} from "./address";

/**
 * Which destinations the server may connect to for an address a person chose (docs/decisions/007,
 * "Outbound requests"). Public addresses always; anything else only when the operator opened it:
 * `OUTBOUND_ALLOW`, the addresses the operator set in the environment for a service (OLLAMA_URL,
 * OPENAI_BASE_URL, GITHUB_API_URL, TRELLO_API_URL, ATLASSIAN_API_URL), and loopback for the instance's
 * model that an admin saves. A user's own choice never reaches loopback or a private network otherwise.
 */

/** Who chose the address: a user (their own model, a JIRA site), or an admin (the instance's model). */
export type Chooser = "user" | "admin";

/** One entry of the allow list: a host name (any address it resolves to), or an IP network; a port or any. */
export type AllowEntry =
  | { host: string; port: number | null; text: string }
  | { network: AddressBytes; bits: number; port: number | null; text: string };

export type OutboundPolicy = {
  allow: AllowEntry[];
};

const DEFAULT_PORT: Record<string, number> = { "http:": 80, "https:": 443 };

function parsePort(text: string | undefined, entry: string): number | null {
  if (text === undefined) return null;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
    throw new Error(`"${entry}": the port must be 1-65535`);
  return port;
}

/**
 * One entry of OUTBOUND_ALLOW: `host`, `host:port`, `[ipv6]:port`, an IP address, or a network in CIDR
 * form (`10.0.0.0/8`, `fd00::/8`). Throws an Error naming the entry when it is none of these.
 */
export function parseAllowEntry(raw: string): AllowEntry {
  const text = raw.trim();
  const cidr = text.match(/^([^/\s]+)\/(\d{1,3})$/);
  if (cidr) {
    const network = parseAddress(cidr[1]!);
    const bits = Number(cidr[2]);
    if (!network || bits > network.length * 8) throw new Error(`"${text}" is not a valid network`);
    return { network, bits, port: null, text };
  }
  // A bare IPv6 address has several colons; with a port it must be bracketed.
  const bare = parseAddress(text);
  if (bare) return { network: bare, bits: bare.length * 8, port: null, text };
  const m = text.match(/^(\[[^\]]+\]|[^:[\]]+)(?::(\d+))?$/);
  const host = m ? hostOf(m[1]!) : null;
  if (!m || !host) throw new Error(`"${text}" is not a host, host:port or network`);
  const port = parsePort(m[2], text);
  const address = parseAddress(host);
  if (address) return { network: address, bits: address.length * 8, port, text };
  return { host, port, text };
}

/** OUTBOUND_ALLOW's comma-separated entries. */
export function parseAllowList(value: string): AllowEntry[] {
  return value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .map(parseAllowEntry);
}

/** The host and port of a URL the operator configured, as an allow entry for exactly that port. */
export function allowEntryForUrl(url: string): AllowEntry | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const port = u.port ? Number(u.port) : DEFAULT_PORT[u.protocol];
  if (!port) return null;
  const host = hostOf(u.hostname);
  if (!host) return null;
  const text = `${u.hostname}:${port}`;
  const address = parseAddress(host);
  return address ? { network: address, bits: address.length * 8, port, text } : { host, port, text };
}

export function createPolicy(
  allow: AllowEntry[],
  operatorUrls: (string | null | undefined)[],
): OutboundPolicy {
  const implicit = operatorUrls.flatMap((u) => {
    const entry = u ? allowEntryForUrl(u) : null;
    return entry ? [entry] : [];
  });
  return { allow: [...allow, ...implicit] };
}

/** Where a connection would go: the URL's host (normalised), its port, and one address it resolved to. */
export type Destination = { host: string; port: number; address: string };

export type Verdict = { ok: true; kind: AddressKind } | { ok: false; kind: AddressKind | "invalid" };

const portMatches = (entry: AllowEntry, port: number) => entry.port === null || entry.port === port;

/** Whether the policy lets `chooser` connect to `dest`. */
export function judge(policy: OutboundPolicy, chooser: Chooser, dest: Destination): Verdict {
  const bytes = parseAddress(dest.address);
  if (!bytes) return { ok: false, kind: "invalid" };
  const kind = kindOfBytes(bytes);
  if (kind === "public") return { ok: true, kind };
  // An IPv4-mapped address matches entries written as IPv4.
  const v4 = embeddedIPv4(bytes);
  for (const entry of policy.allow) {
    if (!portMatches(entry, dest.port)) continue;
    if ("host" in entry) {
      if (entry.host === dest.host) return { ok: true, kind };
    } else if (
      inPrefix(bytes, entry.network, entry.bits) ||
      (v4 && inPrefix(v4, entry.network, entry.bits))
    ) {
      return { ok: true, kind };
    }
  }
  if (chooser === "admin" && kind === "loopback") return { ok: true, kind };
  return { ok: false, kind };
}
