import type { MiddlewareHandler } from "hono";
import { Hono } from "hono";
import type { z } from "zod";
import { BLOG_IMAGE_MAX_BYTES, BLOG_MESSAGES } from "../../shared/schemas/blog";
import { AppError, notFound } from "../errors";
import type { AppEnv } from "../http/hono-env";
import { restContext, visitorContext } from "../operations/context";
import type { RouteDoc } from "../operations/define";
import { invoke } from "../operations/invoke";
import { linkOperations } from "../operations/links";
import { parseInput } from "../operations/validation";

/** The one route allowed a body above 1 MB (app.ts applies UPLOAD_BODY_BYTES to it instead). */
export const BLOG_IMAGE_UPLOAD_PATH = "/api/uploads/blog-image";
/** 5 MB of image plus room for the multipart framing; the handler enforces the exact 5 MB. */
export const UPLOAD_BODY_BYTES = BLOG_IMAGE_MAX_BYTES + 1024 * 1024;

function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" /><title>${title} | Atomize Project Manager</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>${title}</h1><p>${message}</p><p><a href="/blog">Back to the blog</a></p></body></html>`;
}

/**
 * The blog routes that are not operations: the links of the e-mails answer with HTML pages, and the
 * image upload takes multipart form data. The JSON routes are declared in operations/blog.ts.
 */
export const blogRoutes = new Hono<AppEnv>()
  // The one-click link of every e-mail (GET from a browser, POST from mail clients per RFC 8058).
  .on(["GET", "POST"], "/blog/unsubscribe", async (c) => {
    try {
      await invoke(linkOperations.unsubscribeLink, restContext(c), { token: c.req.query("token") ?? "" });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      c.header("Cache-Control", "no-store");
      return c.html(
        page(
          "Invalid link",
          "This unsubscribe link is invalid. Please use the link from your latest e-mail.",
        ),
        400,
      );
    }
    c.header("Cache-Control", "no-store");
    return c.html(
      page("You have been unsubscribed", "You will no longer receive Atomize blog updates by e-mail."),
    );
  })
  // The link in the confirmation e-mail (double opt-in), answered like the unsubscribe link.
  .get("/blog/confirm", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      await invoke(linkOperations.confirmLink, restContext(c), { token: c.req.query("token") ?? "" });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return c.html(page("Invalid link", BLOG_MESSAGES.invalidConfirmation), 400);
    }
    return c.html(page("Subscription confirmed", BLOG_MESSAGES.confirmed));
  })
  .post("/uploads/blog-image", async (c) => {
    // The form is read once the caller may upload (an admin, and not a read-only token).
    const readForm = async (schema: z.ZodType) => {
      let body: Record<string, unknown>;
      try {
        body = await c.req.parseBody();
      } catch {
        throw new AppError("UNPROCESSABLE_CONTENT", BLOG_MESSAGES.invalidImage);
      }
      return parseInput(schema, { file: Array.isArray(body.file) ? body.file[0] : body.file });
    };
    return c.json(await invoke(linkOperations.blogImage, restContext(c), null, readForm), 201);
  });

export const blogRouteDocs: RouteDoc[] = [
  {
    method: "get",
    path: "/blog/unsubscribe",
    tag: "Blog",
    summary: "The one-click unsubscribe link of every e-mail (an HTML page).",
    query: ["token"],
    responses: { "200": "HTML: unsubscribed", "400": "HTML: the link is invalid" },
  },
  {
    method: "post",
    path: "/blog/unsubscribe",
    tag: "Blog",
    summary: "One-click unsubscribe from mail clients (RFC 8058).",
    query: ["token"],
    responses: { "200": "HTML: unsubscribed", "400": "HTML: the link is invalid" },
  },
  {
    method: "get",
    path: "/blog/confirm",
    tag: "Blog",
    summary: "The link of the confirmation e-mail (double opt-in; an HTML page).",
    query: ["token"],
    responses: { "200": "HTML: subscription confirmed", "400": "HTML: the link is invalid" },
  },
  {
    method: "post",
    path: "/uploads/blog-image",
    tag: "Blog administration",
    access: "admin",
    summary: "Uploads an image for a post (PNG, JPEG, GIF or WebP, at most 5 MB).",
    files: ["file"],
    responses: { "201": "JSON: the image's URL", "422": "JSON: not an image, or too large" },
  },
];

/**
 * Uploaded images are served as inert files: no script, no sniffing, no framing. Mounted before the
 * app-wide secure headers so this Content-Security-Policy is the one sent.
 */
export const uploadResponseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  // Blog images may be shown by feed readers and link previews on other sites.
  c.res.headers.set("Cross-Origin-Resource-Policy", "cross-origin");
};

/**
 * Routes outside /api, mounted before the pages: uploads, sitemap, robots.txt and the feed. Post pages are
 * pages like any other (ssr/pages.ts), with the post's metadata in <head>.
 */
export function blogSiteRoutes() {
  return new Hono<AppEnv>()
    .get("/uploads/:name", async (c) => {
      const name = c.req.param("name");
      const file = await invoke(linkOperations.upload, visitorContext(c), { name });
      if (!file) throw notFound();
      return c.body(new Uint8Array(file.bytes), 200, {
        "Content-Type": file.contentType,
        "Content-Disposition": `inline; filename="${name}"`,
        "Cache-Control": "public, max-age=31536000, immutable",
      });
    })
    .get("/sitemap.xml", async (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.body(await invoke(linkOperations.sitemap, visitorContext(c), null), 200, {
        "Content-Type": "application/xml; charset=utf-8",
      });
    })
    .get("/robots.txt", async (c) => {
      c.header("Cache-Control", "public, max-age=3600");
      return c.text(await invoke(linkOperations.robots, visitorContext(c), null));
    })
    .get("/blog/rss.xml", async (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.body(await invoke(linkOperations.rss, visitorContext(c), null), 200, {
        "Content-Type": "application/rss+xml; charset=utf-8",
      });
    });
}
