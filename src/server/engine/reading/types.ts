/**
 * What the requirement reader gives (requirements.ts, kind.ts) and the planners take (planners/contract.ts):
 * the types alone, in a file of their own that imports nothing, so the reader's modules and the planner
 * contract can each name them without importing one another.
 */

export type WorkKind =
  | "product"
  | "feature"
  | "bug"
  | "performance"
  | "migration"
  | "infrastructure"
  | "data"
  | "spike";

export type KindReading = { id: WorkKind; label: string; because: string[] };

export type Requirement = {
  /** "R1", "R2", ... in the order the text states them. */
  id: string;
  /** The user's words, whitespace collapsed, list markers removed. */
  text: string;
  /** The heading the item sits under, if any. */
  section: string | null;
  /** Who the requirement is for, when it names one ("users can ...", "as an admin I ..."). */
  actor: string | null;
  /** What that actor does, in the user's words ("export invoices as CSV"). */
  action: string | null;
  /** "so that ..." when stated. */
  benefit: string | null;
  /** The whole sentence, when this requirement is one item of a list written inside it. */
  statedIn: string | null;
  /** Its step in a stated sequence (`StatedScope.sequences`); the items of one sentence share a step. */
  step?: number;
};

export type StatedScope = {
  /** The title line, when the text has one (a `#` heading, or a short first line). */
  title: string | null;
  requirements: Requirement[];
  nonGoals: string[];
  /** Background statements, rationale and remarks: shown to planners as context, never planned as work. */
  context: string[];
  /** Questions the text asks. */
  questions: string[];
  /** Acceptance criteria, a definition of done, expected behaviour: checks of the work, not more work. */
  criteria: string[];
  /** Rules the work must keep ("No secrets in version control", "never email more than once a day"). */
  constraints: string[];
  /** Checklist items marked done. */
  done: string[];
  /** Steps to reproduce, and what was observed (a bug report). */
  reproduction: string[];
  observed: string[];
  /** Requirement ids stated in an order ("1. ... 2. ...", "first ..., then ..."), each list in that order. */
  sequences: string[][];
  /** What the listed features belong to ("A web shop for handmade candles"), when the text says. */
  subject: string | null;
};
