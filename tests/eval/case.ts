import { READING_KINDS } from "../../src/shared/schemas/reading";

/** One annotated project description of the planning-quality corpus (tests/eval/corpus/). */
export type EvalCase = {
  id: string;
  /** A free description of the case ("chat bot (discord.js)"); `work_kind` is what the plan is judged by. */
  kind: string;
  description: string;
  /** Optional catalogue choices (src/shared/catalogue.ts), as the create-task form sends them. */
  application_type?: string;
  tech_stack_id?: string;
  additional_requirements?: string;
  /** For change-to-existing cases: what the linked repository's summary would say. */
  repository_summary?: string;
  /**
   * Every requirement the text states. `match`: a node covers it when its text contains ALL these terms
   * (case-insensitive, whole-word prefix match, so "export" matches "exports"). Terms are the user's own
   * words, the ones any faithful plan would use.
   */
  requirements: { id: string; text: string; match: string[] }[];
  /** Technologies the text names (ids of tests/eval/technologies.ts). */
  technologies: string[];
  /**
   * Explicit non-goals; planned as work when a non-root node's TITLE contains all `match` terms. They are
   * also expected among the plan's stated non-goals (a non-goal read as one, and shown).
   */
  non_goals: { text: string; match: string[] }[];

  // ---- issue 28: how an engineer reads the text ------------------------------------------------------

  /** The kind of work an engineer would plan this as (see WORK_KINDS). */
  work_kind?: WorkKindId;
  /**
   * Text that is not work: the title, headings, questions, rationale, narrative, asides, links, code,
   * tables, reproduction steps, done checklist items... No leaf's TITLE may contain all `match` terms.
   * Pick terms that only that text would produce (a leaf quoting a real requirement must not match).
   */
  not_work?: { text: string; match: string[] }[];
  /**
   * Requirements stated together (one sentence, one comma list) that are separate features: no single
   * leaf's TITLE may match two of the listed requirement ids (their `match` terms).
   */
  separate?: string[][];
  /**
   * Stated sequences: each list is requirement ids in the order the text says they happen ("1. ... 2.
   * ...", "first ..., then ...", train -> validate -> deploy). The leaf covering each later id must come
   * after (depend on, directly or through others) the leaf covering the one before it.
   */
  sequence?: string[][];
  /**
   * Pairs of requirement ids that nothing in the text orders: neither leaf may depend on the other
   * (dependencies invented from shared words).
   */
  independent?: [string, string][];
  /**
   * Things the case must NOT be read as out of scope: statements that look negative but are work or
   * constraints ("No secrets in version control", "monitoring after launch"). None of them may appear
   * among the plan's stated non-goals (all `match` terms in one non-goal).
   */
  not_non_goals?: { text: string; match: string[] }[];
  /** Where the text was modelled on (a public README, issue, post...): a URL or a short description. */
  inspired_by?: string;
};

/**
 * The kinds of work a description can be planned as (issue 28): the product's own list, the one a person
 * chooses from when checking a reading (shared/schemas/reading.ts). A new product, a feature on an existing
 * one, a bug, performance, a migration, infrastructure, data or ML, and a time-boxed spike.
 */
export const WORK_KINDS = READING_KINDS;
export type WorkKindId = (typeof WORK_KINDS)[number];
