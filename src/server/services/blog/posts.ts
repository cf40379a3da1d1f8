import { and, count, desc, eq, getTableColumns, isNull, like, ne, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import { sanitizePostHtml } from "../../../shared/sanitize-html";
import {
  type AdminBlogPost,
  type adminListPostsInput,
  BLOG_MESSAGES,
  type BlogPost,
  type BlogPostList,
  type createPostInput,
  type listPostsInput,
  slugify,
  type updatePostInput,
} from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { UserRow } from "../auth/sessions";
import { enqueueNotification } from "./notify";

export type PostRow = typeof blogPosts.$inferSelect;
type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

const notFound = () => new AppError("NOT_FOUND", BLOG_MESSAGES.postNotFound);

/** Every column but the generated search vector, which no response needs. */
const { search: _search, ...postColumns } = getTableColumns(blogPosts);

export function toPost(row: Omit<PostRow, "search">): BlogPost {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    content: row.content,
    excerpt: row.excerpt,
    featured_image: row.featuredImage,
    tags: row.tags,
    status: row.status,
    meta_description: row.metaDescription,
    meta_keywords: row.metaKeywords,
    author_name: row.authorName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
    view_count: row.viewCount,
  };
}

export function toAdminPost(row: Omit<PostRow, "search">): AdminBlogPost {
  return { ...toPost(row), notified_at: row.notifiedAt ? row.notifiedAt.toISOString() : null };
}

/** Newest first: by publication date, else creation date. */
const newest = [desc(sql`coalesce(${blogPosts.publishedAt}, ${blogPosts.createdAt})`), desc(blogPosts.id)];

async function listWhere(
  deps: Deps,
  filter: SQL | undefined,
  input: { page: number; page_size: number; search?: string | undefined },
) {
  const query = input.search ? sql`websearch_to_tsquery('english', ${input.search})` : null;
  const where = query ? and(filter, sql`${blogPosts.search} @@ ${query}`) : filter;
  const rows = await deps.db
    .select({ row: postColumns, total: sql<number>`count(*) over ()::int` })
    .from(blogPosts)
    .where(where)
    .orderBy(...(query ? [desc(sql`ts_rank(${blogPosts.search}, ${query})`), ...newest] : newest))
    .limit(input.page_size)
    .offset((input.page - 1) * input.page_size);
  const total = rows[0]?.total ?? (await deps.db.select({ n: count() }).from(blogPosts).where(where))[0]!.n;
  return { rows: rows.map((r) => r.row), total };
}

/** GET /blog/posts: published posts only, newest first, or best match first when searching. */
export async function listPublishedPosts(
  deps: Deps,
  input: z.output<typeof listPostsInput>,
): Promise<BlogPostList> {
  const { rows, total } = await listWhere(deps, eq(blogPosts.status, "published"), input);
  return { posts: rows.map(toPost), total, page: input.page, page_size: input.page_size };
}

/**
 * GET /blog/posts/{slug}. The public sees published posts, and each read counts one view. An admin
 * also sees drafts and archived posts (a preview), and their reads are not counted.
 */
/** Slugs are always lowercase kebab-case (see slugify); anything else cannot name a post. */
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export async function getPostBySlug(deps: Deps, viewer: UserRow | null, rawSlug: string): Promise<BlogPost> {
  const slug = rawSlug.trim().toLowerCase();
  // Checked before the query: a NUL byte or other junk would otherwise reach PostgreSQL as an error.
  if (slug.length > 200 || !SLUG_SHAPE.test(slug)) throw notFound();
  if (viewer?.role === "admin") {
    const [row] = await deps.db.select(postColumns).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
    if (!row) throw notFound();
    return toPost(row);
  }
  const [row] = await deps.db
    .update(blogPosts)
    .set({ viewCount: sql`${blogPosts.viewCount} + 1` })
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.status, "published")))
    .returning(postColumns);
  if (!row) throw notFound();
  return toPost(row);
}

/** A published post for server-rendered pages (crawler metadata): no view is counted. */
export async function findPublishedPost(deps: Deps, slug: string): Promise<BlogPost | null> {
  if (slug.length > 200 || !SLUG_SHAPE.test(slug.toLowerCase())) return null;
  const [row] = await deps.db
    .select(postColumns)
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug.toLowerCase()), eq(blogPosts.status, "published")))
    .limit(1);
  return row ? toPost(row) : null;
}

/** Published posts for the sitemap and the feed, newest first. */
export async function recentPublishedPosts(deps: Deps, limit: number): Promise<BlogPost[]> {
  const rows = await deps.db
    .select(postColumns)
    .from(blogPosts)
    .where(eq(blogPosts.status, "published"))
    .orderBy(...newest)
    .limit(limit);
  return rows.map(toPost);
}

// -- admin ---------------------------------------------------------------------------------------------
export async function adminListPosts(
  deps: Deps,
  input: z.output<typeof adminListPostsInput>,
): Promise<BlogPostList<AdminBlogPost>> {
  const { rows, total } = await listWhere(
    deps,
    input.status ? eq(blogPosts.status, input.status) : undefined,
    input,
  );
  return { posts: rows.map(toAdminPost), total, page: input.page, page_size: input.page_size };
}

async function getRow(deps: Deps | { db: Tx }, id: string, lock = false) {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const q = deps.db.select(postColumns).from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound();
  return row;
}

export async function adminGetPost(deps: Deps, id: string): Promise<AdminBlogPost> {
  return toAdminPost(await getRow(deps, id));
}

function cleanContent(html: string): string {
  const clean = sanitizePostHtml(html);
  if (!clean) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Content is empty once unsafe HTML is removed", {
      fieldErrors: [{ field: "content", message: "Content is empty once unsafe HTML is removed" }],
    });
  }
  return clean;
}

/** The base slug, or the first free `base-2`, `base-3`... (taken slugs read in one indexed query). */
async function freeSlug(db: Deps["db"] | Tx, base: string, exceptId?: string): Promise<string> {
  const taken = await db
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(
      and(
        or(eq(blogPosts.slug, base), like(blogPosts.slug, `${base.replace(/[\\%_]/g, "\\$&")}-%`)),
        exceptId ? ne(blogPosts.id, exceptId) : undefined,
      ),
    );
  const used = new Set(taken.map((t) => t.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

const slugConflict = () =>
  new AppError("CONFLICT", BLOG_MESSAGES.slugTaken, {
    fieldErrors: [{ field: "slug", message: BLOG_MESSAGES.slugTaken }],
  });

/** On first publication: the publication date, and (once ever) the subscriber e-mail, claimed in this transaction. */
async function onPublish(deps: Deps, tx: Tx, row: Omit<PostRow, "search">) {
  if (row.status !== "published" || row.notifiedAt) return row;
  const [claimed] = await tx
    .update(blogPosts)
    .set({ notifiedAt: new Date(), publishedAt: row.publishedAt ?? new Date() })
    .where(and(eq(blogPosts.id, row.id), isNull(blogPosts.notifiedAt)))
    .returning(postColumns);
  if (!claimed) return row;
  await enqueueNotification(deps, tx, claimed.id);
  return claimed;
}

export async function createPost(
  deps: Deps,
  author: UserRow,
  input: z.output<typeof createPostInput>,
): Promise<AdminBlogPost> {
  const content = cleanContent(input.content);
  const base = input.slug ?? (slugify(input.title) || "post");
  // A generated slug that loses a race to a concurrent insert simply takes the next number.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await deps.db.transaction(async (tx) => {
      const slug = input.slug ?? (await freeSlug(tx, base));
      const [inserted] = await tx
        .insert(blogPosts)
        .values({
          title: input.title,
          slug,
          content,
          excerpt: input.excerpt,
          featuredImage: input.featured_image,
          tags: input.tags,
          status: input.status,
          metaDescription: input.meta_description,
          metaKeywords: input.meta_keywords,
          authorId: author.id,
          authorName: author.fullName?.trim() || author.email,
          publishedAt: input.status === "published" ? new Date() : null,
        })
        .onConflictDoNothing()
        .returning(postColumns);
      if (!inserted) return null;
      return onPublish(deps, tx, inserted);
    });
    if (row) {
      deps.log.info("blog post created", { postId: row.id, status: row.status });
      return toAdminPost(row);
    }
    if (input.slug) throw slugConflict();
  }
  throw slugConflict();
}

export async function updatePost(
  deps: Deps,
  id: string,
  input: z.output<typeof updatePostInput>,
): Promise<AdminBlogPost> {
  const content = input.content === undefined ? undefined : cleanContent(input.content);
  const row = await deps.db.transaction(async (tx) => {
    const before = await getRow({ db: tx }, id, true);
    const set: Partial<PostRow> = { updatedAt: new Date() };
    if (input.title !== undefined) set.title = input.title;
    if (content !== undefined) set.content = content;
    if (input.excerpt !== undefined) set.excerpt = input.excerpt;
    if (input.featured_image !== undefined) set.featuredImage = input.featured_image;
    if (input.tags !== undefined) set.tags = input.tags;
    if (input.meta_description !== undefined) set.metaDescription = input.meta_description;
    if (input.meta_keywords !== undefined) set.metaKeywords = input.meta_keywords;
    if (input.status !== undefined) set.status = input.status;
    // A blank slug keeps the current one: published links do not change because a title did.
    if (input.slug && input.slug !== before.slug) {
      const [taken] = await tx
        .select({ id: blogPosts.id })
        .from(blogPosts)
        .where(and(eq(blogPosts.slug, input.slug), ne(blogPosts.id, id)))
        .limit(1);
      if (taken) throw slugConflict();
      set.slug = input.slug;
    }
    if (set.status === "published" && !before.publishedAt) set.publishedAt = new Date();
    const [updated] = await tx
      .update(blogPosts)
      .set(set)
      .where(eq(blogPosts.id, id))
      .returning(postColumns)
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? slugConflict() : err;
      });
    return onPublish(deps, tx, updated!);
  });
  return toAdminPost(row);
}

export async function deletePost(deps: Deps, id: string): Promise<{ detail: string }> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const deleted = await deps.db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
  if (deleted.length === 0) throw notFound();
  deps.log.info("blog post deleted", { postId: id });
  return { detail: "Post deleted successfully" };
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
