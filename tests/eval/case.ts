/** One annotated project description of the planning-quality corpus (tests/eval/corpus/). */
export type EvalCase = {
  id: string;
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
  /** Explicit non-goals; planned as work when a non-root node's TITLE contains all `match` terms. */
  non_goals: { text: string; match: string[] }[];
};
