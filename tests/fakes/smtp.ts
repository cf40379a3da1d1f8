/**
 * A local SMTP server that receives what our mailer (nodemailer) sends, for tests.
 *
 * Rules it follows, and where they come from: RFC 5321 (the EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET,
 * NOOP, QUIT dialogue, its reply codes, 502 for commands it does not implement, dot-stuffing and the
 * "<CRLF>.<CRLF>" end of data) and RFC 5322 (the header block it parses). No TLS and no AUTH (RFC 3207,
 * RFC 4954): the tests that use it point SMTP_URL at plain smtp:// on loopback.
 * Sources, as published: https://www.rfc-editor.org/rfc/rfc5321 (section 4.1 commands, 4.2 reply
 * codes, 4.5.2 transparency / dot-stuffing, 4.5.3.1 size limits) and https://www.rfc-editor.org/rfc/rfc5322
 * (section 2.2 header fields); nodemailer's SMTP client behaviour: https://nodemailer.com/smtp/
 */
import { createServer, type Server } from "node:net";
import { listenOnLoopback } from "./kit";

/** One message as the fake SMTP server received it. */
export type ReceivedMail = {
  from: string;
  to: string[];
  /** The raw message (headers and body) as sent after DATA, dot-stuffing undone. */
  data: string;
  headers: Record<string, string>;
  subject: string;
};

export type FakeSmtp = {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves once at least `n` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/** Unfolds and decodes (RFC 2047 base64 / quoted-printable words) the header block of a message. */
function parseHeaders(raw: string): Record<string, string> {
  const headerBlock = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const headers: Record<string, string> = {};
  for (const line of headerBlock.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return headers;
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/**
 * A tiny SMTP server for tests (node:net): enough of RFC 5321 for nodemailer over plain TCP (no TLS,
 * no AUTH): EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT. It records every message.
 * `failRcpt` makes RCPT TO fail for matching addresses (to test error paths).
 */
export async function startFakeSmtp(opts: { failRcpt?: RegExp } = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];

  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    socket.setEncoding("utf8");
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let inData = false;
    let data: string[] = [];
    let from = "";
    let to: string[] = [];
    reply("220 fake-smtp.test ESMTP ready");

    const handleLine = (line: string) => {
      if (inData) {
        if (line === ".") {
          inData = false;
          const raw = data.join("\r\n");
          const headers = parseHeaders(raw);
          messages.push({ from, to, data: raw, headers, subject: headers.subject ?? "" });
          for (const w of waiters.splice(0)) w();
          from = "";
          to = [];
          data = [];
          reply("250 2.0.0 OK: queued");
        } else {
          data.push(line.startsWith("..") ? line.slice(1) : line);
        }
        return;
      }
      const [verb = "", ...rest] = line.split(" ");
      const arg = rest.join(" ");
      switch (verb.toUpperCase()) {
        case "EHLO":
          socket.write(
            "250-fake-smtp.test greets you\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 10485760\r\n",
          );
          return;
        case "HELO":
          return void reply("250 fake-smtp.test");
        case "MAIL":
          from = /<([^>]*)>/.exec(arg)?.[1] ?? "";
          to = [];
          return void reply("250 2.1.0 OK");
        case "RCPT": {
          const addr = /<([^>]*)>/.exec(arg)?.[1] ?? "";
          if (opts.failRcpt?.test(addr)) return void reply("550 5.1.1 No such user");
          to.push(addr);
          return void reply("250 2.1.5 OK");
        }
        case "DATA":
          if (to.length === 0) return void reply("554 5.5.1 No valid recipients");
          inData = true;
          data = [];
          return void reply("354 End data with <CR><LF>.<CR><LF>");
        case "RSET":
          from = "";
          to = [];
          return void reply("250 2.0.0 OK");
        case "NOOP":
          return void reply("250 2.0.0 OK");
        case "QUIT":
          reply("221 2.0.0 Bye");
          socket.end();
          return;
        default:
          return void reply("502 5.5.2 Command not implemented");
      }
    };

    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let i = buffer.indexOf("\r\n");
      while (i >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        handleLine(line);
        i = buffer.indexOf("\r\n");
      }
    });
  });

  const { host, port, close } = await listenOnLoopback(server);

  return {
    url: `smtp://${host}:${port}`,
    port,
    messages,
    async waitFor(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${n} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages.slice();
    },
    close,
  };
}
