import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger("debug", {}, (line) => lines.push(line)) };
}

describe("logger scrubbing", () => {
  it("keeps the database's message of a failed query but never its parameters", () => {
    const { lines, log } = capture();
    const hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";
    const err = new Error(
      `Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: a@b.c,${hash}`,
      {
        cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
      },
    );
    err.name = "DrizzleQueryError";
    log.error("unhandled error", { err });
    expect(lines[0]).toContain("invalid byte sequence");
    expect(lines[0]).toContain("22021");
    expect(lines[0]).not.toContain("params");
    expect(lines[0]).not.toContain("argon2");
    expect(lines[0]).not.toContain("a@b.c");
  });

  it("redacts secret-named fields, tokens and hashes wherever they appear", () => {
    const { lines, log } = capture();
    log.info("x", {
      password: "hunter2hunter2",
      nested: { apiToken: "abc", authorization: "Bearer xyz" },
      note: "session abcdefghijklmnopqrstuvwx.abcdefghijklmnopqrstuvwxyz234567 and ghp_0123456789abcdefghij0123",
      url: "https://user:pa55@example.com/x?token=s3cr3t&page=2",
      ok: true,
    });
    const line = lines[0]!;
    for (const secret of [
      "hunter2",
      'abc"',
      "xyz",
      "abcdefghijklmnopqrstuvwx.",
      "ghp_0123",
      "pa55",
      "s3cr3t",
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("page=2");
    expect(JSON.parse(line).ok).toBe(true);
  });
});
