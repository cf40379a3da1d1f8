import { createContext, useContext, useEffect } from "react";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME, TITLE_SUFFIX } from "../lib/site";

export type PageMeta = {
  /** The page's own title; the document title becomes "{title} | Atomize Project Manager". */
  title: string;
  description?: string;
  /** The canonical path of the page, e.g. "/blog/my-post". */
  path: string;
  image?: string;
  /** og:type, "website" unless given (articles use "article"). */
  type?: "website" | "article";
  /** Keeps the page out of search indexes (e.g. the 404 page and the auth screens). */
  noIndex?: boolean;
  /** Structured data (schema.org JSON-LD) for this page, replaced on every page. */
  jsonLd?: Record<string, unknown>;
};

export const pageTitle = (title: string) => `${title} | ${TITLE_SUFFIX}`;

/** The default description of a page that gives none. */
export const DEFAULT_DESCRIPTION = `${PRODUCT_NAME}: ${PRODUCT_DESCRIPTION}.`;

/**
 * On the server a page's metadata goes into <head> before any script runs: the server renderer provides
 * a collector, and the last page rendered fills it (src/server/ssr/ writes the tags).
 */
export type PageMetaCollector = { meta: PageMeta | null };
export const PageMetaContext = createContext<PageMetaCollector | null>(null);

/** The id of the JSON-LD element a page's structured data goes in (one per page, replaced by the next). */
export const STRUCTURED_DATA_ID = "page-structured-data";

function upsertMeta(attr: "name" | "property", key: string, content: string | null): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (content === null) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement("meta");
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.setAttribute("content", content);
}

function upsertCanonical(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "canonical";
    document.head.appendChild(link);
  }
  link.href = href;
}

function upsertJsonLd(data: Record<string, unknown> | undefined): void {
  const id = STRUCTURED_DATA_ID;
  let script = document.getElementById(id);
  if (!data) {
    script?.remove();
    return;
  }
  if (!script) {
    script = document.createElement("script");
    script.id = id;
    script.setAttribute("type", "application/ld+json");
    document.head.appendChild(script);
  }
  script.textContent = JSON.stringify(data);
}

/** A page's <head>: the document title, the canonical URL, the meta tags (null: none) and JSON-LD. */
export type PageHead = {
  title: string;
  canonical: string;
  meta: ["name" | "property", string, string | null][];
  jsonLd: Record<string, unknown> | undefined;
};

/** The head of a page on a site at `origin`; the server writes it, the browser keeps it up to date. */
export function pageHead(
  { title, description, path, image, type = "website", noIndex, jsonLd }: PageMeta,
  origin: string,
): PageHead {
  const fullTitle = pageTitle(title);
  const desc = description ?? DEFAULT_DESCRIPTION;
  const url = new URL(path, origin).href;
  const imageUrl = image ? new URL(image, origin).href : null;
  return {
    title: fullTitle,
    canonical: url,
    meta: [
      ["name", "description", desc],
      ["name", "robots", noIndex ? "noindex, nofollow" : null],
      ["property", "og:site_name", PRODUCT_NAME],
      ["property", "og:title", fullTitle],
      ["property", "og:description", desc],
      ["property", "og:url", url],
      ["property", "og:type", type],
      ["property", "og:image", imageUrl],
      ["name", "twitter:card", imageUrl ? "summary_large_image" : "summary"],
      ["name", "twitter:title", fullTitle],
      ["name", "twitter:description", desc],
      ["name", "twitter:image", imageUrl],
    ],
    jsonLd,
  };
}

/** Every page sets its title, a canonical URL and social (Open Graph, Twitter) metadata. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, path, image, type, noIndex, jsonLd } = meta;
  const collector = useContext(PageMetaContext);
  if (collector) collector.meta = meta;
  const jsonLdText = jsonLd ? JSON.stringify(jsonLd) : undefined;
  useEffect(() => {
    const head = pageHead(
      {
        title,
        description,
        path,
        image,
        type,
        noIndex,
        jsonLd: jsonLdText ? (JSON.parse(jsonLdText) as Record<string, unknown>) : undefined,
      },
      window.location.origin,
    );
    document.title = head.title;
    upsertCanonical(head.canonical);
    for (const [attr, key, content] of head.meta) upsertMeta(attr, key, content);
    upsertJsonLd(head.jsonLd);
  }, [title, description, path, image, type, noIndex, jsonLdText]);
}
