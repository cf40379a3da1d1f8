import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

describe("renderMarkdown", () => {
  it("renders markdown, with raw HTML shown as text unless allowed", () => {
    const md = '# Notes\n\nSee [the spec](https://example.com/spec) and <b onclick="x()">this</b>.';
    const html = renderMarkdown(md);
    expect(html).toContain("<h1>Notes</h1>");
    expect(html).toContain(
      '<a href="https://example.com/spec" target="_blank" rel="noopener noreferrer">the spec</a>',
    );
    expect(html).toContain("&#60;b onclick=");
    expect(html).not.toContain("<b");
  });

  it("with HTML allowed, keeps the allow-list and removes the rest", () => {
    const html = renderMarkdown('Text <b onclick="x()">bold</b><script>x()</script> [j](javascript:x())', {
      allowHtml: true,
    });
    expect(html).toContain("<b>bold</b>");
    expect(html).not.toMatch(/script|onclick|javascript/);
  });
});
