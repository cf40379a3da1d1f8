import { createContext, useContext, useMemo } from "react";
import { MarkdownView } from "../../components/markdown-view";
import { sanitizePostHtml } from "../../lib/sanitize-html";

/**
 * The sanitiser PostContent uses: DOMPurify in the browser; the server renderer provides the server's own
 * (DOMPurify needs a DOM), the one that cleans every post on save.
 */
export const PostSanitizerContext = createContext<(html: string) => string>(sanitizePostHtml);

/**
 * The post's HTML, sanitised again where it is shown (DOMPurify in the browser) and shown with the prose
 * styles of MarkdownView, plus rules for the images, figures and headings posts use.
 */
export function PostContent({ html }: { html: string }) {
  const sanitize = useContext(PostSanitizerContext);
  const safe = useMemo(() => sanitize(html), [sanitize, html]);
  return (
    <div data-testid="post-content">
      <MarkdownView
        html={safe}
        className="blog-post-content text-base sm:text-lg [&_figcaption]:mt-2 [&_figcaption]:text-center [&_figcaption]:text-sm [&_figcaption]:text-base-content/70 [&_figure]:my-6 [&_h2]:mt-8 [&_h2]:text-2xl [&_h3]:mt-6 [&_h3]:text-xl [&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-box"
      />
    </div>
  );
}
