/**
 * Shows HTML that `renderMarkdown` (lib/markdown.ts) produced, with readable typography (the project has
 * no typography plugin, so the element styles live here). Pass only sanitised HTML.
 */
export function MarkdownView({ html, className = "" }: { html: string; className?: string }) {
  return (
    <div
      className={`markdown-view max-w-none break-words leading-relaxed [&_a]:link [&_a]:link-primary [&_blockquote]:my-3 [&_blockquote]:border-l-4 [&_blockquote]:border-base-300 [&_blockquote]:pl-4 [&_blockquote]:text-base-content/80 [&_code]:rounded [&_code]:bg-base-300 [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-sm [&_h1]:mb-3 [&_h1]:mt-5 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:mb-2 [&_h2]:mt-5 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mb-2 [&_h3]:mt-4 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-3 [&_h4]:font-semibold [&_hr]:my-4 [&_hr]:border-base-300 [&_li]:my-1 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-3 [&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-box [&_pre]:bg-base-300 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:my-3 [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:border-base-300 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-base-300 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&>:first-child]:mt-0 ${className}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML comes from renderMarkdown, sanitised by shared/sanitize-html.ts
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
