/**
 * Weak labels from the two annotated corpora, used at training time only (decision 034).
 *
 * - The project's corpus (tests/eval/corpus): `work_kind` labels the description; a sentence holding all
 *   the terms of a requirement is work, of a non-goal a non-goal, of a `not_work` entry not work. Its
 *   held-out cases (tests/eval/corpus/held-out) are never trained on.
 * - The external corpus (../shared/corpus, beside the repository): `kind` labels the description; a
 *   sentence matching a `leaf_title_mustnot` pattern is not work, one matching a feature's words is work.
 *   Its text never enters the repository: only weights and a fingerprint do. A third of it is held out:
 *   the 20 cases whose sha256(key) sorts lowest (tests/eval/external.ts), never trained on and never
 *   printed, only counted.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { WorkKind } from "../../src/server/engine/reading/types";
import { CORPUS, HELD_OUT_CASES } from "../eval/corpus/index";
import {
  EXPECTED_KIND,
  EXTERNAL_CORPUS_DIR,
  type ExternalCase,
  heldOutKeys,
  loadExternalCorpus,
  matchesGroup,
  matchesWord,
} from "../eval/external";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** ../shared/corpus beside the repository, as CI lays it out; ATOMIZE_EXTERNAL_CORPUS points elsewhere. */
export const EXTERNAL_DIR = process.env.ATOMIZE_EXTERNAL_CORPUS ?? EXTERNAL_CORPUS_DIR;

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A weakly labelled sentence: `work`, `non_goal`, or `not_work` (some role other than work, unknown which). */
export type WeakLabel = "work" | "non_goal" | "not_work";
export type WeakText = {
  id: string;
  kind: WorkKind | null;
  description: string;
  /** Labels a sentence of the description, or null when the annotation says nothing about it. */
  label: (sentence: string) => WeakLabel | null;
};

// ---- the project's corpus ---------------------------------------------------------------------------

export function projectCorpus(): { training: WeakText[]; heldOut: WeakText[] } {
  const heldOutIds = new Set(HELD_OUT_CASES.map((c) => c.id));
  const texts = [...CORPUS]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((c): WeakText => {
      const requirements = c.requirements.map((r) => r.match);
      const nonGoals = c.non_goals.map((n) => n.match);
      const notWork = (c.not_work ?? []).map((n) => n.match);
      // A sentence holds an annotation when it holds all its terms (whole-word prefixes, as the eval reads them).
      const hits = (groups: string[][], s: string) =>
        groups.some((g) => g.length > 0 && g.every((w) => matchesWord(s, w)));
      return {
        id: c.id,
        kind: c.work_kind ?? null,
        description: c.description,
        label: (s) =>
          hits(nonGoals, s)
            ? "non_goal"
            : hits(notWork, s)
              ? "not_work"
              : hits(requirements, s)
                ? "work"
                : null,
      };
    });
  return {
    training: texts.filter((t) => !heldOutIds.has(t.id)),
    heldOut: texts.filter((t) => heldOutIds.has(t.id)),
  };
}

// ---- the external corpus ----------------------------------------------------------------------------

/** The kind a corpus kind trains as: the first that tests/eval/external.ts accepts for it. */
const kindOfExternal = (kind: string): WorkKind | null => EXPECTED_KIND[kind]?.[0] ?? null;

/** Null when ../shared/corpus is not there (training then goes on without it). */
export function externalCorpus(dir = EXTERNAL_DIR): { training: WeakText[]; heldOut: WeakText[] } | null {
  if (!existsSync(dir)) return null;
  const cases = loadExternalCorpus(dir);
  const heldOut = heldOutKeys(cases);
  const toText = (c: ExternalCase): WeakText => {
    const mustNot = c.leaf_title_mustnot.map((re) => new RegExp(re, "i"));
    return {
      id: c.key,
      kind: kindOfExternal(c.kind),
      description: c.description,
      label: (s) => {
        const bare = s.replace(/^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+|#+\s+)/, "").replace(/\*\*/g, "");
        if (mustNot.some((re) => re.test(bare) || re.test(s))) return "not_work";
        return c.features.some((g) => matchesGroup(s, g)) ? "work" : null;
      },
    };
  };
  return {
    training: cases.filter((c) => !heldOut.has(c.key)).map(toText),
    heldOut: cases.filter((c) => heldOut.has(c.key)).map(toText),
  };
}
