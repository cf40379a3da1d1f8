import { type SQL, sql } from "drizzle-orm";
import { customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    slug: text().notNull(),
    content: text().notNull(),
    excerpt: text(),
    featuredImage: text(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    status: text({ enum: ["draft", "published", "archived"] })
      .notNull()
      .default("draft"),
    metaDescription: text(),
    metaKeywords: text(),
    authorId: uuid().references(() => users.id, { onDelete: "set null" }),
    authorName: text().notNull(),
    viewCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp({ withTimezone: true }),
    /** Set once subscribers have been e-mailed about this post, so nothing is sent twice. */
    notifiedAt: timestamp({ withTimezone: true }),
    search: tsvector().generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') || setweight(to_tsvector('english', coalesce(content, '')), 'C')`,
    ),
  },
  (t) => [
    uniqueIndex("blog_posts_slug_idx").on(t.slug),
    index("blog_posts_status_published_idx").on(t.status, t.publishedAt.desc()),
    index("blog_posts_search_idx").using("gin", t.search),
  ],
);

export const blogSubscriptions = pgTable(
  "blog_subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** `pending` until the address is confirmed through the link we mail it (double opt-in), then `active`. */
    status: text().notNull().default("pending"),
    confirmedAt: timestamp({ withTimezone: true }),
    /** The last confirmation e-mail, so a stranger cannot make us mail an address over and over. */
    confirmationSentAt: timestamp({ withTimezone: true }),
    frequency: text().notNull().default("weekly"),
    categories: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastNotifiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("blog_subscriptions_email_idx").on(sql`lower(${t.email})`),
    index("blog_subscriptions_user_idx").on(t.userId),
  ],
);

/**
 * Mail the app sent while no SMTP server is configured (SMTP_URL unset): the embedded default keeps
 * each message here so a developer can read it (GET /api/admin/outbox) instead of losing it.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt.desc())],
);
