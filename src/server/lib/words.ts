/**
 * Statements compared as sets of words (the requirement reader's repeats, the dedup pass, the re-plan
 * diff's matching): lower-cased, punctuation dropped, short function words left out.
 */
const STOP = new Set(
  "a an the and or to of for in on with by at from is are be it this that we our i you".split(" "),
);
/** The words of a statement, as a set. */
export function wordSet(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, " ")
      .split(/\s+/)
      .filter((w) => w && !STOP.has(w)),
  );
}

/** Token-set Jaccard similarity of two word sets (0 to 1). */
export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / (a.size + b.size - common);
}

/** Near-identical statements: same words, give or take one in five (token-set Jaccard >= 0.8). */
export const NEAR_DUPLICATE = 0.8;
