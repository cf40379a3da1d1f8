import { describe, expect, it } from "vitest";
import { htmlToText, isSafeUrl, sanitizePostHtml, truncateText } from "../../../shared/sanitize-html";
import { slugify } from "../../../shared/schemas/blog";
import { jsonForScript } from "./seo";
import { deriveUnsubscribeKey, signUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token";
import { sniffImage } from "./uploads";
import { XSS_CORPUS } from "./xss-corpus";

describe("sanitizePostHtml", () => {
  it.each(XSS_CORPUS)("neutralises %s", (payload) => {
    const out = sanitizePostHtml(`<p>a</p>${payload}<p>b</p>`);
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(out).not.toMatch(/(javascript|vbscript|data)\s*:/i);
    expect(out).not.toMatch(/\sstyle\s*=/i);
    expect(sanitizePostHtml(out)).toBe(out); // stable
  });

  it("keeps author text that looks like the library's markers", () => {
    expect(sanitizePostHtml("<p>[removed] and [/removed]</p>")).toBe(
      "<p>&#91;removed] and &#91;/removed]</p>",
    );
  });

  it("checks URL schemes after decoding", () => {
    expect(isSafeUrl("https://x.test", ["https"])).toBe(true);
    expect(isSafeUrl("/relative/path?q=1", ["https"])).toBe(true);
    expect(isSafeUrl("java\tscript:alert(1)", ["http", "https"])).toBe(false);
    expect(isSafeUrl("mailto:a@b.c", ["http", "https"])).toBe(false);
    expect(isSafeUrl("mailto:a@b.c", ["mailto"])).toBe(true);
    expect(
      sanitizePostHtml('<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>'),
    ).toBe("<a>x</a>");
    expect(sanitizePostHtml('<a href="https://a.test/?x=1&amp;y=2">x</a>')).toBe(
      '<a href="https://a.test/?x=1&amp;y=2">x</a>',
    );
  });
});

describe("helpers", () => {
  it("slugifies titles", () => {
    expect(slugify("  Hello, Wörld: Ça va?  ")).toBe("hello-world-ca-va");
    expect(slugify("---")).toBe("");
    expect(slugify("a".repeat(150)).length).toBe(100);
  });

  it("extracts and truncates text", () => {
    expect(htmlToText("<p>One &amp; <b>two</b></p><script>x()</script>")).toBe("One & two");
    expect(truncateText("alpha beta gamma", 12)).toBe("alpha beta");
  });

  it("escapes JSON for a script element", () => {
    const s = jsonForScript({ t: "</script><script>alert(1)</script>&\u2028" });
    expect(s).not.toContain("<");
    expect(JSON.parse(s)).toEqual({ t: "</script><script>alert(1)</script>&\u2028" });
  });

  it("signs and verifies unsubscribe tokens", () => {
    const key = deriveUnsubscribeKey(undefined, Buffer.alloc(32, 1));
    const other = deriveUnsubscribeKey("a different secret value", Buffer.alloc(32, 1));
    const id = "5b0c8f8e-1d2a-4c3b-9e4f-0a1b2c3d4e5f";
    const token = signUnsubscribeToken(key, id);
    expect(verifyUnsubscribeToken(key, token)).toBe(id);
    expect(verifyUnsubscribeToken(other, token)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${id}.${"A".repeat(43)}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, "garbage")).toBeNull();
  });

  it("recognises images by their magic bytes only", () => {
    expect(sniffImage(Buffer.from("89504e470d0a1a0a00", "hex"))?.ext).toBe("png");
    expect(sniffImage(Buffer.from("ffd8ffe000", "hex"))?.ext).toBe("jpg");
    expect(sniffImage(Buffer.from("GIF87a\x01\x00", "latin1"))?.ext).toBe("gif");
    expect(sniffImage(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"))?.ext).toBe("webp");
    expect(sniffImage(Buffer.from("RIFF\x00\x00\x00\x00WAVEfmt ", "latin1"))).toBeNull();
    expect(sniffImage(Buffer.from("<svg/>"))).toBeNull();
  });
});
