/**
 * Checks the fake SMTP server with nodemailer itself, so the blog suites can rely on it standing in
 * for a real mail server.
 */
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSmtp, startFakeSmtp } from "./smtp";

let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp({ failRcpt: /^bounce@/ });
});
afterAll(() => smtp?.close());

describe("fake SMTP server", () => {
  it("receives a message from nodemailer with its envelope, headers and body", async () => {
    const transport = nodemailer.createTransport(smtp.url);
    const info = await transport.sendMail({
      from: "Atomize <no-reply@atomize.local>",
      to: "reader@example.com",
      subject: "Héllo, wörld",
      text: "Line one\n.starts with a dot\nLine three",
      html: "<p>Hi</p>",
      headers: { "List-Unsubscribe": "<http://x.test/u?token=abc>" },
    });
    transport.close();
    expect(info.accepted).toEqual(["reader@example.com"]);
    const [msg] = await smtp.waitFor(1);
    expect(msg!.from).toBe("no-reply@atomize.local");
    expect(msg!.to).toEqual(["reader@example.com"]);
    expect(msg!.subject).toBe("Héllo, wörld");
    expect(msg!.headers["list-unsubscribe"]).toBe("<http://x.test/u?token=abc>");
    expect(msg!.data).toContain(".starts with a dot");
    expect(msg!.data).toContain("<p>Hi</p>");
  });

  it("refuses a recipient it is told to, and nodemailer reports the failure", async () => {
    const transport = nodemailer.createTransport(smtp.url);
    await expect(
      transport.sendMail({ from: "a@example.com", to: "bounce@example.com", subject: "x", text: "x" }),
    ).rejects.toThrow(/550|No such user|recipients/i);
    transport.close();
  });
});
