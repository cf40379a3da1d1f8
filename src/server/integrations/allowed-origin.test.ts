import { describe, expect, it } from "vitest";
import { parseAllowList } from "../lib/outbound/policy";
import { jiraSiteOrigin, originAllowed } from "./allowed-origin";

const defaults = ["https://*.atlassian.net"];

describe("JIRA site URLs (SSRF guard)", () => {
  it("accepts Atlassian sites over https and reduces them to the origin", () => {
    expect(jiraSiteOrigin("https://acme.atlassian.net/jira/software/projects", defaults)).toBe(
      "https://acme.atlassian.net",
    );
  });
  it.each([
    "http://acme.atlassian.net",
    "https://atlassian.net",
    "https://acme.atlassian.net.evil.com",
    "https://evilatlassian.net",
    "https://127.0.0.1",
    "https://169.254.169.254/latest/meta-data",
    "https://localhost:8080",
    "https://user:pass@acme.atlassian.net",
    "https://acme.atlassian.net:8443",
  ])("refuses %s", (url) => {
    expect(() => jiraSiteOrigin(url, defaults)).toThrow(/JIRA URL/);
  });
  it("says when the format is wrong", () => {
    expect(() => jiraSiteOrigin("not a url", defaults)).toThrow("Invalid JIRA URL format");
  });
  it("lets configuration add an exact origin with a port wildcard (the tests' fake)", () => {
    expect(originAllowed(new URL("http://127.0.0.1:4567"), ["http://127.0.0.1:*"])).toBe(true);
    expect(originAllowed(new URL("http://127.0.0.2:4567"), ["http://127.0.0.1:*"])).toBe(false);
  });
});

describe("JIRA site URLs and the outbound guard", () => {
  const local = ["http://127.0.0.1:*", "http://*.lan:*"];
  it("refuses a loopback site the patterns allow unless OUTBOUND_ALLOW opens its port", () => {
    expect(() => jiraSiteOrigin("http://127.0.0.1:4567", local, {})).toThrow(
      /loopback address.*OUTBOUND_ALLOW/,
    );
    const opened = parseAllowList("127.0.0.1:4567");
    expect(jiraSiteOrigin("http://127.0.0.1:4567/jira", local, { OUTBOUND_ALLOW: opened })).toBe(
      "http://127.0.0.1:4567",
    );
    expect(() => jiraSiteOrigin("http://127.0.0.1:4568", local, { OUTBOUND_ALLOW: opened })).toThrow(
      /loopback/,
    );
  });
  it("leaves names to the connection, where they are judged by what they resolve to", () => {
    expect(jiraSiteOrigin("http://jira.lan:8080", local, {})).toBe("http://jira.lan:8080");
  });
});
