/**
 * The first pass of reading a description (decision 014, issue 28): lines into blocks, before any
 * sentence is judged. Markup that is never work is set aside here: fenced code, tables, box-drawing
 * wireframes, HTML comments and tags, images, and lines that are only a link. Headings (markdown, bold,
 * "Label:", setext, and short title-like lines), list items in every common marker style (with their
 * checkbox state and whether the list is numbered) and prose paragraphs are told apart.
 */

export type Block = (
  | { type: "heading"; text: string; level: number; rest: string; line: number }
  | {
      type: "item";
      text: string;
      /** Items of one list share an id; a blank line or other text ends a list. */
      list: number;
      /** Numbered ("1.", "2)", "3-", "(a)", "Step 1:"): the list may state an order. */
      numbered: boolean;
      /** "[x]" (done), "[ ]" (open), or no checkbox. */
      checked: boolean | null;
      indent: number;
      line: number;
      /** "**Music player** - plays music from ...": the name the item gives itself, before what it says of it. */
      name?: string;
    }
  | { type: "prose"; text: string; line: number }
  /** Set aside: code, a table, a drawing, a quotation or a bare link. `text` keeps its words for context. */
  | { type: "aside"; what: "code" | "table" | "drawing" | "quote" | "link"; text: string; line: number }
) & {
  /** A blank line (or the start of the text) comes right before it. */
  gap?: boolean;
};

const FENCE = /^\s*(```+|~~~+)/;
/** Box-drawing and block characters, arrows used in wireframes. */
const DRAWING_CHARS = /[\u2500-\u259F]/;
/** An ASCII wireframe line: mostly frame characters (+---+, |   |, [____]). */
const ASCII_FRAME = /^[\s+|\-=_*#[\]<>/\\.:~^v]{4,}$|^\s*[+|][\s\S]*[+|]\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const URL = /(?:https?:\/\/|www\.)\S+/gi;

/**
 * Every list-marker style people write: "-", "*", "+", "•", "·", "◦", "▪", "–", "—", "→", "➤", "►",
 * "✓", "✔", "✅", "☐", "☑", "❌"; numbers "1.", "1)", "(1)", "1-", "1 -", "1:", "#1", "1/"; letters and
 * roman numerals "a.", "a)", "(a)", "iv."; "Step 1:", "Phase 2 -"; a GitHub checkbox after any of them.
 */
const SYMBOL_MARKER = /^([-*+•·◦▪▫‣⁃–—→➤►▶✓✔✅☐☑☒❌✗✘]|->|=>)\s+/u;
const NUMBER_MARKER =
  /^(?:(?:step|phase|stage|part|milestone)\s+\d{1,2}\s*[:.)-]\s*|\(?\d{1,3}\s*[.)/:]\s+|\(\d{1,3}\)\s*|\d{1,3}\s*[-–—]\s+|#\d{1,3}\s+|\(?[a-hj-z][.)]\s+|\([a-hj-z]\)\s*|\(?(?:i{1,3}|iv|v|vi{1,3}|ix|x)[.)]\s+|\((?:i{1,3}|iv|v|vi{1,3}|ix|x)\)\s*)/i;
/** The line that opens a reply in an issue's thread. */
const COMMENT_HEADER =
  /^(?:\*\*|@)?[\w.-]{2,39}(?:\*\*)?\s+(?:·\s+comment(?:ed)?(?:\s+·\s+.{1,40})?|commented(?:\s+on\s+.{1,40})?:?)$/i;
const CHECKBOX = /^\[([ xX✓✔]?)\]\s*/u;
const EMOJI_BULLET = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}{2})(?:\uFE0F)?\s+/u;

/** A line's list marker: what it says of the item, and the item's text; null when it is no item. */
export function listMarker(
  line: string,
): { text: string; numbered: boolean; checked: boolean | null } | null {
  let rest = line.trimStart();
  let numbered = false;
  let marked = false;
  const symbol = rest.match(SYMBOL_MARKER);
  if (symbol) {
    rest = rest.slice(symbol[0].length);
    marked = true;
    // ✓ ✔ ✅ ☑ as bullets say the item is done.
    if (/^[✓✔✅☑☒]$/u.test(symbol[1]!)) return { text: rest.trim(), numbered: false, checked: true };
    if (/^[☐]$/u.test(symbol[1]!)) return { text: rest.trim(), numbered: false, checked: false };
  } else {
    const number = rest.match(NUMBER_MARKER);
    // "a. b." inside a sentence is rare at a line's start; a letter marker needs text after it.
    if (number && rest.length > number[0].length + 1) {
      rest = rest.slice(number[0].length);
      numbered = true;
      marked = true;
    } else {
      const emoji = rest.match(EMOJI_BULLET);
      if (emoji && rest.length > emoji[0].length + 2) {
        rest = rest.slice(emoji[0].length);
        marked = true;
      }
    }
  }
  const box = rest.match(CHECKBOX);
  if (box) {
    return { text: rest.slice(box[0].length).trim(), numbered, checked: box[1]!.trim() !== "" };
  }
  // "- ✅ Sending messages": a done mark after the list marker says the same as one in its place.
  if (marked && /^[✓✔✅☑]\uFE0F?\s+\S/u.test(rest))
    return { text: rest.replace(/^[✓✔✅☑]\uFE0F?\s+/u, "").trim(), numbered, checked: true };
  // "~~Accurate scheduling~~": an item struck through is done, or dropped; either way not to plan.
  if (marked && /^~~[^~].*~~[.!]?$/.test(rest.trim()) && !/~~.*~~.*~~/.test(rest.trim()))
    return { text: rest.trim().replace(/~~/g, ""), numbered, checked: true };
  // "Handle errors / ~~logging~~": the part struck through is done or dropped; the rest is still asked.
  const struck = rest.replace(/\s*(?:[/,;&+|]|\band\b)?\s*~~[^~]+~~/g, "").trim();
  return marked
    ? { text: struck && struck !== rest.trim() ? struck : rest.trim(), numbered, checked: null }
    : null;
}

/** A line's heading: markdown "#", a bold line, or setext (checked by the caller); null otherwise. */
function markdownHeading(line: string): { text: string; level: number; rest: string } | null {
  const md = line.match(/^(#{1,6})\s+(.+?)\s*#*\s*$/);
  if (md) return { text: stripInline(md[2]!), level: md[1]!.length, rest: "" };
  const bold = line.match(/^(?:\*\*|__)([^*_]{1,80}?)(?:\*\*|__)\s*:?\s*(.*)$/);
  if (bold && (bold[2] === "" || /:\s*$/.test(bold[1]!) || /(\*\*|__)\s*:/.test(line)))
    return { text: stripInline(bold[1]!.replace(/:\s*$/, "")), level: 3, rest: stripInline(bold[2] ?? "") };
  return null;
}

/** Inline markdown that is only formatting: emphasis, code ticks, links (their text kept), images, tags. */
export function stripInline(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]+)\]\((?:[^)]*)\)/g, "$1")
    .replace(/<\/?[a-z][^>]*>/gi, " ")
    .replace(/\[tasklist\]/gi, " ")
    .replace(/\*\*|__|`/g, "")
    .replace(/(^|\s)[*_](\S[^*_]*\S|\S)[*_](?=\s|[.,;:!?]|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** A line that is only a link, or a pointer to one ("Source code at https://…", "Demo: <url>"). */
export function isLinkLine(text: string): boolean {
  if (!URL.test(text)) return false;
  URL.lastIndex = 0;
  const words = text
    .replace(URL, " ")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  URL.lastIndex = 0;
  return (
    words.length <= 2 ||
    (words.length <= 8 &&
      /^(see|source|code|repo|repository|link|links|docs?|documentation|demo|video|live|website|site|more|details|details here|reference|ref|spec|design|figma|mockups?|screenshots?|issue|pr|related|via|from|based on|inspired by)\b/i.test(
        words.join(" "),
      ))
  );
}

function isTableLine(line: string): boolean {
  const pipes = (line.match(/\|/g) ?? []).length;
  return TABLE_SEPARATOR.test(line) || (pipes >= 2 && /^\s*\|/.test(line)) || pipes >= 3;
}

/** A line of code: SQL in capitals, a declaration, a comment marker, or a line ending as code does. */
function isCodeLine(line: string): boolean {
  if (line === "") return false;
  return (
    /^(?:CREATE|INSERT|SELECT|UPDATE|DELETE FROM|ALTER|DROP|BEGIN|END|RETURNS?|DECLARE|VALUES|WHERE|FROM|JOIN|GROUP BY|ORDER BY|LANGUAGE)\b/.test(
      line,
    ) ||
    /^[A-Za-z_]\w*\s+(?:VARCHAR|CHAR|INT|INTEGER|BIGINT|SMALLINT|SERIAL|BIGSERIAL|TEXT|BOOLEAN|BOOL|DATE|TIMESTAMP(?:TZ)?|NUMERIC|DECIMAL|REAL|FLOAT|UUID|JSONB?)\b/i.test(
      line,
    ) ||
    /^(?:def|class|import|from\s+\S+\s+import|function|const|let|var|public|private|protected|static|#include|package|func|fn|impl|return)\s/.test(
      line,
    ) ||
    /^(?:--|\/\/|\/\*|\*\/)/.test(line) ||
    /^[)}\]];?,?$|^\);$/.test(line) ||
    (/(?:\)\s*;|\{|;)$/.test(line) && /[=(){};]/.test(line.slice(0, -1)))
  );
}

function isDrawing(line: string): boolean {
  if (DRAWING_CHARS.test(line)) return true;
  const letters = (line.match(/[\p{L}\p{N}]/gu) ?? []).length;
  return ASCII_FRAME.test(line) && letters <= Math.max(2, line.trim().length * 0.4);
}

/** Reads the text into blocks. */
export function readBlocks(text: string): Block[] {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\u200B-\u200D\uFEFF]/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .split("\n");
  const out: Block[] = [];
  let blank = true;
  const push = (block: Block) => {
    out.push({ ...block, gap: blank });
    blank = false;
  };
  let list = 0;
  let inList = false;
  let paragraph: { text: string[]; line: number } | null = null;
  const flush = () => {
    if (paragraph) push({ type: "prose", text: stripInline(paragraph.text.join(" ")), line: paragraph.line });
    paragraph = null;
  };
  const aside = (what: Extract<Block, { type: "aside" }>["what"], body: string, line: number) => {
    flush();
    inList = false;
    push({ type: "aside", what, text: body, line });
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (line === "") {
      flush();
      inList = false;
      blank = true;
      continue;
    }
    // Fenced code: everything to the closing fence.
    const fence = raw.match(FENCE);
    if (fence) {
      const close = fence[1]!.slice(0, 3);
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(close); i++) body.push(lines[i]!);
      aside("code", body.join("\n"), i);
      continue;
    }
    if (isTableLine(line)) {
      const body = [line];
      while (i + 1 < lines.length && isTableLine(lines[i + 1]!.trim())) body.push(lines[++i]!.trim());
      if (body.length >= 2 || TABLE_SEPARATOR.test(line)) {
        aside("table", body.join("\n"), i);
        continue;
      }
    }
    // Code pasted without a fence (SQL, a function): two or more lines of it are code.
    if (isCodeLine(line) && i + 1 < lines.length && isCodeLine(lines[i + 1]!.trim())) {
      const body = [line];
      while (i + 1 < lines.length && (isCodeLine(lines[i + 1]!.trim()) || lines[i + 1]!.trim() === "")) {
        if (lines[i + 1]!.trim() === "" && !isCodeLine(lines[i + 2]?.trim() ?? "")) break;
        body.push(lines[++i]!);
      }
      aside("code", body.join("\n"), i);
      continue;
    }
    if (isDrawing(line)) {
      aside("drawing", line, i);
      continue;
    }
    if (/^>/.test(line)) {
      aside("quote", stripInline(line.replace(/^>+\s?/, "")), i);
      continue;
    }
    if (/^[-=*_]{3,}$/.test(line)) {
      flush();
      inList = false;
      continue;
    }
    // Setext: a line underlined with === or ---.
    const next = lines[i + 1]?.trim() ?? "";
    if (/^(=+|-+)$/.test(next) && next.length >= 3 && !listMarker(line)) {
      flush();
      inList = false;
      push({
        type: "heading",
        text: stripInline(line),
        level: next.startsWith("=") ? 1 : 2,
        rest: "",
        line: i,
      });
      i++;
      continue;
    }
    // "maria · comment · 2015-03-02", "**sam** commented on 3 Mar": a reply in an issue's thread.
    if (COMMENT_HEADER.test(line)) {
      flush();
      inList = false;
      push({ type: "heading", text: "Comment", level: 4, rest: "", line: i });
      continue;
    }
    const heading = markdownHeading(line);
    if (heading) {
      flush();
      inList = false;
      push({ type: "heading", ...heading, line: i });
      continue;
    }
    const marker = listMarker(raw);
    if (marker) {
      flush();
      if (!inList) list++;
      inList = true;
      let item = marker.text;
      // A wrapped item continues on indented lines that are not items themselves.
      while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]!) && !listMarker(lines[i + 1]!)) {
        item += ` ${lines[++i]!.trim()}`;
      }
      const indent = raw.length - raw.trimStart().length;
      const textOf = stripInline(item);
      // "**Name** - what it does", "**Name:** what it does": the item names a feature, then describes it.
      const named = item.match(
        /^(?:\*\*|__)([^*_]{2,60}?)(?:\*\*|__)\s*(?:[-–—:]|(?<=:(?:\*\*|__)))\s*(\S.*)$/,
      );
      const name = named ? stripInline(named[1]!).replace(/[:\s]+$/, "") : undefined;
      if (isLinkLine(textOf)) {
        push({ type: "aside", what: "link", text: textOf, line: i });
        continue;
      }
      push({
        type: "item",
        text: textOf,
        list,
        numbered: marker.numbered,
        checked: marker.checked,
        indent,
        line: i,
        ...(name ? { name } : {}),
      });
      continue;
    }
    const plain = stripInline(line);
    if (!plain) continue;
    if (isLinkLine(plain)) {
      aside("link", plain, i);
      continue;
    }
    inList = false;
    // Prose: a long line without an ending continues on the next (hard-wrapped text); short lines stand alone.
    if (!paragraph) paragraph = { text: [], line: i };
    paragraph.text.push(line);
    if (/[.!?:]$/.test(line) || line.length < 60) flush();
  }
  flush();
  return out;
}
