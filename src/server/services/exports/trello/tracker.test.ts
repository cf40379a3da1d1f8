import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { trelloSignatureOk } from "./tracker";

describe("Trello's webhook signature", () => {
  const url = "https://atomize.example/api/hooks/trello/1";
  const body = Buffer.from(JSON.stringify({ model: { name: "Roadmap — café" } }), "utf8");
  const sign = (secret: string, bytes: Buffer) => createHmac("sha1", secret).update(bytes).digest("base64");

  it("accepts the documented binary form and UTF-8, and nothing signed with another secret", () => {
    const text = body.toString("utf8") + url;
    const binary = sign("secret", Buffer.from(text, "latin1"));
    const utf8 = sign("secret", Buffer.from(text, "utf8"));
    // Not ASCII, so the two forms differ, and each is accepted.
    expect(binary).not.toBe(utf8);
    expect(trelloSignatureOk("secret", body, url, binary)).toBe(true);
    expect(trelloSignatureOk("secret", body, url, ` ${utf8} `)).toBe(true);
    expect(trelloSignatureOk("other", body, url, binary)).toBe(false);
    expect(trelloSignatureOk("secret", body, `${url}?x=1`, binary)).toBe(false);
    expect(trelloSignatureOk("secret", body, url, undefined)).toBe(false);
    expect(trelloSignatureOk("secret", body, url, "bm90IGEgc2lnbmF0dXJl")).toBe(false);
  });
});
