import { and, count, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { sanitizePostHtml } from "../../../shared/sanitize-html";
import { type AdminBlogPost, BLOG_MESSAGES, type BlogPost } from "../../../shared/schemas/blog";
import { blogPosts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { enqueueNotification } from "./notify";

export type PostRow = typeof blogPosts.$inferSelect;

export type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

export const notFound = () => new AppError("NOT_FOUND", BLOG_MESSAGES.postNotFound);

/** Every column but the generated search vector, which no response needs. */
export const { search: _search, ...postColumns } = getTableColumns(blogPosts);

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

export async function listWhere(
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

/**
 * GET /blog/posts/{slug}. The public sees published posts, and each read counts one view. An admin
 * also sees drafts and archived posts (a preview), and their reads are not counted.
 */
/** Slugs are always lowercase kebab-case (see slugify); anything else cannot name a post. */
export const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

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

export async function getRow(deps: Deps | { db: Tx }, id: string, lock = false) {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const q = deps.db.select(postColumns).from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound();
  return row;
}

export function cleanContent(html: string): string {
  const clean = sanitizePostHtml(html);
  if (!clean) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Content is empty once unsafe HTML is removed", {
      fieldErrors: [{ field: "content", message: "Content is empty once unsafe HTML is removed" }],
    });
  }
  return clean;
}

export const slugConflict = () =>
  new AppError("CONFLICT", BLOG_MESSAGES.slugTaken, {
    fieldErrors: [{ field: "slug", message: BLOG_MESSAGES.slugTaken }],
  });

/** On first publication: the publication date, and (once ever) the subscriber e-mail, claimed in this transaction. */
export async function onPublish(deps: Deps, tx: Tx, row: Omit<PostRow, "search">) {
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
