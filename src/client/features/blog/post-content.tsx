import { useMemo } from "react";
import { sanitizeForDisplay } from "../../../shared/sanitize-html";
import { MarkdownView } from "../../components/markdown-view";

/**
 * The post's HTML, sanitised again where it is shown (the one sanitiser, as the server cleaned it on save:
 * older rows, a changed allow-list) and shown with the prose styles of MarkdownView, plus rules for the
 * images, figures and headings posts use. The server renderer and the browser produce the same markup.
 */
export function PostContent({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeForDisplay(html), [html]);
  return (
    <div data-testid="post-content">
      <MarkdownView
        html={safe}
        className="blog-post-content text-base sm:text-lg [&_figcaption]:mt-2 [&_figcaption]:text-center [&_figcaption]:text-sm [&_figcaption]:text-base-content/70 [&_figure]:my-6 [&_h2]:mt-8 [&_h2]:text-2xl [&_h3]:mt-6 [&_h3]:text-xl [&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-box"
      />
    </div>
  );
}
