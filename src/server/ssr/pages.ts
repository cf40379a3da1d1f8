import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "hono";
import type { RenderInput, RenderResult } from "../../client/entry-server";
import {
  BOOTSTRAP_ELEMENT_ID,
  jsonForScript,
  type PageBootstrap,
  type PublicConfigAnswer,
  THEME_COOKIE,
} from "../../shared/page-bootstrap";
import type { BlogPost } from "../../shared/schemas/blog";
import type { Deps } from "../deps";
import type { AppEnv } from "../http/hono-env";
import { REFRESH_COOKIE, readCookies, SESSION_COOKIE } from "../http/session-cookies";
import { blogOperations } from "../operations/blog";
import { visitorContext } from "../operations/context";
import { invoke } from "../operations/invoke";
import { linkOperations } from "../operations/links";

/**
 * Every HTML page the server sends: the built client's index.html with the page rendered into it by the
 * server renderer (dist/ssr/entry-server.js, `npm run build`), the page's metadata in <head>, its chunk
 * preloaded and the data block the browser hydrates from (src/shared/page-bootstrap.ts). Without a server
 * renderer (a client built alone, the integration tests' stand-in client) or when rendering fails, the
 * page is the plain single-page app, as before: the browser renders it. Decision 023.
 */
type ServerRenderer = { render(input: RenderInput): Promise<RenderResult> };

type ManifestChunk = { file: string; imports?: string[] };

/** The post a page shows, with the tags its <head> carries (null for every other page). */
type FoundPost = { post: BlogPost | null; head: string | null };

/** The SPA's index.html with a post's head tags in place of the page's own title and description. */
function withPostHead(indexHtml: string, tags: string): string {
  const head = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, "")
    .replace(/<meta\s+name="description"[^>]*>\s*/i, "");
  return /<\/head>/i.test(head) ? head.replace(/<\/head>/i, () => `${tags}  </head>`) : tags + head;
}
type Manifest = Record<string, ManifestChunk>;

export type SitePagesOptions = {
  /** The built client (index.html, assets, .vite/manifest.json). */
  clientDir: string;
  /** The server renderer's module; by default dist/ssr/entry-server.js beside the client. */
  ssrEntry?: string;
};

const NOT_BUILT = "The client is not built. Run `npm run build` (or `npm run dev` for development).";

function publicConfig(deps: Deps): PublicConfigAnswer {
  return {
    publicUrl: deps.config.publicOrigin,
    supportEmail: deps.config.SUPPORT_EMAIL,
    social: {
      github: deps.config.SOCIAL_GITHUB_URL,
      x: deps.config.SOCIAL_X_URL,
      linkedin: deps.config.SOCIAL_LINKEDIN_URL,
    },
  };
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

/** The files of a chunk and of every chunk it imports statically, as the browser will load them. */
function chunkFiles(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.imports ?? []).flatMap((k) => chunkFiles(manifest, k, seen))];
}

/** `<link rel="modulepreload">` for a page's chunks the template does not load already. */
function preloadLinks(manifest: Manifest | null, sources: string[], template: string): string {
  if (!manifest) return "";
  const files = new Set(sources.flatMap((source) => chunkFiles(manifest, source)));
  return [...files]
    .filter((file) => !template.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join("\n    ");
}

function appendToHead(html: string, tags: string): string {
  return html.replace(/\s*<\/head>/i, () => `\n    ${tags}\n  </head>`);
}

/** Puts the page's tags in <head>, replacing the template's own title and description. */
function withHead(html: string, tags: string): string {
  if (!tags) return html;
  const head = html
    .replace(/<title>[\s\S]*?<\/title>\s*/i, "")
    .replace(/<meta\s+name="description"[^>]*>\s*/i, "");
  return appendToHead(head, tags);
}

/** The page in the reader's theme (the cookie lib/theme.ts keeps), so the first paint is in it. */
function withTheme(html: string, theme: string | undefined): string {
  if (theme !== "light") return html;
  return html
    .replace(/(<html\b[^>]*\bdata-theme=")dark"/i, '$1light"')
    .replace(/(<meta name="theme-color" content=")#1d232a"/i, '$1#ffffff"');
}

function withBootstrap(html: string, bootstrap: PageBootstrap): string {
  const block = `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${jsonForScript(bootstrap)}</script>`;
  return /<\/body>/i.test(html) ? html.replace(/<\/body>/i, () => `  ${block}\n  </body>`) : html + block;
}

export function createSitePages(deps: Deps, opts: SitePagesOptions) {
  const indexFile = path.join(opts.clientDir, "index.html");
  const ssrEntry = opts.ssrEntry ?? path.resolve(opts.clientDir, "..", "ssr", "entry-server.js");
  const config = publicConfig(deps);

  // Loaded at the first page, once (react-dom/server and the pages take a moment to import).
  let renderer: Promise<ServerRenderer | null> | undefined;
  const loadRenderer = () => {
    renderer ??= existsSync(ssrEntry)
      ? (import(pathToFileURL(ssrEntry).href) as Promise<ServerRenderer>).catch((err: unknown) => {
          deps.log.error("the server renderer could not be loaded; pages render in the browser", { err });
          return null;
        })
      : Promise.resolve(null);
    return renderer;
  };
  let manifest: Manifest | null | undefined;

  /** Renders a page on the server; null when there is no renderer or it failed (logged). */
  async function serverRender(c: Context<AppEnv>, found: FoundPost) {
    const ssr = await loadRenderer();
    if (!ssr) return null;
    try {
      return await ssr.render({
        url: c.req.path + (new URL(c.req.url).search || ""),
        config,
        loadBlogPosts: (input) => invoke(blogOperations.list, visitorContext(c), input),
        loadBlogPost: async (slug) => {
          const page = await invoke(linkOperations.postPage, visitorContext(c), { slug });
          found.post = page?.post ?? null;
          found.head = page?.head ?? null;
          return found.post;
        },
      });
    } catch (err) {
      c.var.log.error("server rendering failed; the page renders in the browser", { err, path: c.req.path });
      return null;
    }
  }

  return async function sitePage(c: Context<AppEnv>) {
    if (!existsSync(indexFile)) return c.text(NOT_BUILT, 503);
    const template = readFileSync(indexFile, "utf8");
    const cookies = readCookies(c.req.header("cookie"));
    const session = Boolean(cookies[SESSION_COOKIE] || cookies[REFRESH_COOKIE]);
    const found: FoundPost = { post: null, head: null };
    const rendered = await serverRender(c, found);

    // A visitor's public page is complete without scripts: the browser starts React once the page has loaded
    // (src/client/main.tsx), so its chunks are not preloaded to compete with the page for the network.
    const hydrate = rendered?.page && !session ? "idle" : "now";
    let html = template;
    if (rendered) {
      manifest ??= readJson<Manifest>(path.join(opts.clientDir, ".vite", "manifest.json"));
      const preload = hydrate === "now" ? preloadLinks(manifest, rendered.sources, template) : "";
      // A post's head carries the article's own tags (services/blog/seo.ts), as crawlers have always seen it;
      // a post the server cannot show (a draft, a wrong link) keeps the site's own until the browser knows.
      if (found.head) html = withPostHead(html, found.head);
      else if (rendered.page !== "blogPost") html = withHead(html, rendered.head ?? "");
      if (preload) html = appendToHead(html, preload);
      html = html.replace('<div id="root"></div>', () => `<div id="root">${rendered.html}</div>`);
      // A page rendered in full works without scripts; the "needs JavaScript" notice is for the others.
      if (rendered.page) html = html.replace(/<noscript>[\s\S]*?<\/noscript>\s*/i, "");
    } else {
      const slug = /^\/blog\/([^/]+)$/.exec(c.req.path)?.[1];
      const page = slug
        ? await invoke(linkOperations.postPage, visitorContext(c), { slug }).catch(() => null)
        : null;
      if (page) html = withPostHead(html, page.head);
    }
    html = withTheme(html, cookies[THEME_COOKIE]);
    html = withBootstrap(html, {
      ssr: rendered !== null,
      hydrate,
      config,
      session,
      data: rendered?.data ?? {},
    });
    c.header("Cache-Control", "no-cache");
    return c.html(html);
  };
}
