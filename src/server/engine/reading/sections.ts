import type { Block } from "./blocks";

/**
 * The sections of a description (decision 027): what a heading names (work, non-goals, context, criteria,
 * steps to reproduce, what was observed, the stack, questions), how a heading is recognised without
 * Markdown, and which sections list steps in order.
 */

export type SectionKind =
  | "requirement"
  | "non_goal"
  | "context"
  | "criteria"
  | "reproduction"
  | "observed"
  | "stack"
  | "questions";

export const NON_GOAL_HEADING =
  /^(?:non[- ]?goals?|out[- ]of[- ]scope|out|not in (?:v\d+|scope|this (?:release|version)|mvp)|not (?:now|yet|planned)|won'?t (?:do|have|build)|later|future(?: (?:work|ideas|enhancements|improvements|plans|features|scope|versions?|releases?))?|potential (?:improvements|enhancements|features|extensions)|possible (?:improvements|enhancements|extensions|features)|stretch(?: goals?| features?)?|nice[- ]to[- ]haves? (?:later|for later)|maybe later|v\d+(?: \(?(?:not now|later|ideas)\)?)?|phase (?:2|two|ii)|version 2|ideas for later|wish ?list|backlog|parking lot|what'?s next(?: for .*)?|explicitly not|excluded|not in this (?:ticket|issue|pr|task|release|version|scope|project|iteration|spike|change)|not part of (?:this|the)(?: \w+)?|not included|not doing|won'?t do)\b/i;

export const CONTEXT_HEADING =
  /^(?:background|context|problem(?: statement)?|the problem|is (?:this|your|the) [\w ]{0,30}?(?:related|tied|linked|connected|due) to a problem|describe (?:the |your )?(?:problem|alternatives?)|(?:the )?alternatives?(?: (?:you'?ve |we'?ve |i'?ve )?considered)?|what problem|submission(?: guidelines| instructions| process| details)?|submitting(?: your (?:work|solution))?|how to submit|hand[- ]?ins?|handing in|logistics|grading|marking(?: scheme| criteria)?|evaluation criteria|how (?:we|you) will be (?:evaluated|assessed|graded)|demographics?|customer (?:information|profile|segments?)|(?:other )?(?:customers?(?:\(s\))? or )?stakeholders?(?:\(s\))?|(?:your |user )?scenarios? ?#?\d+|(?:your |user )?scenarios?$|pain points?|frustrations?|motivation|why(?: .*)?|about(?: us| me| this)?|today|current (?:state|situation|setup|process)|inspiration|how (?:we|i) built it|challenges(?: .*)?|accomplishments(?: .*)?|what (?:we|i) learned|introduction|intro|(?:the )?story|tl;?dr|notes?|references?|links?|resources|screenshots?|demo|credits|license|contributing|faq|installation|install|usage|getting started|prerequisites|requirements to run|how to run|running locally|running the (?:code|app|project|bot|server)|(?:how to )?run(?:ning)? it|how to (?:install|set ?up|build|deploy|use)(?: (?:it|this|the \w+))?|setup instructions|installation instructions|quick ?start|local setup|development|changelog|authors?|acknowledg(?:e)?ments?|configuration|config(?:uration)?(?: (?:options|reference|file))?|environment variables|(?:api|cli|command) reference|flags|options reference|who (?:is it|it'?s) for|target (?:users|audience)|users|personas?|audience|assumptions)\b/i;

export const CRITERIA_HEADING =
  /^(?:what (?:you |i |we )?(?:expected|expect)|what should happen|expected (?:result|outcome|behaviou?r)s?|acceptance(?: criteria| tests?)?|definition of done|dod|done when|success (?:criteria|metrics|measures)|exit criteria|expected(?: (?:behaviou?r|results?|outcomes?))?|how (?:we|i|you)(?:'ll| will)? (?:know|test|verify)(?: .*)?|verification|test plan)\b/i;

export const REPRODUCTION_HEADING =
  /^(?:steps to reproduce|to reproduce|repro(?:duction)?(?: steps)?|how to reproduce|reproduce|reproducible example|minimal (?:reproduction|example))\b/i;

export const OBSERVED_HEADING =
  /^(?:actual(?: (?:behaviou?r|results?|outcome))?|current behaviou?r|what (?:happens|happened)|observed(?: behaviou?r)?|environment|versions?|system info(?:rmation)?|platform|browsers?|os|device|logs?|stack ?traces?|error(?: messages?| output)?|screenshots?|additional (?:context|info(?:rmation)?|details)|workaround|possible (?:cause|fix|solution)|related(?: issues)?|debug(?: info)?)\b/i;

export const STACK_HEADING =
  /^(?:(?:tech(?:nical)?|technology) ?stack|stack|built with|technolog(?:y|ies)|tools(?: used)?|tech)\b/i;

export const QUESTIONS_HEADING =
  /^(?:open questions|questions|unknowns|open issues|to decide|decisions? needed)\b/i;

/** Headings whose items are work. */
export const WORK_HEADING =
  /^(?:goals?|scope|v\d+(?: scope)?|mvp|requirements?|features?|functional requirements|must[- ]haves?|should[- ]haves?|nice[- ]to[- ]haves?|user stories|stories|deliverables?|milestones?|tasks?|todo|to do|to-do|what it does|what (?:it|the \w+) (?:should|must|will) do|how it (?:works|should work)|plan|steps|phases?|constraints?|non[- ]functional(?: requirements)?|solution|proposal|proposed (?:solution|change|changes)|changes|in scope|scope \(v\d+\)|outputs?|deliverables?|what (?:we|i) need|what we want)\b/i;

/** A section about handing the work in and how it is judged: its instructions are for the author, not work. */
export const PROCESS_HEADING =
  /^(?:submission(?: guidelines| instructions| process| details)?|submitting(?: your (?:work|solution))?|how to submit|hand[- ]?ins?|handing in|logistics|grading|marking(?: scheme| criteria)?|evaluation criteria|how (?:we|you) will be (?:evaluated|assessed|graded))\b/i;

/** A heading about how things are now ("Current setup", "What we run on Heroku today"): context. */
export const CURRENT_HEADING =
  /\b(?:today|currently|current (?:setup|state|situation|process|architecture|stack)|as[- ]is|existing setup|what we (?:run|use|have))\b/i;

export function sectionKind(heading: string): SectionKind {
  const h = heading.replace(/^[\W_]+/, "").trim();
  if (CURRENT_HEADING.test(h) && !NON_GOAL_HEADING.test(h)) return "context";
  if (NON_GOAL_HEADING.test(h)) return "non_goal";
  if (REPRODUCTION_HEADING.test(h)) return "reproduction";
  if (CRITERIA_HEADING.test(h)) return "criteria";
  if (QUESTIONS_HEADING.test(h)) return "questions";
  if (STACK_HEADING.test(h)) return "stack";
  if (OBSERVED_HEADING.test(h)) return "observed";
  if (WORK_HEADING.test(h)) return "requirement";
  if (CONTEXT_HEADING.test(h)) return "context";
  return "requirement";
}

/**
 * A short line that reads as a heading without a colon ("What it does", "Tech Stack"): a section's usual
 * name, a question word without its question mark, or Title Case over a list or a paragraph (not over the
 * next short line, which would make every line of a plain list a heading).
 */
export function isBareHeading(text: string, next?: Block): boolean {
  if (text.length > 50 || /[.!?,;:]$/.test(text)) return false;
  const words = text.split(/\s+/);
  if (words.length > 6) return false;
  const known = [
    NON_GOAL_HEADING,
    CONTEXT_HEADING,
    CRITERIA_HEADING,
    REPRODUCTION_HEADING,
    OBSERVED_HEADING,
    STACK_HEADING,
    QUESTIONS_HEADING,
    WORK_HEADING,
  ];
  if (known.some((re) => re.test(text)) && words.length <= 4) return true;
  if (/^(?:what|how|why|who|when|where)\b/i.test(text)) return true;
  // Title Case: every longer word capitalised, at least two words.
  const long = words.filter((w) => w.length > 3);
  const titleCase = words.length >= 2 && long.length > 0 && long.every((w) => /^[A-Z0-9]/.test(w));
  return titleCase && (next?.type === "item" || (next?.type === "prose" && next.text.length > 60));
}

export const STEP_SECTION =
  /\b(steps?|phases?|stages?|process|procedure|order|rollout|roll-out|cut-?over|migration plan|upgrade plan|pipeline|workflow|flow|how it works|sequence|timeline|runbook|checklist)\b/i;

/** Words that say a list is done in its order: "in this order", "step by step", "one after another". */
export const IN_ORDER =
  /\b(?:in (?:this|that|the following|the same) order|in order|step by step|one (?:after|by) (?:the other|another|one)|in sequence|sequentially|first[^.]{0,60}\bthen\b)/i;

export const THEN =
  /^(?:then|after that|afterwards|afterward|next|finally|once (?:that|this|it)(?: is|'s)? done|lastly|and then|after (?:this|which))\b,?\s*/i;

/** A table of words as one requirement: "Controls: Left click – select / move; Space – end turn". */
export function tableText(section: string, table: string): string | null {
  const rows = table
    .split("\n")
    .filter((line) => !/^\s*\|?\s*:?-{3,}/.test(line))
    .map((line) =>
      line
        .replace(/^\s*\||\|\s*$/g, "")
        .split("|")
        .map((c) => c.trim())
        .filter(Boolean),
    )
    .filter((cells) => cells.length > 0);
  // The first row names the columns when a separator follows it.
  const body = /\n\s*\|?\s*:?-{3,}/.test(table) ? rows.slice(1) : rows;
  const cells = body.flat();
  if (cells.length === 0) return null;
  const numeric = cells.filter((c) => /^[~<>≈$€£]?\s*[\d.,]+\s*[\w%/]{0,6}(?:\s*\(.*\))?$/.test(c)).length;
  if (numeric / cells.length >= 0.5) return null;
  const head = body === rows ? "" : ` (${rows[0]!.join(", ")})`;
  const text = `${section}${head}: ${body.map((r) => r.join(" – ")).join("; ")}`;
  return text.length > 400 ? `${text.slice(0, 397)}...` : text;
}

/** "Goals:", "Non-goals: video calls", "**Stack**: React": a label that opens a section. */
export function labelHeading(line: string): { text: string; rest: string } | null {
  const label = line.match(/^([A-Za-z][\w ()/'’&-]{0,60}):\s*(.*)$/);
  if (!label) return null;
  const size = label[1]!.split(/\s+/).length;
  // "Questions each option has to answer:" introduces what follows; a longer label with text after it is a sentence.
  if (size > (label[2] ? 5 : 8)) return null;
  const name = label[1]!.trim();
  const rest = label[2] ?? "";
  const known = sectionKind(name) !== "requirement" || WORK_HEADING.test(name);
  if (rest === "" || known) return { text: name, rest };
  return null;
}

/** A heading that names a section rather than the project ("Overview", "Goals"). */
export function sectionLike(text: string): boolean {
  return sectionKind(text) !== "requirement" || WORK_HEADING.test(text);
}
