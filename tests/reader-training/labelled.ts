/**
 * The labelled descriptions of tests/reader-training/texts/*.txt, written for this project (decision 034).
 * A text starts with "### id | kind"; each line after it is one sentence: a role code, then "|" for a new
 * line of the text or ">" for a sentence continuing the line before. The text is rebuilt from them, so
 * the reader sees the same layout (lists, headings, paragraphs) a user would type.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SentenceRole } from "../../src/server/engine/reading/learned";
import {
  isHeadingLine,
  isListLine,
  type SentenceInput,
} from "../../src/server/engine/reading/learned-features";
import type { WorkKind } from "../../src/server/engine/reading/types";

export const TEXTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "texts");

const ROLE_CODES: Record<string, SentenceRole> = {
  w: "work",
  c: "context",
  n: "non_goal",
  k: "constraint",
  a: "criterion",
  q: "question",
  h: "heading",
  m: "metadata",
};

export type LabelledSentence = SentenceInput & { text: string; role: SentenceRole };
export type LabelledText = { id: string; kind: WorkKind; text: string; sentences: LabelledSentence[] };

/** The raw files, sorted by name (their contents feed the weights' fingerprint). */
export function textFiles(dir = TEXTS_DIR): { name: string; content: string }[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".txt"))
    .sort()
    .map((name) => ({ name, content: readFileSync(path.join(dir, name), "utf8") }));
}

export function parseLabelled(content: string, file = "?"): LabelledText[] {
  const texts: { id: string; kind: WorkKind; lines: { role: SentenceRole; text: string }[][] }[] = [];
  for (const [i, raw] of content.split("\n").entries()) {
    const head = /^###\s+(\S+)\s*\|\s*(\w+)\s*$/.exec(raw);
    if (head) {
      texts.push({ id: head[1]!, kind: head[2] as WorkKind, lines: [] });
      continue;
    }
    if (raw.trim() === "" || raw.startsWith("#")) continue;
    const m = /^([a-z])([|>]) ?(.*)$/.exec(raw);
    const role = m ? ROLE_CODES[m[1]!] : undefined;
    const current = texts.at(-1);
    if (!m || !role || !current) throw new Error(`${file}:${i + 1}: not a labelled sentence: ${raw}`);
    const sentence = { role, text: m[3]!.trim() };
    if (m[2] === ">" && current.lines.length > 0) current.lines.at(-1)!.push(sentence);
    else current.lines.push([sentence]);
  }
  return texts.map(({ id, kind, lines }) => {
    const joined = lines.map((l) => l.map((s) => s.text).join(" "));
    const flat: Omit<LabelledSentence, "position" | "previous">[] = [];
    let heading: string | null = null;
    let inCode = false;
    joined.forEach((line, i) => {
      // As learned-units.ts reads a description: a fence and the lines inside it are code, nothing else.
      const fence = /^\s*(?:```|~~~)/.test(line);
      const code = fence || inCode;
      if (fence) inCode = !inCode;
      const isHeading = !code && isHeadingLine(line, joined[i + 1] ?? null);
      lines[i]!.forEach((s, j) => {
        flat.push({
          ...s,
          heading,
          listItem: !code && j === 0 && isListLine(line),
          headingLine: j === 0 && isHeading,
          inCode: code,
        });
      });
      if (isHeading) heading = line;
    });
    const sentences = flat.map((s, i) => ({
      ...s,
      position: flat.length > 1 ? i / (flat.length - 1) : 0,
      previous: i > 0 ? flat[i - 1]!.text : null,
    }));
    return { id, kind, text: joined.join("\n"), sentences };
  });
}

export function loadLabelled(dir = TEXTS_DIR): LabelledText[] {
  return textFiles(dir).flatMap((f) => parseLabelled(f.content, f.name));
}
