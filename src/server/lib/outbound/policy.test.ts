import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { allowedAddresses, OutboundRefused, policyFromConfig, type Resolver } from "./fetch";
import { createPolicy, judge, parseAllowEntry, parseAllowList } from "./policy";

/**
 * The policy and the resolution step as pure functions: the resolver is injected, so a name can be made
 * to resolve anywhere without any traffic.
 */
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("OUTBOUND_ALLOW entries", () => {
  it("reads hosts, host:port pairs, bracketed IPv6 with a port, addresses and networks", () => {
    expect(parseAllowEntry("ollama.lan")).toMatchObject({ host: "ollama.lan", port: null });
    expect(parseAllowEntry("Ollama.LAN:11434")).toMatchObject({ host: "ollama.lan", port: 11434 });
    expect(parseAllowEntry("10.0.5.0/24")).toMatchObject({ bits: 24, port: null });
    expect(parseAllowEntry("fd00::/8")).toMatchObject({ bits: 8 });
    expect(parseAllowEntry("127.0.0.1:8080")).toMatchObject({ bits: 32, port: 8080 });
    expect(parseAllowEntry("[::1]:8080")).toMatchObject({ bits: 128, port: 8080 });
    expect(parseAllowEntry("::1")).toMatchObject({ bits: 128, port: null });
    expect(parseAllowList(" a.example , 10.0.0.0/8,,")).toHaveLength(2);
  });

  it("refuses what is none of these, naming the entry", () => {
    for (const bad of ["10.0.0.0/33", "host:0", "host:70000", "ho st", "http://x", "::1:8080:zz", "a:b:c"])
      expect(() => parseAllowEntry(bad), bad).toThrow(/"/);
  });

  it("stops the server at start with the variable named", () => {
    expect(() => loadConfig({ OUTBOUND_ALLOW: "10.0.0.0/99" })).toThrow(/OUTBOUND_ALLOW: "10.0.0.0\/99"/);
  });
});

describe("judge", () => {
  const policy = createPolicy(parseAllowList("ollama.lan:11434,10.9.0.0/16,127.0.0.1:4000"), [
    "http://127.0.0.1:11434",
  ]);
  const dest = (host: string, port: number, address: string) => ({ host, port, address });

  it("lets anyone reach public addresses", () => {
    expect(judge(policy, "user", dest("api.openai.com", 443, "162.159.140.245")).ok).toBe(true);
  });

  it("refuses a user loopback, private, link-local and the rest, naming the kind", () => {
    expect(judge(policy, "user", dest("127.0.0.1", 8080, "127.0.0.1"))).toEqual({
      ok: false,
      kind: "loopback",
    });
    expect(judge(policy, "user", dest("x", 80, "192.168.0.1"))).toEqual({ ok: false, kind: "private" });
    expect(judge(policy, "user", dest("x", 80, "169.254.169.254"))).toEqual({
      ok: false,
      kind: "link-local",
    });
    expect(judge(policy, "user", dest("x", 80, "::ffff:127.0.0.1"))).toEqual({ ok: false, kind: "loopback" });
    expect(judge(policy, "user", dest("x", 80, "not an address"))).toEqual({ ok: false, kind: "invalid" });
  });

  it("opens exactly what the operator listed or configured, port included", () => {
    expect(judge(policy, "user", dest("127.0.0.1", 11434, "127.0.0.1")).ok).toBe(true); // OLLAMA_URL
    expect(judge(policy, "user", dest("127.0.0.1", 11435, "127.0.0.1")).ok).toBe(false);
    expect(judge(policy, "user", dest("localhost", 4000, "::ffff:127.0.0.1")).ok).toBe(true); // mapped form
    expect(judge(policy, "user", dest("ollama.lan", 11434, "192.168.7.7")).ok).toBe(true);
    expect(judge(policy, "user", dest("ollama.lan", 80, "192.168.7.7")).ok).toBe(false);
    expect(judge(policy, "user", dest("other.lan", 11434, "192.168.7.7")).ok).toBe(false);
    expect(judge(policy, "user", dest("x", 1, "10.9.200.1")).ok).toBe(true);
    expect(judge(policy, "user", dest("x", 1, "10.10.0.1")).ok).toBe(false);
  });

  it("lets the instance's model (an admin's choice) reach loopback, and nothing else more", () => {
    expect(judge(policy, "admin", dest("localhost", 8000, "127.0.0.1")).ok).toBe(true);
    expect(judge(policy, "admin", dest("localhost", 8000, "::1")).ok).toBe(true);
    expect(judge(policy, "admin", dest("x", 80, "10.0.0.1")).ok).toBe(false);
    expect(judge(policy, "admin", dest("x", 80, "169.254.169.254")).ok).toBe(false);
  });

  it("takes the service addresses from the configuration", () => {
    const configured = policyFromConfig(
      loadConfig({ OLLAMA_URL: "http://localhost:11434", GITHUB_API_URL: "http://127.0.0.1:9999" }),
    );
    expect(judge(configured, "user", dest("localhost", 11434, "::1")).ok).toBe(true);
    expect(judge(configured, "user", dest("127.0.0.1", 9999, "127.0.0.1")).ok).toBe(true);
    expect(judge(configured, "user", dest("127.0.0.1", 9998, "127.0.0.1")).ok).toBe(false);
  });
});

describe("allowedAddresses", () => {
  const policy = createPolicy([], []);

  it("refuses a name the resolver maps to loopback, however it is spelled", async () => {
    const resolve = resolverOf({ "rebind.example": ["127.0.0.1"], "six.example": ["::ffff:7f00:1"] });
    for (const host of ["rebind.example", "six.example"]) {
      const err = await allowedAddresses(policy, "user", host, 443, resolve).catch((e) => e);
      expect(err, host).toBeInstanceOf(OutboundRefused);
      expect((err as OutboundRefused).verdict.kind).toBe("loopback");
    }
  });

  it("judges literals without resolving them, in every spelling", async () => {
    const resolve: Resolver = async () => {
      throw new Error("a literal must not be resolved");
    };
    for (const host of [
      "127.0.0.1",
      "2130706433",
      "127.1",
      "0x7f.1",
      "[::1]",
      "::1",
      "[::ffff:127.0.0.1]",
      "0.0.0.0",
    ]) {
      const err = await allowedAddresses(policy, "user", host, 80, resolve).catch((e) => e);
      expect(err, host).toBeInstanceOf(OutboundRefused);
    }
  });

  it("keeps only the allowed addresses of a name that has both kinds", async () => {
    const resolve = resolverOf({ "mixed.example": ["10.0.0.7", "93.184.215.14", "::1"] });
    expect(await allowedAddresses(policy, "user", "mixed.example", 443, resolve)).toEqual([
      { address: "93.184.215.14", family: 4 },
    ]);
  });

  it("passes an unknown name's error through, as a host that does not exist", async () => {
    const err = await allowedAddresses(policy, "user", "nowhere.example", 443, resolverOf({})).catch(
      (e) => e,
    );
    expect(err.code).toBe("ENOTFOUND");
  });
});
