import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fetchThrough,
  guardedDispatcher,
  literalRefusal,
  OutboundRefused,
  outboundRefusal,
  type Resolver,
} from "./fetch";
import { createPolicy, parseAllowList } from "./policy";

/**
 * The guard where the socket is made, against servers this test starts on 127.0.0.1 (nothing else is
 * ever connected to: names resolve through an injected resolver that answers loopback addresses only).
 */
type Loopback = { server: Server; port: number; connections: number; url: string };

async function startLoopback(handler: (url: string) => { status: number; location?: string; body?: string }) {
  const s: Loopback = { server: createServer(), port: 0, connections: 0, url: "" };
  s.server.on("connection", () => {
    s.connections += 1;
  });
  s.server.on("request", (req, res) => {
    const out = handler(req.url ?? "/");
    res.writeHead(out.status, out.location ? { location: out.location } : {});
    res.end(out.body ?? "");
  });
  await new Promise<void>((resolve) => s.server.listen(0, "127.0.0.1", resolve));
  s.port = (s.server.address() as AddressInfo).port;
  s.url = `http://127.0.0.1:${s.port}`;
  return s;
}

let allowed: Loopback;
let internal: Loopback;
beforeAll(async () => {
  internal = await startLoopback(() => ({ status: 200, body: "internal secret" }));
  allowed = await startLoopback((url) =>
    url === "/to-internal"
      ? { status: 302, location: `${internal.url}/secret` }
      : url === "/to-internal-by-name"
        ? { status: 307, location: `http://localhost:${internal.port}/secret` }
        : { status: 200, body: "hello" },
  );
});
afterAll(async () => {
  await new Promise((r) => allowed.server.close(r));
  await new Promise((r) => internal.server.close(r));
});

const loopbackResolver =
  (calls: string[] = []): Resolver =>
  async (host) => {
    calls.push(host);
    if (host === "localhost" || host.endsWith(".example")) return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  };

function guarded(allow: string, resolve: Resolver = loopbackResolver()) {
  return fetchThrough(guardedDispatcher(createPolicy(parseAllowList(allow), []), "user", resolve));
}

describe("the guarded fetch", () => {
  it("refuses a user's call to a loopback port before any connection is made", async () => {
    const before = internal.connections;
    const err = await guarded("")(`${internal.url}/secret`).catch((e) => e);
    expect(outboundRefusal(err)).toBeInstanceOf(OutboundRefused);
    expect(outboundRefusal(err)!.verdict.kind).toBe("loopback");
    expect(internal.connections).toBe(before);
  });

  it("refuses the same port spelled as an integer, shortened, or IPv4-mapped", async () => {
    const before = internal.connections;
    for (const host of ["2130706433", "127.1", "[::ffff:127.0.0.1]", "0x7f.0.0.1"]) {
      const err = await guarded("")(`http://${host}:${internal.port}/`).catch((e) => e);
      expect(outboundRefusal(err), host).not.toBeNull();
    }
    expect(internal.connections).toBe(before);
  });

  it("refuses a name the resolver maps to loopback", async () => {
    const before = internal.connections;
    const err = await guarded("")(`http://model.example:${internal.port}/`).catch((e) => e);
    expect(outboundRefusal(err)?.verdict.kind).toBe("loopback");
    expect(internal.connections).toBe(before);
  });

  it("connects where OUTBOUND_ALLOW opens the port, by address or by name, resolving once", async () => {
    const res = await guarded(`127.0.0.1:${allowed.port}`)(`${allowed.url}/`);
    expect(await res.text()).toBe("hello");
    const calls: string[] = [];
    const byName = await guarded(
      `model.example:${allowed.port}`,
      loopbackResolver(calls),
    )(`http://model.example:${allowed.port}/`);
    expect(await byName.text()).toBe("hello");
    expect(calls).toEqual(["model.example"]);
  });

  it("follows no redirect to a refused address, by literal or by name", async () => {
    const before = internal.connections;
    const fetch = guarded(`127.0.0.1:${allowed.port}`);
    for (const path of ["/to-internal", "/to-internal-by-name"]) {
      const err = await fetch(`${allowed.url}${path}`).catch((e) => e);
      expect(outboundRefusal(err), path).not.toBeNull();
    }
    expect(internal.connections).toBe(before);
  });

  it("lets the instance's model reach loopback", async () => {
    const admin = fetchThrough(guardedDispatcher(createPolicy([], []), "admin", loopbackResolver()));
    expect(await (await admin(`${internal.url}/`)).text()).toBe("internal secret");
  });
});

describe("a user's URL written as an address of a kind the guard refuses", () => {
  it("is refused in words before anything connects, in every spelling (the API answers 422 with this)", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]/v1",
      "http://10.0.0.1/v1",
      "http://172.16.5.4/v1",
      "http://192.168.1.1/v1",
      "http://100.64.0.1/v1",
      "http://[fd00::1]/v1",
      "http://224.0.0.1/v1",
      "http://[::ffff:10.0.0.1]/v1",
    ]) {
      expect(literalRefusal({}, "user", url), url).toMatch(
        /which Atomize does not connect to for your settings\..*OUTBOUND_ALLOW/,
      );
    }
    expect(literalRefusal({}, "user", "http://169.254.169.254/")).toMatch(
      /^169\.254\.169\.254 is a link-local address/,
    );
    expect(literalRefusal({}, "user", "https://example.com/v1")).toBeNull();
  });
});
