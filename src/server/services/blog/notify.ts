import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { htmlToText, truncateText } from "../../../shared/sanitize-html";
import { blogPosts, blogSubscriptions, jobs } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { JobKind } from "../../jobs/payloads";
import type { DbOrTx, JobContext, TypedJob } from "../../jobs/queue";
import { escapeHtml } from "../../lib/escape-html";
import { JOB_BLOG_CONFIRM, sendConfirmation } from "./confirmation";
import { unsubscribeUrl } from "./subscriptions";

export const JOB_BLOG_NOTIFY = "blog.notify" satisfies JobKind;
const BATCH = 100;

/**
 * Queues the "new post" e-mail. Called in the transaction that sets `blog_posts.notified_at` (the
 * claim), so a post is announced at most once, and the job survives a restart.
 */
export async function enqueueNotification(deps: Deps, tx: DbOrTx, postId: string): Promise<void> {
  await deps.jobs.enqueue(
    { kind: JOB_BLOG_NOTIFY, payload: { postId }, dedupeKey: `blog.notify:${postId}`, maxAttempts: 5 },
    tx,
  );
}

export function registerBlog(deps: Deps): void {
  deps.jobs.register(JOB_BLOG_NOTIFY, (job, ctx) => notifySubscribers(deps, job, ctx));
  deps.jobs.register(JOB_BLOG_CONFIRM, (job) => sendConfirmation(deps, job));
}

export function postEmail(opts: {
  title: string;
  summary: string;
  postUrl: string;
  unsubscribeUrl: string;
}): { subject: string; text: string; html: string } {
  const subject = `New on the Atomize blog: ${opts.title}`;
  const text = [
    opts.title,
    "",
    opts.summary,
    "",
    `Read it: ${opts.postUrl}`,
    "",
    "--",
    "You receive this because you subscribed to Atomize blog updates.",
    `Unsubscribe: ${opts.unsubscribeUrl}`,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(opts.title)}</h1>
<p>${escapeHtml(opts.summary)}</p>
<p><a href="${escapeHtml(opts.postUrl)}">Read the post</a></p>
<hr><p style="font-size:12px;color:#666">You receive this because you subscribed to Atomize blog updates.
<a href="${escapeHtml(opts.unsubscribeUrl)}">Unsubscribe</a></p>
</body></html>`;
  return { subject, text, html };
}

/**
 * E-mails every active, confirmed subscriber about a newly published post (a pending address has not
 * said it wants our mail). The job remembers the last subscriber
 * served (ordered by id) in its payload, so a retry after a failure or a restart goes on from there
 * instead of mailing anyone twice.
 */
async function notifySubscribers(
  deps: Deps,
  job: TypedJob<typeof JOB_BLOG_NOTIFY>,
  ctx: JobContext,
): Promise<void> {
  const postId = job.payload.postId;
  const [post] = await deps.db.select().from(blogPosts).where(eq(blogPosts.id, postId)).limit(1);
  if (!post?.notifiedAt) return; // deleted meanwhile: nothing to announce
  const base = deps.config.PUBLIC_URL.replace(/\/+$/, "");
  const postUrl = `${base}/blog/${encodeURIComponent(post.slug)}`;
  const summary = post.excerpt || truncateText(htmlToText(post.content), 300);
  let after = job.payload.after ?? null;
  let sent = 0;
  for (;;) {
    const batch = await deps.db
      .select()
      .from(blogSubscriptions)
      .where(
        and(
          eq(blogSubscriptions.status, "active"),
          isNotNull(blogSubscriptions.confirmedAt),
          after ? gt(blogSubscriptions.id, after) : undefined,
        ),
      )
      .orderBy(asc(blogSubscriptions.id))
      .limit(BATCH);
    for (const sub of batch) {
      if (ctx.signal.aborted) throw new Error("notification interrupted");
      const unsubscribe = unsubscribeUrl(deps, sub.id);
      const mail = postEmail({ title: post.title, summary, postUrl, unsubscribeUrl: unsubscribe });
      await deps.mailer.send({
        to: sub.email,
        ...mail,
        headers: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      after = sub.id;
      sent++;
      await deps.db.transaction(async (tx) => {
        await tx
          .update(blogSubscriptions)
          .set({ lastNotifiedAt: new Date() })
          .where(eq(blogSubscriptions.id, sub.id));
        await tx
          .update(jobs)
          .set({ payload: { ...job.payload, after } })
          .where(eq(jobs.id, job.id));
      });
    }
    if (batch.length < BATCH) break;
  }
  deps.log.info("blog post announced", { postId, sent, transport: deps.mailer.transport });
}
