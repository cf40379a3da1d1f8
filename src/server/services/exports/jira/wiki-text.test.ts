import { describe, expect, it } from "vitest";
import { adfText } from "./adf-text";
import { wikiText } from "./wiki-text";

describe("a JIRA description in wiki markup (REST v2, webhooks)", () => {
  it("reads as the same lines as the ADF of the same text", () => {
    const doc = {
      type: "doc",
      version: 1,
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Goal" }] },
        {
          type: "paragraph",
          content: [{ type: "text", text: "Take cards - and wallets", marks: [{ type: "strong" }] }],
        },
        {
          type: "bulletList",
          content: [
            {
              type: "listItem",
              content: [{ type: "paragraph", content: [{ type: "text", text: "sign-in first" }] }],
            },
          ],
        },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "see " },
            { type: "text", text: "docs", marks: [{ type: "link", attrs: { href: "https://x.example" } }] },
          ],
        },
      ],
    };
    const wiki =
      "h2. Goal\n\n*Take cards \\- and wallets*\n\n* sign\\-in first\n\nsee [docs|https://x.example]";
    expect(wikiText(wiki)).toBe(adfText(doc));
    expect(wikiText(wiki)).toBe("Goal\nTake cards - and wallets\nsign-in first\nsee docs");
  });

  it("keeps code as written, splits breaks and table cells, drops images, and keeps hyphens and underscores in words", () => {
    expect(wikiText("{code:js}\nlet a = *b*;\n{code}")).toBe("let a = *b*;");
    expect(wikiText("one\\\\\ntwo")).toBe("one\ntwo");
    expect(wikiText("||Name||Owner||\n|Billing|Ada|")).toBe("Name\nOwner\nBilling\nAda");
    expect(wikiText("!screen.png! well-known snake_case_name")).toBe("well-known snake_case_name");
    expect(wikiText("")).toBe("");
  });
});
