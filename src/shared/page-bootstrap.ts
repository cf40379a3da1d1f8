/**
 * What the server hands the browser in every HTML page it renders (a JSON data block, never executed): the
 * installation's public settings, whether the request carried a session cookie, and the answers the
 * server-rendered page was built from, so hydration renders exactly what the server did without asking
 * again. Written by src/server/ssr/, read by src/client/main.tsx and start.tsx.
 */
export const BOOTSTRAP_ELEMENT_ID = "atomize-bootstrap";

/**
 * The reader's theme ("light" or "dark"), copied from localStorage by lib/theme.ts, so the server renders
 * the page in it and a light-theme reader sees no dark first paint.
 */
export const THEME_COOKIE = "atomize_theme";

/** The installation's public settings, as `system.publicConfig` answers them (empty links: the defaults). */
export type PublicConfigAnswer = {
  /** The installation's public origin (canonical URLs, structured data). */
  publicUrl: string;
  supportEmail: string;
  social: { github: string; x: string; linkedin: string };
};

export type PageBootstrap = {
  /** True when #root holds server-rendered markup to hydrate (false: an empty SPA page). */
  ssr: boolean;
  /**
   * When the browser starts React: "idle" for a public page rendered in full for a visitor (complete
   * without scripts, so React waits until the page has loaded or the reader first acts), "now" otherwise.
   */
  hydrate: "idle" | "now";
  config: PublicConfigAnswer;
  /**
   * Whether the request carried a session or refresh cookie. Without one the visitor is signed out for
   * certain (the session lives only in those httpOnly cookies), so the page never loads the signed-in code.
   */
  session: boolean;
  /** Public API answers by request path (e.g. "/api/blog/posts?page=1&page_size=12"). */
  data: Record<string, unknown>;
};

/** JSON for a `<script>` element: nothing in it can close the element or start markup. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
