/**
 * The features the learned reader weighs (decision 034): sparse, named, binary. A sentence is described
 * by its words' roots, their pairs, the parts of speech it starts with, its shape (list item, heading,
 * code, key: value field) and its setting (the section heading's words, where it stands, what came
 * before). A whole description is described by the roots and pairs of its text and of its first line.
 * The same functions feed the trainer (tests/reader-training/) and the reader, so the two never drift.
 */
import { analyse, type Token } from "./nlp";

/** One sentence and its setting, as the role classifier reads it. */
export type SentenceInput = {
  text: string;
  /** The text of the section heading the sentence sits under, if any. */
  heading?: string | null;
  /** True when the sentence is (or starts) a list item. */
  listItem?: boolean;
  /** Where the sentence stands in the description: 0 first, 1 last. */
  position?: number;
  /** The sentence before it, if any. */
  previous?: string | null;
  /** True inside a fenced code block. */
  inCode?: boolean;
  /** True when the layout makes the line a heading (learned-units.ts); read from the text alone when absent. */
  headingLine?: boolean;
  /** Tokens from nlp.ts when the caller already has them (reading a whole description at once is faster). */
  tokens?: Token[];
};

const LIST_MARKER = /^\s*(?:[-*+•]\s+(?:\[[ xX]\]\s*)?|\d{1,3}[.)]\s+|[a-z][.)]\s+|\[[ xX]\]\s+)/;
const MD_HEADING = /^\s*#{1,6}\s+\S/;
const BOLD_LINE = /^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)\s*:?\s*$/;
const URL = /\bhttps?:\/\/|\bwww\.|\b[\w-]+\.(?:com|org|io|dev|net)\b/i;
const VERSION = /\bv?\d+\.\d+(?:\.\d+)?\b|\bversion\b/i;
const LOG_LINE =
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d|^\s*(?:at\s+[\w.$]+\(|Traceback|[A-Z]\w+(?:Error|Exception)\b)|\b(?:ERROR|WARN|INFO|DEBUG)\b/;
const NEGATION = /\b(?:not|no|never|without|n't|nor)\b|n't\b/i;
const EMOJI = /\p{Extended_Pictographic}/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*/gu;

export function isListLine(line: string): boolean {
  return LIST_MARKER.test(line);
}

/** A line that names a section: "# Goals", "**Describe the bug**", "Non-goals:", "Out of scope". */
export function isHeadingLine(line: string, nextLine: string | null): boolean {
  const t = line.trim();
  if (MD_HEADING.test(t) || BOLD_LINE.test(t)) return true;
  if (t === "" || LIST_MARKER.test(t) || t.length > 80 || URL.test(t)) return false;
  const words = t.split(/\s+/).length;
  if (/:$/.test(t) && words <= 8) return true;
  return (
    words <= 5 &&
    !/[.!?,;:)]$/.test(t) &&
    /^[\p{Lu}\d]/u.test(t) &&
    nextLine !== null &&
    nextLine.trim() !== ""
  );
}

/** The words of a heading, lowercased, without markdown. */
export function headingWords(heading: string): string[] {
  return [...heading.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/[.'’-]+$/, ""));
}

function shapeOf(word: string): string {
  if (/^\d/.test(word)) return "d";
  if (/^[\p{Lu}]+$/u.test(word) && word.length > 1) return "X";
  if (/^\p{Lu}/u.test(word)) return "Xx";
  if (/^\p{Ll}/u.test(word)) return "x";
  return "sym";
}

function lengthBucket(n: number): string {
  if (n <= 1) return "1";
  if (n <= 3) return "2-3";
  if (n <= 7) return "4-7";
  if (n <= 15) return "8-15";
  return "16+";
}

const KEPT_POS = new Set([
  "VERB",
  "AUX",
  "NOUN",
  "PROPN",
  "ADJ",
  "ADV",
  "ADP",
  "DET",
  "PRON",
  "CCONJ",
  "NUM",
]);

/** The features of one sentence in its setting. */
export function sentenceFeatures(input: SentenceInput): string[] {
  const text = input.text.trim();
  const tokens = input.tokens ?? analyse(text).flatMap((s) => s.tokens);
  const f = new Set<string>(["bias"]);
  const lemmas = tokens.map((t) => t.lemma).filter((l) => l !== "");
  for (const l of lemmas) f.add(`l:${l}`);
  for (let i = 0; i + 1 < lemmas.length; i++) f.add(`b:${lemmas[i]}_${lemmas[i + 1]}`);
  const [t0, t1, t2] = tokens;
  if (t0) {
    f.add(`f:${t0.lemma}`);
    f.add(`p0:${t0.pos}`);
    f.add(`shape:${shapeOf(t0.text)}`);
    if (t0.pos === "VERB" || (t0.nounOrVerb && t1 && t1.pos !== "AUX" && t1.pos !== "VERB"))
      f.add("imperative");
    if (t1) f.add(`p01:${t0.pos}_${t1.pos}`);
    if (t1 && t2) f.add(`p012:${t0.pos}_${t1.pos}_${t2.pos}`);
  }
  if (t1) f.add(`p1:${t1.pos}`);
  for (const t of tokens.slice(0, 4)) {
    if (t.pos === "AUX") f.add(`aux:${t.lemma}`);
    if (t.pos === "PRON") f.add(`pron:${t.lemma}`);
  }
  const posSeen = new Set(tokens.map((t) => t.pos).filter((p) => KEPT_POS.has(p)));
  for (const p of posSeen) f.add(`has:${p}`);
  if (!posSeen.has("VERB") && !posSeen.has("AUX")) f.add("verbless");

  if (input.listItem ?? LIST_MARKER.test(text)) f.add("list");
  if (/^\s*\d{1,3}[.)]\s/.test(text)) f.add("list:numbered");
  if (/^\s*[-*]\s+\[[ xX]\]/.test(text)) f.add("list:checkbox");
  if (input.headingLine ?? isHeadingLine(text, null)) f.add("layout:heading");
  if (MD_HEADING.test(text)) f.add("md-heading");
  if (BOLD_LINE.test(text)) f.add("bold-line");
  if (/:\s*$/.test(text)) f.add("ends:colon");
  const kv = /^\s*(?:[-*]\s+)?([^:]{1,40}):\s*(\S.*)$/.exec(text);
  if (kv) {
    f.add("key-value");
    const key = headingWords(kv[1]!)[0];
    if (key) f.add(`key:${key}`);
    f.add(`key-words:${lengthBucket(kv[1]!.trim().split(/\s+/).length)}`);
    if (kv[2]!.split(",").length >= 3) f.add("value-list");
  }
  if (/[.]\s*$/.test(text)) f.add("ends:period");
  if (/\?\s*\)?\s*$/.test(text)) f.add("ends:question");
  else if (text.includes("?")) f.add("has:question");
  if (text.includes("!")) f.add("has:exclamation");
  if (/`/.test(text) || input.inCode) f.add("code");
  if (input.inCode) f.add("in-code-block");
  if (/^\s*\|.*\|\s*$/.test(text)) f.add(/^[\s|:-]+$/.test(text) ? "table-separator" : "table-row");
  if (LOG_LINE.test(text)) f.add("log-line");
  if (URL.test(text)) f.add("has:url");
  if (VERSION.test(text)) f.add("has:version");
  if (/\d/.test(text)) f.add("has:number");
  // Measurable targets and Given/When/Then: the shape of acceptance criteria and limits.
  if (
    /\b(?:under|below|above|within|at least|at most|less than|more than|fewer than|p\d\d)\s*[$€£]?\d|[<>≤≥]\s*\d/i.test(
      text,
    )
  ) {
    f.add("has:target");
  }
  if (/\d\s*%/.test(text)) f.add("has:percent");
  if (/\d\s*(?:ms|s|sec|seconds?|minutes?|min|hours?|h|days?|weeks?)\b/i.test(text)) f.add("has:duration");
  if (
    /^(?:[-*]\s+(?:\[[ xX]\]\s*)?)?(?:given|when|then)\b/i.test(text) ||
    /\bthen\b.*\b(?:is|are|shows?|gets?|appears?)\b/i.test(text)
  ) {
    f.add("given-when-then");
  }
  if (/#\d+\b|@\w+/.test(text)) f.add("has:reference");
  if (EMOJI.test(text)) f.add("has:emoji");
  if (NEGATION.test(text)) f.add("negation");
  if (/\b[A-Z]{3,}\b/.test(text.replace(/\b(?:CSV|PDF|API|SQL|SSO|URL|JSON|HTML|CSS|SMS|AWS|GDPR)\b/g, ""))) {
    f.add("has:shouting");
  }
  if (/^\p{Ll}/u.test(text.replace(LIST_MARKER, ""))) f.add("starts:lowercase");
  f.add(`len:${lengthBucket(tokens.length)}`);

  // A missing setting (undefined) says nothing; an empty one (null) says "first" or "before any heading".
  if (input.heading) {
    const words = headingWords(input.heading);
    for (const w of words) f.add(`h:${w}`);
    // Its word pairs tell "Out of scope" from "Scope", "Nice to have" from "Have".
    for (let i = 1; i < words.length; i++) f.add(`h2:${words[i - 1]}_${words[i]}`);
    // "It must NOT use:", "Not in scope": a list under a negated heading is limits or non-goals.
    if (NEGATION.test(input.heading)) f.add("h:negated");
  } else if (input.heading === null) f.add("h:none");
  const pos = input.position;
  if (pos !== undefined)
    f.add(pos === 0 ? "at:first" : pos >= 1 ? "at:last" : `at:${Math.min(3, Math.floor(pos * 4))}`);
  const prev = input.previous?.trim();
  if (input.previous === null) f.add("prev:none");
  else if (prev) {
    if (/:\s*$/.test(prev)) f.add("prev:colon");
    if (/\?\s*$/.test(prev)) f.add("prev:question");
    if (LIST_MARKER.test(prev)) f.add("prev:list");
    const first = headingWords(prev.replace(LIST_MARKER, ""))[0];
    if (first) f.add(`prev-first:${first}`);
  }
  return [...f];
}

/** The features of a whole description, for the kind of work. */
export function descriptionFeatures(text: string): string[] {
  const sentences = analyse(text);
  const f = new Set<string>(["bias"]);
  sentences.forEach((s, i) => {
    const lemmas = s.tokens.map((t) => t.lemma).filter((l) => l !== "" && /[\p{L}]/u.test(l));
    for (const l of lemmas) f.add(`l:${l}`);
    for (let j = 0; j + 1 < lemmas.length; j++) f.add(`b:${lemmas[j]}_${lemmas[j + 1]}`);
    if (i === 0) {
      for (const l of lemmas) f.add(`t:${l}`);
      const t0 = s.tokens[0];
      if (t0) f.add(`t-first:${t0.lemma}`);
    }
  });
  for (const line of text.split("\n"))
    if (MD_HEADING.test(line) || BOLD_LINE.test(line)) f.add("md-headings");
  if (LOG_LINE.test(text)) f.add("log-line");
  if (VERSION.test(text)) f.add("has:version");
  if (/```/.test(text)) f.add("code-fence");
  const words = text.split(/\s+/).length;
  f.add(`words:${words < 25 ? "s" : words < 120 ? "m" : words < 400 ? "l" : "xl"}`);
  return [...f];
}
