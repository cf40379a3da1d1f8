import { describe, expect, it } from "vitest";
import { sanitizeForDisplay, sanitizePostHtml } from "./sanitize-html";

// What storing keeps is tested with the blog (services/blog/post-safety.test.ts); this is what showing adds.
describe("sanitizeForDisplay", () => {
  it("opens links that leave the site in a new tab without handing it the window, whatever the author set", () => {
    const html =
      '<p><a href="https://example.com/" target="_self" rel="opener">out</a> <a href="/blog/x" target="_blank">in</a></p>';
    expect(sanitizeForDisplay(html)).toBe(
      '<p><a href="https://example.com/" target="_blank" rel="noopener noreferrer">out</a> <a href="/blog/x">in</a></p>',
    );
    // Storing keeps the author's choices, within the allow-list.
    expect(sanitizePostHtml(html)).toContain('target="_self" rel="opener"');
  });

  it("loads images lazily and drops what storing drops", () => {
    const out = sanitizeForDisplay(
      '<img src="https://example.com/a.png" alt="a" loading="eager" onerror="x()"><script>x()</script><a href="javascript:x()">j</a>',
    );
    expect(out).toBe('<img src="https://example.com/a.png" loading="lazy" decoding="async" alt="a"><a>j</a>');
  });

  it("gives the same markup run twice, so a page rendered on the server hydrates to what the browser makes", () => {
    const once = sanitizeForDisplay(
      '<p><a href="https://a.example/" rel="x">a</a><img src="/i.png" alt=""><code class="language-ts">x</code></p>',
    );
    expect(sanitizeForDisplay(once)).toBe(once);
  });
});
