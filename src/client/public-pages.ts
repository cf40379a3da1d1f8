import { type LazyPage, lazyPage } from "./lib/lazy-page";

/**
 * The pages a visitor can open without signing in that the server renders to HTML (src/client/entry-server.tsx)
 * and the browser hydrates. Each is its own chunk; `source` names it in Vite's manifest, so the server can
 * preload the chunk with the page (the build checks every source is there: scripts/check-bundle-budget.mjs).
 */
// biome-ignore lint/suspicious/noExplicitAny: page components take any props (route params)
type PublicPage = { source: string; Page: LazyPage<any> };

export const PUBLIC_PAGES = {
  landing: {
    source: "src/client/features/landing/landing-page.tsx",
    Page: lazyPage(() => import("./features/landing/landing-page")),
  },
  about: {
    source: "src/client/features/about/about-page.tsx",
    Page: lazyPage(() => import("./features/about/about-page")),
  },
  contact: {
    source: "src/client/features/contact/contact-page.tsx",
    Page: lazyPage(() => import("./features/contact/contact-page")),
  },
  privacy: {
    source: "src/client/features/legal/privacy-page.tsx",
    Page: lazyPage(() => import("./features/legal/privacy-page")),
  },
  terms: {
    source: "src/client/features/legal/terms-page.tsx",
    Page: lazyPage(() => import("./features/legal/terms-page")),
  },
  blogList: {
    source: "src/client/features/blog/blog-list-page.tsx",
    Page: lazyPage(() => import("./features/blog/blog-list-page")),
  },
  blogPost: {
    source: "src/client/features/blog/blog-post-page.tsx",
    Page: lazyPage(() => import("./features/blog/blog-post-page")),
  },
  notFound: {
    source: "src/client/features/not-found/not-found-page.tsx",
    Page: lazyPage(() => import("./features/not-found/not-found-page")),
  },
} satisfies Record<string, PublicPage>;

export type PublicPageName = keyof typeof PUBLIC_PAGES;

const EXACT: Record<string, PublicPageName> = {
  "/": "landing",
  "/landing": "landing",
  "/about": "about",
  "/contact": "contact",
  "/privacy": "privacy",
  "/terms": "terms",
  "/blog": "blogList",
  "/404": "notFound",
};

/** The public page a path shows, with its parameters; null for the signed-in app's routes. */
export function matchPublicPage(
  pathname: string,
): { name: PublicPageName; params: Record<string, string> } | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const exact = EXACT[path];
  if (exact) return { name: exact, params: {} };
  const post = /^\/blog\/([^/]+)$/.exec(path);
  if (post?.[1]) {
    try {
      return { name: "blogPost", params: { slug: decodeURIComponent(post[1]) } };
    } catch {
      return null;
    }
  }
  return null;
}
