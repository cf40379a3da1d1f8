import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { BLOG_MESSAGES, type confirmSubscriptionInput } from "../../../shared/schemas/blog";
import { blogSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { JobKind } from "../../jobs/payloads";
import type { DbOrTx, TypedJob } from "../../jobs/queue";
import { escapeHtml } from "../../lib/escape-html";
import { signConfirmationToken, verifyConfirmationToken } from "./confirmation-token";

export const JOB_BLOG_CONFIRM = "blog.confirm" satisfies JobKind;

/**
 * A pending address is mailed again at most this often, however many times anyone subscribes it: a
 * stranger cannot use the form to flood someone's inbox.
 */
export const CONFIRMATION_RESEND_HOURS = 12;

type Pending = { email: string; userId: string | null; frequency: string; categories: string[] };

/**
 * Double opt-in: creates the address's pending subscription, or refreshes one still pending, and queues
 * the confirmation e-mail unless one went out within CONFIRMATION_RESEND_HOURS. An active subscription
 * is left alone and nothing is sent. The caller answers the same whatever happened here.
 */
export async function requestConfirmation(deps: Deps, pending: Pending): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(blogSubscriptions)
      .values({ ...pending, status: "pending", confirmationSentAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: blogSubscriptions.id });
    if (inserted) {
      await enqueueConfirmation(deps, tx, inserted.id);
      return;
    }
    // The claim is one conditional update, so concurrent requests for one address send one e-mail.
    const resendBefore = sql`now() - make_interval(hours => ${CONFIRMATION_RESEND_HOURS})`;
    const [claimed] = await tx
      .update(blogSubscriptions)
      .set({ status: "pending", confirmationSentAt: new Date() })
      .where(
        and(
          sql`lower(${blogSubscriptions.email}) = ${pending.email.toLowerCase()}`,
          sql`${blogSubscriptions.status} <> 'active'`,
          or(
            isNull(blogSubscriptions.confirmationSentAt),
            lt(blogSubscriptions.confirmationSentAt, resendBefore),
          ),
        ),
      )
      .returning({ id: blogSubscriptions.id });
    if (claimed) await enqueueConfirmation(deps, tx, claimed.id);
  });
}

async function enqueueConfirmation(deps: Deps, tx: DbOrTx, subscriptionId: string): Promise<void> {
  await deps.jobs.enqueue(
    {
      kind: JOB_BLOG_CONFIRM,
      payload: { subscriptionId },
      dedupeKey: `blog.confirm:${subscriptionId}`,
      maxAttempts: 5,
    },
    tx,
  );
}

export function confirmationUrl(deps: Deps, subscriptionId: string): string {
  const token = signConfirmationToken(deps.unsubscribeKey, subscriptionId);
  return `${deps.config.PUBLIC_URL.replace(/\/+$/, "")}/api/blog/confirm?token=${encodeURIComponent(token)}`;
}

export function confirmationEmail(confirmUrl: string): { subject: string; text: string; html: string } {
  const subject = "Confirm your subscription to the Atomize blog";
  const text = [
    "Someone, hopefully you, asked to receive Atomize blog updates at this address.",
    "",
    `Confirm your subscription: ${confirmUrl}`,
    "",
    "If it was not you, ignore this e-mail: without confirmation you will receive nothing more from us.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>Someone, hopefully you, asked to receive Atomize blog updates at this address.</p>
<p><a href="${escapeHtml(confirmUrl)}">Confirm your subscription</a></p>
<p style="font-size:12px;color:#666">If it was not you, ignore this e-mail: without confirmation you will
receive nothing more from us.</p>
</body></html>`;
  return { subject, text, html };
}

/** The job: mails the link, unless the subscription was confirmed or removed meanwhile. */
export async function sendConfirmation(deps: Deps, job: TypedJob<typeof JOB_BLOG_CONFIRM>): Promise<void> {
  const id = job.payload.subscriptionId;
  const [sub] = await deps.db.select().from(blogSubscriptions).where(eq(blogSubscriptions.id, id)).limit(1);
  if (!sub || sub.status === "active") return;
  await deps.mailer.send({ to: sub.email, ...confirmationEmail(confirmationUrl(deps, sub.id)) });
  deps.log.info("blog subscription confirmation sent", {
    subscriptionId: id,
    transport: deps.mailer.transport,
  });
}

/**
 * The link in the confirmation e-mail: activates the subscription (a second click changes nothing and
 * reports the same success). A forged, malformed or expired token, or one for a subscription that no
 * longer exists, is a 400.
 */
export async function confirmWithToken(
  deps: Deps,
  { token }: z.output<typeof confirmSubscriptionInput>,
): Promise<{ detail: string }> {
  const invalid = new AppError("BAD_REQUEST", BLOG_MESSAGES.invalidConfirmation);
  const id = verifyConfirmationToken(deps.unsubscribeKey, token);
  if (!id) throw invalid;
  const [row] = await deps.db
    .update(blogSubscriptions)
    .set({ status: "active", confirmedAt: sql`coalesce(${blogSubscriptions.confirmedAt}, now())` })
    .where(eq(blogSubscriptions.id, id))
    .returning({ id: blogSubscriptions.id });
  if (!row) throw invalid;
  deps.log.info("blog subscription confirmed", { subscriptionId: id });
  return { detail: BLOG_MESSAGES.confirmed };
}
