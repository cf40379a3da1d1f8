import { existsSync, readFileSync } from "node:fs";
import type { MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { BLOG_IMAGE_MAX_BYTES, BLOG_MESSAGES } from "../../shared/schemas/blog";
import { AppError, notFound } from "../errors";
import { confirmWithToken } from "../services/blog/confirmation";
import { adminOutbox } from "../services/blog/outbox";
import * as posts from "../services/blog/posts";
import { injectPostMeta, robotsTxt, rssXml, sitemapXml } from "../services/blog/seo";
import * as subs from "../services/blog/subscriptions";
import { readUpload, saveBlogImage } from "../services/blog/uploads";
import { parseInput } from "../services/validation";
import { type AppEnv, jsonBody, requireAdmin, requireUser } from "./http";

const anyObject = z.record(z.string(), z.unknown());

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

/** The /api blog routes (posts, subscriptions), the admin outbox and the image upload. */
export const blogRoutes = new Hono<AppEnv>()
  .get("/blog/posts", async (c) => c.json(await posts.listPublishedPosts(c.var.deps, c.req.query())))
  .get("/blog/posts/:slug", async (c) =>
    c.json(await posts.getPostBySlug(c.var.deps, c.get("auth").session?.user ?? null, c.req.param("slug"))),
  )
  .post("/blog/subscribe", async (c) => {
    const user = c.get("auth").session?.user ?? null;
    const { httpStatus, ...result } = await subs.subscribe(
      c.var.deps,
      user,
      await jsonBody(c, anyObject),
      c.var.meta,
    );
    return c.json(result, httpStatus);
  })
  .get("/blog/my-subscription", async (c) => {
    const sub = await subs.getMySubscription(c.var.deps, requireUser(c).user);
    if (!sub) throw new AppError("NOT_FOUND", BLOG_MESSAGES.notSubscribed);
    return c.json(sub);
  })
  .delete("/blog/my-subscription", async (c) =>
    c.json(await subs.cancelMySubscription(c.var.deps, requireUser(c).user)),
  )
  // The one-click link of every e-mail (GET from a browser, POST from mail clients per RFC 8058).
  .on(["GET", "POST"], "/blog/unsubscribe", async (c) => {
    try {
      await subs.unsubscribeWithToken(c.var.deps, { token: c.req.query("token") ?? "" });
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
      await confirmWithToken(c.var.deps, { token: c.req.query("token") ?? "" });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return c.html(page("Invalid link", BLOG_MESSAGES.invalidConfirmation), 400);
    }
    return c.html(page("Subscription confirmed", BLOG_MESSAGES.confirmed));
  })
  .get("/admin/blog/posts", async (c) => {
    requireAdmin(c);
    return c.json(await posts.adminListPosts(c.var.deps, c.req.query()));
  })
  .get("/admin/blog/posts/:id", async (c) => {
    requireAdmin(c);
    return c.json(await posts.adminGetPost(c.var.deps, c.req.param("id")));
  })
  .post("/admin/blog/posts", async (c) => {
    const { user } = requireAdmin(c);
    return c.json(await posts.createPost(c.var.deps, user, await jsonBody(c, anyObject)), 201);
  })
  .patch("/admin/blog/posts/:id", async (c) => {
    requireAdmin(c);
    return c.json(await posts.updatePost(c.var.deps, c.req.param("id"), await jsonBody(c, anyObject)));
  })
  .delete("/admin/blog/posts/:id", async (c) => {
    requireAdmin(c);
    return c.json(await posts.deletePost(c.var.deps, c.req.param("id")));
  })
  .get("/admin/blog/subscriptions", async (c) => {
    requireAdmin(c);
    return c.json(await subs.adminListSubscriptions(c.var.deps, c.req.query()));
  })
  .delete("/admin/blog/subscriptions/:id", async (c) => {
    requireAdmin(c);
    return c.json(await subs.adminDeleteSubscription(c.var.deps, c.req.param("id")));
  })
  // For developers: the mail kept while no SMTP server is configured.
  .get("/admin/outbox", async (c) => {
    requireAdmin(c);
    const q = parseInput(
      z.object({
        to: z.string().trim().max(254).optional(),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
      c.req.query(),
    );
    return c.json(await adminOutbox(c.var.deps, q));
  })
  .post("/uploads/blog-image", async (c) => {
    requireAdmin(c);
    let body: Record<string, unknown>;
    try {
      body = await c.req.parseBody();
    } catch {
      throw new AppError("UNPROCESSABLE_CONTENT", BLOG_MESSAGES.invalidImage);
    }
    const file = Array.isArray(body.file) ? body.file[0] : body.file;
    return c.json(await saveBlogImage(c.var.deps, file), 201);
  });

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

/** Routes outside /api, mounted before the SPA fallback: uploads, sitemap, robots.txt, feed, post pages. */
export function blogSiteRoutes(indexFile: string) {
  return (
    new Hono<AppEnv>()
      .get("/uploads/:name", async (c) => {
        const name = c.req.param("name");
        const file = await readUpload(c.var.deps, name);
        if (!file) throw notFound();
        return c.body(new Uint8Array(file.bytes), 200, {
          "Content-Type": file.contentType,
          "Content-Disposition": `inline; filename="${name}"`,
          "Cache-Control": "public, max-age=31536000, immutable",
        });
      })
      .get("/sitemap.xml", async (c) => {
        c.header("Cache-Control", "public, max-age=300");
        return c.body(await sitemapXml(c.var.deps), 200, {
          "Content-Type": "application/xml; charset=utf-8",
        });
      })
      .get("/robots.txt", (c) => {
        c.header("Cache-Control", "public, max-age=3600");
        return c.text(robotsTxt(c.var.deps));
      })
      .get("/blog/rss.xml", async (c) => {
        c.header("Cache-Control", "public, max-age=300");
        return c.body(await rssXml(c.var.deps), 200, {
          "Content-Type": "application/rss+xml; charset=utf-8",
        });
      })
      // The SPA's page for a post, with the post's metadata in <head>; anything else falls through to the SPA.
      .get("/blog/:slug", async (c, next) => {
        if (!existsSync(indexFile)) return next();
        const post = await posts.findPublishedPost(c.var.deps, c.req.param("slug")).catch(() => null);
        if (!post) return next();
        c.header("Cache-Control", "no-cache");
        return c.html(injectPostMeta(c.var.deps, readFileSync(indexFile, "utf8"), post));
      })
  );
}
