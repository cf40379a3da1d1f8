import { describe, expect, it } from "vitest";
import { terminalText } from "./terminal-text";

describe("terminalText", () => {
  it("keeps ordinary text, line feeds, tabs and non-Latin characters", () => {
    const text = 'Set up CI\n\t- lint [x] ~ {a} ^_^ \\ "quoted"\nÜber ✓ 日本語 🚀';
    expect(terminalText(text)).toBe(text);
  });

  it("removes whole CSI sequences, 7-bit and 8-bit", () => {
    expect(terminalText("a\x1b[2Jb")).toBe("ab");
    expect(terminalText("\x1b[1;31mred\x1b[0m")).toBe("red");
    expect(terminalText("a\x1b[?1049hb")).toBe("ab");
    expect(terminalText("a\x9b31mb")).toBe("ab");
    expect(terminalText("cut off\x1b[12")).toBe("cut off");
  });

  it("removes OSC, DCS, SOS, PM and APC strings up to BEL or ST", () => {
    expect(terminalText("a\x1b]0;pwned\x07b")).toBe("ab");
    expect(terminalText("a\x1b]52;c;ZWNobyBoaQ==\x1b\\b")).toBe("ab");
    expect(terminalText("a\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\b")).toBe("alinkb");
    expect(terminalText("a\x1bP+q544e\x1b\\b")).toBe("ab");
    expect(terminalText("a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x1b\\d")).toBe("abcd");
    expect(terminalText("a\x9d0;title\x9cb")).toBe("ab");
    expect(terminalText("a\x90dcs\x07b")).toBe("ab");
  });

  it("leaves the text of an unterminated string, without its introducer", () => {
    expect(terminalText("a\x1b]0;title")).toBe("a0;title");
    // An open string does not reach into the next line (where a later BEL would end it).
    expect(terminalText("one\x1b]0;\ntwo\x07")).toBe("one0;\ntwo");
  });

  it("removes other escapes and every other control character, \\r included", () => {
    expect(terminalText("a\x1bcb")).toBe("ab");
    expect(terminalText("a\x1b(Bb\x1b7c\x1b8")).toBe("abc");
    expect(terminalText("trailing\x1b")).toBe("trailing");
    expect(terminalText("a\x00b\x07c\x08d\x0be\x0cf\rg\x7fh\x85i\x9cj")).toBe("abcdefghij");
    expect(terminalText("line\r\nnext")).toBe("line\nnext");
  });

  it("leaves nothing a terminal would act on, whatever the input", () => {
    let all = "";
    for (let c = 0; c < 0xa0; c++) all += `${String.fromCharCode(c)}x`;
    const out = terminalText(all.repeat(3));
    const controls = [...out].filter((ch) => {
      const c = ch.charCodeAt(0);
      return (c < 0x20 && ch !== "\t" && ch !== "\n") || (c >= 0x7f && c < 0xa0);
    });
    expect(controls).toEqual([]);
  });
});
