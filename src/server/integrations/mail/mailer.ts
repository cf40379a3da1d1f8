import { count, desc, eq } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema/index";
import type { Logger } from "../../lib/logger";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe); an outbox copy does not keep them. */
  headers?: Record<string, string>;
};

/** Sends e-mail through SMTP_URL, or keeps it in the `mail_outbox` table when no SMTP server is set. */
export type Mailer = {
  readonly transport: "smtp" | "outbox";
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

export type OutboxMessage = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
};

export function createMailer(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM">,
  database: Database,
  log: Logger,
): Mailer {
  const smtpUrl = config.SMTP_URL;
  if (smtpUrl) {
    // nodemailer is loaded with the first e-mail, not at every start (decision 025).
    let transport: Promise<Transporter> | undefined;
    const open = () => {
      transport ??= import("nodemailer").then((m) => m.default.createTransport(smtpUrl));
      return transport;
    };
    return {
      transport: "smtp",
      async send(mail) {
        await (await open()).sendMail({
          from: config.MAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
        });
      },
      close: () =>
        void transport?.then(
          (t) => t.close(),
          () => {},
        ),
    };
  }
  return {
    transport: "outbox",
    async send(mail) {
      await database.db
        .insert(mailOutbox)
        .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      log.debug("mail kept in the outbox (no SMTP_URL)", { subject: mail.subject });
    },
    close: () => {},
  };
}

/** The newest outbox messages, optionally for one recipient (for developers, through an admin route). */
export async function listOutbox(
  database: Database,
  opts: { to?: string | undefined; limit: number },
): Promise<{ messages: OutboxMessage[]; total: number }> {
  const where = opts.to ? eq(mailOutbox.to, opts.to) : undefined;
  const [rows, [counted]] = await Promise.all([
    database.db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(opts.limit),
    database.db.select({ n: count() }).from(mailOutbox).where(where),
  ]);
  return {
    messages: rows.map((r) => ({
      id: r.id,
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      created_at: r.createdAt.toISOString(),
    })),
    total: counted?.n ?? 0,
  };
}
