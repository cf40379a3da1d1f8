import { describe, expect, it } from "vitest";
import { type AddressKind, addressKind, hostOf, parseAddress } from "./address";

/** Pure checks of the classifier: no resolver, no socket, nothing leaves the process. */
describe("addressKind", () => {
  const cases: [string, AddressKind][] = [
    // loopback in every spelling that reaches it
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"], // IPv4-mapped
    ["::ffff:7f00:1", "loopback"], // the same, as the URL parser writes it
    ["::127.0.0.1", "loopback"], // IPv4-compatible (deprecated)
    ["::7f00:1", "loopback"],
    ["::ffff:0:127.0.0.1", "loopback"], // IPv4-translated
    ["64:ff9b::127.0.0.1", "loopback"], // NAT64
    ["2002:7f00:1::", "loopback"], // 6to4 around 127.0.0.1
    // private networks
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:c0a8:101", "private"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fec0::1", "private"],
    ["64:ff9b:1::a00:1", "private"],
    // link-local, among them the cloud metadata address
    ["169.254.169.254", "link-local"],
    ["::ffff:169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    // carrier-grade NAT
    ["100.64.0.1", "carrier-grade-nat"],
    ["100.127.255.255", "carrier-grade-nat"],
    // multicast
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["::ffff:224.0.0.1", "multicast"],
    // unspecified
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::2", "unspecified"], // compatible form of 0.0.0.2
    // reserved and documentation ranges
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"], // Teredo
    ["100::1", "reserved"],
    ["1234::1", "reserved"], // outside global unicast
    // public
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["100.63.255.255", "public"],
    ["100.128.0.0", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.0", "public"],
    ["192.169.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["2002:0808:0808::1", "public"], // 6to4 around a public address
  ];
  it.each(cases)("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it("is null for what is not an IP address", () => {
    for (const text of ["localhost", "example.com", "1.2.3", "1.2.3.4.5", "::g", "", "[::1"])
      expect(addressKind(text), text).toBeNull();
  });
});

describe("hostOf", () => {
  it("reads every IPv4 spelling as the URL parser and fetch do", () => {
    for (const spelling of [
      "127.1",
      "2130706433",
      "0x7f.0.0.1",
      "0x7f000001",
      "0177.0.0.1",
      "127.0.1",
      "127.0.0.1.",
    ])
      expect(hostOf(spelling), spelling).toBe("127.0.0.1");
    expect(hostOf("[::ffff:127.0.0.1]")).toBe("::ffff:7f00:1");
    expect(hostOf("::1")).toBe("::1");
    expect(hostOf("LOCALHOST")).toBe("localhost");
    expect(hostOf("Example.COM.")).toBe("example.com");
    expect(hostOf("")).toBeNull();
    expect(hostOf("bad host")).toBeNull();
  });

  it("makes the integer and shortened forms classify as what they reach", () => {
    for (const spelling of ["2130706433", "127.1", "0x7f.1", "017700000001"])
      expect(addressKind(hostOf(spelling)!), spelling).toBe("loopback");
    expect(addressKind(hostOf("167772161")!)).toBe("private"); // 10.0.0.1
    expect(addressKind(hostOf("0")!)).toBe("unspecified");
  });
});

describe("parseAddress", () => {
  it("gives 4 bytes for IPv4 and 16 for IPv6, with an IPv4 tail in place", () => {
    expect(Array.from(parseAddress("10.0.0.1")!)).toEqual([10, 0, 0, 1]);
    const v6 = parseAddress("::ffff:1.2.3.4")!;
    expect(v6.length).toBe(16);
    expect(Array.from(v6.slice(10))).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(Array.from(parseAddress("1:2::3")!)).toEqual([0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
  });
});
