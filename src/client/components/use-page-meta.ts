import { useEffect } from "react";
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
  const id = "page-structured-data";
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

/** Every page sets its title, a canonical URL and social (Open Graph, Twitter) metadata. */
export function usePageMeta({
  title,
  description,
  path,
  image,
  type = "website",
  noIndex,
  jsonLd,
}: PageMeta): void {
  const jsonLdText = jsonLd ? JSON.stringify(jsonLd) : undefined;
  useEffect(() => {
    const fullTitle = pageTitle(title);
    const desc = description ?? `${PRODUCT_NAME}: ${PRODUCT_DESCRIPTION}.`;
    const url = new URL(path, window.location.origin).href;
    const imageUrl = image ? new URL(image, window.location.origin).href : null;

    document.title = fullTitle;
    upsertCanonical(url);
    upsertMeta("name", "description", desc);
    upsertMeta("name", "robots", noIndex ? "noindex, nofollow" : null);
    upsertMeta("property", "og:site_name", PRODUCT_NAME);
    upsertMeta("property", "og:title", fullTitle);
    upsertMeta("property", "og:description", desc);
    upsertMeta("property", "og:url", url);
    upsertMeta("property", "og:type", type);
    upsertMeta("property", "og:image", imageUrl);
    upsertMeta("name", "twitter:card", imageUrl ? "summary_large_image" : "summary");
    upsertMeta("name", "twitter:title", fullTitle);
    upsertMeta("name", "twitter:description", desc);
    upsertMeta("name", "twitter:image", imageUrl);
    upsertJsonLd(jsonLdText ? (JSON.parse(jsonLdText) as Record<string, unknown>) : undefined);
  }, [title, description, path, image, type, noIndex, jsonLdText]);
}
