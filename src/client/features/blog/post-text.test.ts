import { describe, expect, it } from "vitest";
import { descriptionOf, excerptOf, postDate, postPath, stripTags, truncate, viewsLabel } from "./post-text";

describe("stripTags", () => {
  it("removes tags, decodes entities and collapses white space", () => {
    expect(stripTags("<p>One &amp; <b>two</b></p>\n\n<p>three&nbsp;four</p>")).toBe("One & two three four");
  });

  it("drops scripts, styles and comments with their bodies", () => {
    expect(stripTags("<style>p{color:red}</style>a<script>alert(1)</script>b<!-- note -->c")).toBe("a b c");
  });

  it("treats an unclosed trailing tag as markup", () => {
    expect(stripTags('Hello <img src="x')).toBe("Hello");
  });

  it("joins inline markup without adding spaces", () => {
    expect(stripTags('<p>An <a href="/x">inline</a> link.</p><p>Next</p>')).toBe("An inline link. Next");
  });

  it("keeps text that only looks like a comparison", () => {
    expect(stripTags("<p>1 &lt; 2 and 3 > 2</p>")).toBe("1 < 2 and 3 > 2");
  });

  it("decodes numeric references and leaves unknown names alone", () => {
    expect(stripTags("&#65;&#x42; &bogus;")).toBe("AB &bogus;");
  });
});

describe("truncate", () => {
  it("leaves short text alone and cuts long text with an ellipsis", () => {
    expect(truncate("short", 10)).toBe("short");
    expect(truncate("abcdefghij", 10)).toBe("abcdefghij");
    expect(truncate("abcde fghijk", 6)).toBe("abcde...");
  });
});

describe("excerptOf", () => {
  it("uses the excerpt when there is one", () => {
    expect(excerptOf({ excerpt: "  The gist.  ", content: "<p>Long body</p>" })).toBe("The gist.");
  });

  it("falls back to the first 150 characters of the stripped content, then an ellipsis", () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const result = excerptOf({ excerpt: null, content: `<h2>Intro</h2><p>${words}</p>` });
    const text = `Intro ${words}`;
    expect(result).toBe(`${text.slice(0, 150).trimEnd()}...`);
    expect(result.length).toBeLessThanOrEqual(153);
  });

  it("shows short content whole, without an ellipsis", () => {
    expect(excerptOf({ excerpt: "", content: "<p>Just <em>this</em>.</p>" })).toBe("Just this.");
  });
});

describe("descriptionOf", () => {
  const content = `<p>${"x".repeat(200)}</p>`;

  it("prefers the meta description, then the excerpt", () => {
    expect(descriptionOf({ meta_description: "Meta", excerpt: "Excerpt", content })).toBe("Meta");
    expect(descriptionOf({ meta_description: null, excerpt: "Excerpt", content })).toBe("Excerpt");
  });

  it("falls back to the first 160 stripped characters of the content", () => {
    expect(descriptionOf({ excerpt: null, content })).toBe("x".repeat(160));
  });
});

describe("small helpers", () => {
  it("dates a post by publication, else creation", () => {
    expect(postDate({ published_at: "2026-01-02T00:00:00Z", created_at: "2025-12-01T00:00:00Z" })).toBe(
      "2026-01-02T00:00:00Z",
    );
    expect(postDate({ published_at: null, created_at: "2025-12-01T00:00:00Z" })).toBe("2025-12-01T00:00:00Z");
  });

  it("builds the post path and the views label", () => {
    expect(postPath("hello world")).toBe("/blog/hello%20world");
    expect(viewsLabel(0)).toBe("0 views");
    expect(viewsLabel(1)).toBe("1 view");
    expect(viewsLabel(1234)).toBe("1,234 views");
  });
});
