import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodedAnswer, etagOf, ifNoneMatchHits, jsonTextOf, shareAnswer } from "./shared-answer";

describe("a shared answer", () => {
  it("keeps its tag out of its JSON, and its text and encodings made once", async () => {
    const value = shareAnswer({ id: "a", children: [] }, 'W/"3-abc"', '{"id":"a","children":[]}');
    expect(etagOf(value)).toBe('W/"3-abc"');
    expect(JSON.stringify(value)).toBe('{"id":"a","children":[]}');
    expect(jsonTextOf(value)).toBe('{"id":"a","children":[]}');
    const gz = await encodedAnswer(value, "gzip");
    expect(gunzipSync(gz).toString()).toBe('{"id":"a","children":[]}');
    expect(encodedAnswer(value, "gzip")).toBe(encodedAnswer(value, "gzip"));
    expect(etagOf({ id: "b" })).toBeUndefined();
    expect(etagOf(null)).toBeUndefined();
  });

  it("matches If-None-Match as RFC 9110 says: a list, a star, weak or strong alike", () => {
    const tag = 'W/"3-abc"';
    expect(ifNoneMatchHits('W/"3-abc"', tag)).toBe(true);
    expect(ifNoneMatchHits('"3-abc"', tag)).toBe(true);
    expect(ifNoneMatchHits('"x", W/"3-abc" ', tag)).toBe(true);
    expect(ifNoneMatchHits("*", tag)).toBe(true);
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits("", tag)).toBe(false);
    expect(ifNoneMatchHits('"3-abcd"', tag)).toBe(false);
    expect(ifNoneMatchHits(",".repeat(8000), tag)).toBe(false);
    expect(ifNoneMatchHits('W/"3-abc', tag)).toBe(false);
  });
});
