/**
 * The one door to the NLP library (decision 034). Everything else in the reader asks this module for
 * sentences, tokens with their part of speech and root, and noun phrases, so the library can be swapped
 * without touching the readers. compromise was chosen over wink-nlp: it tags the imperative first word of a
 * requirement ("Export invoices as CSV") as a verb where wink-nlp read it as a proper noun, and it ends a
 * sentence at a line break, which markdown lists and issue templates need. Server only: the client never
 * imports it (tests/unit/architecture.test.ts keeps server code out of the client bundle).
 */
import nlp from "compromise";

/** Coarse parts of speech, the Universal Dependencies tag names. */
export type Pos =
  | "VERB"
  | "AUX"
  | "NOUN"
  | "PROPN"
  | "ADJ"
  | "ADV"
  | "ADP"
  | "DET"
  | "PRON"
  | "CCONJ"
  | "NUM"
  | "X";

export type Token = {
  /** The word as written, without surrounding punctuation. */
  text: string;
  /** Lowercased, punctuation-free form. */
  normal: string;
  /** The dictionary form ("invoices" -> "invoice", "exported" -> "export"); `normal` when none is known. */
  lemma: string;
  pos: Pos;
  /** True when the library reads the word as either a noun or a verb ("track", "export"). */
  nounOrVerb: boolean;
  /** Punctuation written right before and after the word. */
  pre: string;
  post: string;
};

export type AnalysedSentence = { text: string; tokens: Token[]; nounPhrases: string[] };

type Term = {
  text: string;
  pre: string;
  post: string;
  tags: string[];
  normal: string;
  root?: string;
  chunk?: string;
  switch?: string;
};

function posOf(tags: readonly string[]): Pos {
  const has = (t: string) => tags.includes(t);
  if (has("Determiner")) return "DET";
  if (has("Preposition")) return "ADP";
  if (has("Conjunction")) return "CCONJ";
  if (has("Pronoun")) return "PRON";
  if (has("Modal") || has("Auxiliary") || has("Copula")) return "AUX";
  if (has("Value") || has("Cardinal") || has("NumericValue")) return "NUM";
  if (has("Verb")) return "VERB";
  if (has("ProperNoun")) return "PROPN";
  if (has("Adjective")) return "ADJ";
  if (has("Adverb")) return "ADV";
  if (has("Noun")) return "NOUN";
  return "X";
}

function tokenOf(t: Term): Token {
  const normal = t.normal || t.text.toLowerCase();
  return {
    text: t.text,
    normal,
    lemma: (t.root || normal).toLowerCase(),
    pos: posOf(t.tags),
    nounOrVerb: t.switch === "Noun|Verb" || t.switch === "Plural|Verb",
    pre: t.pre,
    post: t.post,
  };
}

function chunkPhrases(terms: readonly Term[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const t of terms) {
    if (t.chunk === "Noun" && t.text) run.push(t.text);
    if (t.chunk !== "Noun" || /[,.;:!?)]/.test(t.post)) {
      if (run.length > 0) out.push(run.join(" "));
      run = [];
    }
  }
  if (run.length > 0) out.push(run.join(" "));
  return out;
}

/** Sentences of a text, each with its tokens and noun phrases. A line break ends a sentence. */
export function analyse(text: string): AnalysedSentence[] {
  const doc = nlp(text);
  doc.compute("root");
  // `root` is filled by compute("root"); the option's type in compromise's typings does not list it.
  const options = { terms: { normal: true, root: true, tags: true } } as Parameters<typeof doc.json>[0];
  const sentences = doc.json(options) as {
    text: string;
    terms: Term[];
  }[];
  return sentences
    .map((s) => ({
      text: s.text.trim(),
      tokens: s.terms.filter((t) => t.text !== "").map(tokenOf),
      nounPhrases: chunkPhrases(s.terms),
    }))
    .filter((s) => s.text !== "");
}

/** The sentences of a text, as written. */
export function sentencesOf(text: string): string[] {
  return analyse(text).map((s) => s.text);
}

/** The tokens of one sentence (of every sentence, in order, when the text holds several). */
export function tokensOf(sentence: string): Token[] {
  return analyse(sentence).flatMap((s) => s.tokens);
}

/** The noun phrases of a text ("the shared gallery", "CSV export"). */
export function nounPhrases(text: string): string[] {
  return analyse(text).flatMap((s) => s.nounPhrases);
}

/**
 * Whether a sentence's first verb is in the past ("We switched to a website", "It wasn't smooth sailing",
 * "PR #3110 tried moving to 4.1.7"): it tells what happened. A present passive ("files are stored") is not.
 */
export function opensInThePast(sentence: string): boolean {
  const doc = nlp(sentence);
  const [first] = doc.json({ terms: { tags: true } } as Parameters<typeof doc.json>[0]) as {
    terms: Term[];
  }[];
  const terms = first?.terms ?? [];
  const at = terms.findIndex((t) => t.tags.includes("Verb"));
  if (at <= 0) return false;
  const verb = terms[at]!;
  const before = terms.slice(0, at);
  // A subject before it ("We", "It", "None of us", "PR #3110", "Gus"), and nothing that makes the verb
  // part of a noun phrase ("a dashboard of overdue patients", "under 300 KB gzipped").
  const subject =
    before.some((t) => t.tags.includes("Pronoun")) ||
    /ProperNoun|Value|Acronym/.test(terms[at - 1]!.tags.join(" "));
  if (!subject || before.some((t) => t.tags.includes("Preposition") && !/^of$/i.test(t.text))) return false;
  return (
    verb.tags.includes("PastTense") ||
    /^(?:had|did|was|were|hadn'?t|didn'?t|wasn'?t|weren'?t)$/i.test(verb.text)
  );
}
