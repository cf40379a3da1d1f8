import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * What kind of address an IP is, for the outbound-request guard (docs/decisions/007-hostile-input-and-limits.md,
 * "Outbound requests"). Pure functions over address strings: no resolver, no sockets.
 *
 * Ranges: IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its updates), RFC 1918
 * (private), RFC 6598 (carrier-grade NAT), RFC 4193 (unique local, fc00::/7), RFC 4291 (IPv4-mapped and
 * the deprecated IPv4-compatible forms), RFC 6052 (NAT64, 64:ff9b::/96), RFC 8215 (local NAT64), RFC 3056
 * (6to4). An IPv6 address that carries an IPv4 address (mapped, compatible, translated, NAT64, 6to4) is
 * judged by the IPv4 address it carries, so `::ffff:127.0.0.1` is loopback. Outside 2000::/3 (global
 * unicast) no IPv6 address is public today.
 */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "carrier-grade-nat"
  | "multicast"
  | "unspecified"
  | "reserved";

/** An address's bytes: 4 for IPv4, 16 for IPv6. */
export type AddressBytes = Uint8Array;

/**
 * The bytes of a textual IP address, or null when it is not one. Takes what resolvers and the URL parser
 * give (dotted quads, IPv6 with `::`, an IPv4 tail, brackets, a zone id). Other IPv4 spellings
 * (`127.1`, `2130706433`, `0x7f.0.0.1`) are not addresses here: `hostOf` turns them into dotted quads
 * first, as the URL parser and `getaddrinfo` do.
 */
export function parseAddress(text: string): AddressBytes | null {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  // Node's checks are the strict ones (ipaddr.js also takes `127.1` and friends); ipaddr.js gives the bytes.
  if (!isIPv4(s) && !isIPv6(s)) return null;
  return Uint8Array.from(ipaddr.parse(s).toByteArray());
}

/** Whether `bytes` starts with the first `bits` bits of `prefix` (same family). */
export function inPrefix(bytes: AddressBytes, prefix: AddressBytes, bits: number): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
}

type Range = [prefix: string, bits: number, kind: AddressKind];

const V4: Range[] = [
  ["0.0.0.0", 8, "unspecified"], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade-nat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // cloud metadata services live here
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // documentation
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast, deprecated
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // documentation
  ["203.0.113.0", 24, "reserved"], // documentation
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes the broadcast address
];

const V6: Range[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["64:ff9b:1::", 48, "private"], // local-use NAT64
  ["100::", 64, "reserved"], // discard-only
  ["2001::", 23, "reserved"], // IETF protocol assignments, Teredo among them
  ["2001:db8::", 32, "reserved"], // documentation
  ["3fff::", 20, "reserved"], // documentation
  ["5f00::", 16, "reserved"], // segment routing
  ["fc00::", 7, "private"], // unique local
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private"], // site-local, deprecated
  ["ff00::", 8, "multicast"],
];

const compiled = (ranges: Range[]) =>
  ranges.map(([p, bits, kind]) => ({ prefix: parseAddress(p)!, bits, kind }));
const V4_RANGES = compiled(V4);
const V6_RANGES = compiled(V6);

/** IPv6 prefixes whose addresses carry an IPv4 address, and where it sits. */
const EMBEDDING: { prefix: AddressBytes; bits: number; at: number }[] = [
  { prefix: parseAddress("::ffff:0:0")!, bits: 96, at: 12 }, // IPv4-mapped
  { prefix: parseAddress("::ffff:0:0:0")!, bits: 96, at: 12 }, // IPv4-translated (SIIT)
  { prefix: parseAddress("64:ff9b::")!, bits: 96, at: 12 }, // NAT64 well-known prefix
  { prefix: parseAddress("2002::")!, bits: 16, at: 2 }, // 6to4
];
const COMPATIBLE = parseAddress("::")!; // ::a.b.c.d, deprecated IPv4-compatible
const GLOBAL_UNICAST = parseAddress("2000::")!;

/** The IPv4 address an IPv6 address carries, if it is one of the embedding forms. */
export function embeddedIPv4(bytes: AddressBytes): AddressBytes | null {
  if (bytes.length !== 16) return null;
  for (const e of EMBEDDING) if (inPrefix(bytes, e.prefix, e.bits)) return bytes.slice(e.at, e.at + 4);
  if (!inPrefix(bytes, COMPATIBLE, 96)) return null;
  // :: and ::1 are IPv6's own unspecified and loopback addresses, judged as such.
  const v4 = bytes.slice(12, 16);
  return (v4[0]! | v4[1]! | v4[2]!) === 0 && v4[3]! <= 1 ? null : v4;
}

/** What kind of address these bytes are. */
export function kindOfBytes(bytes: AddressBytes): AddressKind {
  if (bytes.length === 4) return V4_RANGES.find((r) => inPrefix(bytes, r.prefix, r.bits))?.kind ?? "public";
  const v4 = embeddedIPv4(bytes);
  if (v4) return kindOfBytes(v4);
  const special = V6_RANGES.find((r) => inPrefix(bytes, r.prefix, r.bits));
  if (special) return special.kind;
  return inPrefix(bytes, GLOBAL_UNICAST, 3) ? "public" : "reserved";
}

/** What kind of address `text` is, or null when it is not an IP address. */
export function addressKind(text: string): AddressKind | null {
  const bytes = parseAddress(text);
  return bytes ? kindOfBytes(bytes) : null;
}

/**
 * A URL host as the server would connect to it: lower case, IPv6 without brackets, and every IPv4
 * spelling (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`) as its dotted quad, exactly as the WHATWG URL
 * parser reads a host (which is what fetch connects to). Null when `host` is not a valid host.
 */
export function hostOf(host: string): string | null {
  const h = host.trim();
  if (!h) return null;
  try {
    const bracketed = isIPv6(h) ? `[${h}]` : h;
    const name = new URL(`http://${bracketed}/`).hostname.toLowerCase();
    return name.startsWith("[") ? name.slice(1, -1) : name.replace(/\.$/, "");
  } catch {
    return null;
  }
}

/** Whether a host name is one of the names every resolver keeps for this machine (RFC 6761). */
export function isLocalName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "localhost.localdomain";
}
