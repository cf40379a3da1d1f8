import { NEAR_DUPLICATE, similarity, wordSet } from "../../lib/words";
import { type Block, readBlocks } from "./blocks";
import { inlineList } from "./inline-list";
import { titleReportsFault } from "./kind";
import { judgeSentence, sentences, splitOutside, startsWithInstruction } from "./sentences";
import { allNamed, namedTechnologies } from "./signals";

/**
 * What a description states, read as an engineer reads it (decisions 014 and 027): the work it asks for,
 * as traceable requirements (R1, R2, ...) in the user's own words, and everything else kept apart. Both
 * planners use it: the offline outline plans from it, and a model is given the list with its ids.
 *
 * - The first short line or `#` title names the task; it is not a requirement.
 * - Headings open sections. A section's name says what its items are: work, out of scope ("Non-goals",
 *   "Out:", "Future enhancements", "Stretch", "v2"), background, acceptance criteria, steps to reproduce,
 *   what was observed (a bug's actual behaviour, logs, environment), the stack, or open questions.
 * - Only work becomes a requirement: questions, rationale, narrative, remarks, links, code, tables and
 *   drawings are context (reading/sentences.ts, reading/blocks.ts). Checklist items marked done are done.
 * - A list inside a sentence gives one requirement per item (reading/inline-list.ts).
 * - Items that declare themselves out of scope are non-goals; negative rules for the work ("No secrets
 *   in version control") are constraints, which the plan checks rather than leaves out.
 * - Numbered steps and "first ..., then ..." state an order, kept as sequences.
 * Nothing stated as work is dropped or capped; exact and near-identical repeats are merged.
 */

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

type SectionKind =
  | "requirement"
  | "non_goal"
  | "context"
  | "criteria"
  | "reproduction"
  | "observed"
  | "stack"
  | "questions";

const NON_GOAL_HEADING =
  /^(?:non[- ]?goals?|out[- ]of[- ]scope|out|not in (?:v\d+|scope|this (?:release|version)|mvp)|not (?:now|yet|planned)|won'?t (?:do|have|build)|later|future(?: (?:work|ideas|enhancements|improvements|plans|features|scope|versions?|releases?))?|potential (?:improvements|enhancements|features|extensions)|possible (?:improvements|enhancements|extensions|features)|stretch(?: goals?| features?)?|nice[- ]to[- ]haves? (?:later|for later)|maybe later|v\d+(?: \(?(?:not now|later|ideas)\)?)?|phase (?:2|two|ii)|version 2|ideas for later|wish ?list|backlog|parking lot|what'?s next(?: for .*)?|explicitly not|excluded|not in this (?:ticket|issue|pr|task|release|version|scope|project|iteration|spike|change)|not part of (?:this|the)(?: \w+)?|not included|not doing|won'?t do)\b/i;
const CONTEXT_HEADING =
  /^(?:background|context|problem(?: statement)?|the problem|motivation|why(?: .*)?|about(?: us| me| this)?|today|current (?:state|situation|setup|process)|inspiration|how (?:we|i) built it|challenges(?: .*)?|accomplishments(?: .*)?|what (?:we|i) learned|introduction|intro|(?:the )?story|tl;?dr|notes?|references?|links?|resources|screenshots?|demo|credits|license|contributing|faq|installation|install|usage|getting started|prerequisites|requirements to run|how to run|running locally|local setup|development|changelog|authors?|acknowledg(?:e)?ments?|configuration|config(?:uration)?(?: (?:options|reference|file))?|environment variables|(?:api|cli|command) reference|flags|options reference|who (?:is it|it'?s) for|target (?:users|audience)|users|personas?|audience|assumptions)\b/i;
const CRITERIA_HEADING =
  /^(?:what (?:you |i |we )?(?:expected|expect)|what should happen|expected (?:result|outcome|behaviou?r)s?|acceptance(?: criteria| tests?)?|definition of done|dod|done when|success (?:criteria|metrics|measures)|exit criteria|expected(?: (?:behaviou?r|results?|outcomes?))?|how (?:we|i|you)(?:'ll| will)? (?:know|test|verify)(?: .*)?|verification|test plan)\b/i;
const REPRODUCTION_HEADING =
  /^(?:steps to reproduce|to reproduce|repro(?:duction)?(?: steps)?|how to reproduce|reproduce|reproducible example|minimal (?:reproduction|example))\b/i;
const OBSERVED_HEADING =
  /^(?:actual(?: (?:behaviou?r|results?|outcome))?|current behaviou?r|what (?:happens|happened)|observed(?: behaviou?r)?|environment|versions?|system info(?:rmation)?|platform|browsers?|os|device|logs?|stack ?traces?|error(?: messages?| output)?|screenshots?|additional (?:context|info(?:rmation)?|details)|workaround|possible (?:cause|fix|solution)|related(?: issues)?|debug(?: info)?)\b/i;
const STACK_HEADING =
  /^(?:(?:tech(?:nical)?|technology) ?stack|stack|built with|technolog(?:y|ies)|tools(?: used)?|tech)\b/i;
const QUESTIONS_HEADING = /^(?:open questions|questions|unknowns|open issues|to decide|decisions? needed)\b/i;
/** Headings whose items are work. */
const WORK_HEADING =
  /^(?:goals?|scope|v\d+(?: scope)?|mvp|requirements?|features?|functional requirements|must[- ]haves?|should[- ]haves?|nice[- ]to[- ]haves?|user stories|stories|deliverables?|milestones?|tasks?|todo|to do|to-do|what it does|what (?:it|the \w+) (?:should|must|will) do|how it (?:works|should work)|plan|steps|phases?|constraints?|non[- ]functional(?: requirements)?|solution|proposal|proposed (?:solution|change|changes)|changes|in scope|scope \(v\d+\)|outputs?|deliverables?|what (?:we|i) need|what we want)\b/i;

/** A heading about how things are now ("Current setup", "What we run on Heroku today"): context. */
const CURRENT_HEADING =
  /\b(?:today|currently|current (?:setup|state|situation|process|architecture|stack)|as[- ]is|existing setup|what we (?:run|use|have))\b/i;

function sectionKind(heading: string): SectionKind {
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

/** An item that declares itself out of scope (or for later). */
const NON_GOAL_ITEM =
  /\b(?:out[- ]of[- ]scope|outside (?:of )?(?:the )?scope|non[- ]goals?|not (?:in|for|part of) (?:v\d+|the first (?:release|version)|scope|now|this (?:release|version|project|iteration)|mvp)|(?:later|someday|eventually),? maybe|maybe (?:later|someday)|for later|not needed|no need (?:for|to)|(?:do not|don'?t|won'?t|will not|doesn'?t|does not|didn'?t) (?:need|have to|bother|want to (?:build|support|handle))|(?:won'?t|will not|not going to) (?:build|support|do|include|handle|cover)|not (?:required|a goal|planned|a priority|in scope)|isn'?t needed|aren'?t needed|we skip|skip(?:ping)? (?:it |this |that )?for now|not for now|leave (?:it |this |that )?(?:for later|out)|postpone\w*|defer(?:red)?|(?:post|after)[- ](?:v1|mvp)|in (?:a )?(?:v2|version 2|phase 2|later (?:version|release|phase))|(?:^|\()(?:v2|later|stretch|future|optional later)\)?$|stretch goal|^no (?:production |code |app |schema |new |breaking )?(?:changes|work|rollouts?|deploy(?:ment)?s?|migrations?|refactor(?:ing)?s?|rewrites?|releases?)\b|^(?:please )?(?:don'?t|do not) (?:touch|worry about|bother with|build|handle|include)|(?:please )?(?:don'?t|do not) just (?:add|use|silence|hide|suppress|disable)|(?:we|i) (?:won'?t|will not|are not going to|aren'?t going to|don'?t plan to|do not plan to) (?!be\b)\w+|can wait|can come later|comes later|(?:is|are) (?:already )?(?:handled|covered|taken care of|done) (?:by|in|elsewhere|outside))\b/i;
/** The writer naming what they build: "I'm writing a small TypeScript date library". */
const NAMES_THE_PROJECT =
  /^(?:so,?\s+)?(?:i|we)(?:'m|’m| am|'re|’re| are)\s+(?:building|making|creating|developing|writing|working on)\s+(?:a|an|my|our|the)\b/i;

/** A business outcome with a number: a success measure of the whole, not a piece of work. */
const OUTCOME =
  /^(?=.*(?:\b\d+(?:\.\d+)?\s?%|\bby (?:half|a third|a quarter|\d+x)\b|\b(?:double|triple|halve)[sd]?\b))(?=.*\b(?:calls?|visits?|revenue|sales|retention|conversions?|signups?|sign-ups|churn|engagement|adoption|satisfaction|nps|bookings?|appointments?|no-shows?|boosters?|orders?|tickets?|complaints?|response rate|open rate|click rate|on-time)\b)(?!.*\b(?:ms|seconds?|kb|mb|p9\d|latency|load time)\b)/i;

/** A wish for a quality of the whole rather than a feature: "I want something dead simple". */
const VAGUE_WISH =
  /^(?:i|we)?\s*(?:really\s+|just\s+)?(?:want|need|would like|'d like|’d like)\s+(?:something|it|a tool|an app|one|a thing)\s+(?:that'?s\s+|that is\s+|to be\s+)?(?:dead |really |very |super |pretty |as )?(?:simple|easy|cheap|free|quick|small|lightweight|minimal|clean|nice|basic|straightforward|boring|fast|good)\b/i;
/** A clause that only defers what is said beside it: "that's for later", "but not yet". */
const DEFERRAL =
  /^(?:that'?s|this is|it'?s|that is|those are|which is)?\s*(?:for later|later|a later thing|for v\d+|for another day|not (?:now|yet|for now|in v1)|something for later|(?:a|for) (?:future|later) (?:version|release|iteration)|out of scope|a nice[- ]to[- ]have(?: for later)?|can wait)\b/i;
/** "no db needed", "no login": a short negative statement of scope. */
const NO_ITEM =
  /^no\s+(?![\w .'-]*\b(?:in|on|at|from|into|inside|outside|over|under|during|per|across|between)\s)[\w .'-]{1,30}?(?:\s+(?:needed|required|necessary|for now|yet|at first|in v1))?\.?$/i;
/** A rule for the work rather than a thing left out: "No secrets in version control", "never ...", "must not ...". */
const CONSTRAINT =
  /^(?:never\b|no\s+\w+(?:\s+\w+){0,3}\s+(?:in|on|at|from|to|into|inside|outside|over|under|before|after|without|during|per|more than|less than|beyond|across|between)\b|(?:it |the \w+ |we |you )?(?:must|should|shall|may) ?not\b|(?:it |the \w+ )?(?:must|should) never\b|without (?:any )?(?:downtime|data loss|breaking)|don'?t (?:break|store|log|send|expose|leak|commit|change|touch|lose))/i;

const ACTOR_NOUN =
  "users?|customers?|clients?|buyers?|sellers?|admins?|administrators?|managers?|owners?|members?|visitors?|guests?|students?|teachers?|patients?|doctors?|clinicians?|nurses?|staff|employees?|developers?|players?|drivers?|riders?|authors?|editors?|readers?|subscribers?|agents?|operators?|investigators?|coaches?|trainers?|parents?|kids|shoppers?|hosts?|tenants?|landlords?|accountants?|freelancers?|recruiters?|candidates?|moderators?|sponsors?|monitors?|reviewers?|coordinators?|researchers?|analysts?|dispatchers?|technicians?|volunteers?|people|anyone|everyone|the team|team members?";
const CAN =
  "can|could|should be able to|must be able to|will be able to|are able to|is able to|need to|needs to|want to|wants to|may|should|must|will";

function actorOf(text: string): Pick<Requirement, "actor" | "action" | "benefit"> {
  const none = { actor: null, action: null, benefit: null };
  const story = text.match(
    /^as an? ([\w -]{2,40}?),? i (?:want|need|would like|can|should be able) (?:to )?(.+?)(?:,? so (?:that )?(.+))?$/i,
  );
  if (story) return { actor: story[1]!.trim(), action: story[2]!.trim(), benefit: story[3]?.trim() ?? null };
  const re = new RegExp(
    `^(?:the |our |all |every |each |logged[- ]in |signed[- ]in |registered |new )?(${ACTOR_NOUN})\\s+(?:${CAN})\\s+(.+)$`,
    "i",
  );
  // "Site coordinators enter CRF data": an actor and a verb in the present, without a modal.
  const plain = new RegExp(
    `^(?:the |our |all |every |each )?(?:[\\w-]+ )?(${ACTOR_NOUN})\\s+(?!(?:are|is|was|were|have|has|had|get|gets|will|would|data|table|list|page|and|or|with|of|in)\\b)([a-z]+\\b.+)$`,
    "i",
  );
  const m = text.match(re) ?? text.match(plain);
  if (!m) return none;
  const [action, benefit] = m[2]!.split(/,?\s+so (?:that )?/i);
  if (!action || action.split(/\s+/).length < 2) return none;
  return { actor: m[1]!.toLowerCase(), action: action.trim(), benefit: benefit?.trim() ?? null };
}

/** Drops list punctuation and a trailing full stop; keeps question and exclamation marks. */
function trimItem(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[,;:\s-]+/, "")
    .replace(/[.,;:\s]+$/, "");
}

/** "A web shop for ...", "Spoolbox is a small web app for ...": what the text is about, not a feature. */
const SUBJECT_STATEMENT =
  /^(?:(?:[Aa]|[Aa]n|[Tt]he|[Mm]y|[Oo]ur)\s+(?:[\w'’/+.-]+\s+){0,8}?(?:app|application|tool|site|website|web ?app|webapp|platform|service|system|bot|game|dashboard|portal|extension|plugin|add-?on|cli|library|package|sdk|api|marketplace|shop|store|tracker|planner|manager|editor|client|server|engine|framework|product|saas|prototype|mvp|pwa|page|board|hub|assistant|calculator|generator|builder|monitor|scheduler|organizer|organiser|log|journal|diary|wiki|crm|erp|lms|cms)s?\b(?=\s*$|\s*[,:(—–-]|\s+(?:for|that|which|to|where|with|called|named|built|in|on|of|by|using|like)\b)|[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}\s+(?:is|will be)\s+(?:a|an)\b|(?:[Tt]his|[Ii]t)\s+is\s+(?:a|an)\b|(?:[Ii]|[Ww]e)(?:\s+really)?\s+(?:want|would like|'d like|’d like|need|plan|am going|are going)\s+to\s+(?:build|make|create|develop|write|set up)\s+(?:a|an|my|our|the)\b)/;

/**
 * A short line that reads as a heading without a colon ("What it does", "Tech Stack"): a section's usual
 * name, a question word without its question mark, or Title Case over a list or a paragraph (not over the
 * next short line, which would make every line of a plain list a heading).
 */
function isBareHeading(text: string, next?: Block): boolean {
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

type Pending = {
  text: string;
  section: string | null;
  kind: SectionKind;
  inList: boolean;
  /** Items of one numbered list, or sentences joined by "then": a sequence id. */
  sequence: number | null;
  statedIn: string | null;
  /** Read as one requirement, as it stands (a table). */
  whole?: boolean;
};

const STEP_SECTION =
  /\b(steps?|phases?|stages?|process|procedure|order|rollout|roll-out|cut-?over|migration plan|upgrade plan|pipeline|workflow|flow|how it works|sequence|timeline|runbook|checklist)\b/i;
/** Words that say a list is done in its order: "in this order", "step by step", "one after another". */
const IN_ORDER =
  /\b(?:in (?:this|that|the following|the same) order|in order|step by step|one (?:after|by) (?:the other|another|one)|in sequence|sequentially|first[^.]{0,60}\bthen\b)/i;
const THEN =
  /^(?:then|after that|afterwards|afterward|next|finally|once (?:that|this|it)(?: is|'s)? done|lastly|and then|after (?:this|which))\b,?\s*/i;

/** Reads the description (and the additional requirements, when given) into its scope. */
export function extractScope(description: string, additional: string | null = null): StatedScope {
  const scope: Omit<StatedScope, "requirements"> & { requirements: Requirement[] } = {
    title: null,
    requirements: [],
    nonGoals: [],
    context: [],
    questions: [],
    criteria: [],
    constraints: [],
    done: [],
    reproduction: [],
    observed: [],
    sequences: [],
    subject: null,
  };
  const pending: Pending[] = [];
  let sequenceId = 0;

  for (const [source, text] of [
    ["description", description],
    ["additional", additional ?? ""],
  ] as const) {
    const blocks = readBlocks(text);
    let section: string | null = source === "additional" ? "Additional requirements" : null;
    let kind: SectionKind = "requirement";
    let labelled = false;
    let lastList = -1;
    let listSequence: number | null = null;
    let proseSequence: number | null = null;
    let lastLine = -2;
    /** The prose just before a list ("Do these in this order:"). */
    let lead = "";

    const first = blocks.findIndex((b) => b.type !== "aside");
    blocks.forEach((block, index) => {
      // A "Label:" section ends at the first blank line after its items, as people write them.
      if (labelled && block.line > lastLine + 1 && block.type === "prose" && index > 0) {
        section = source === "additional" ? "Additional requirements" : null;
        kind = "requirement";
        labelled = false;
      }
      lastLine = block.line;
      if (block.type === "aside") {
        if (block.what === "link" || block.what === "quote") scope.context.push(block.text);
        if (kind === "reproduction" && block.what !== "link")
          scope.reproduction.push(block.text.slice(0, 500));
        // A table of words under a heading of work ("Controls": input and action) specifies that thing;
        // a table of numbers (timings, sizes) is a measurement, and context.
        const table =
          block.what === "table" && kind === "requirement" && section ? tableText(section, block.text) : null;
        if (table)
          pending.push({
            text: table,
            section,
            kind,
            inList: true,
            sequence: null,
            statedIn: null,
            whole: true,
          });
        return;
      }
      // The title: a top heading or a short first line, when more follows.
      const after = blocks[index + 1];
      if (source === "description" && index === first && after && (after.gap || after.type !== "prose")) {
        const t = block.type === "heading" ? block.text : block.type === "prose" ? block.text : null;
        if (
          t &&
          (block.type === "heading"
            ? block.level <= 3 && !sectionLike(t)
            : t.length <= 120 &&
              !/[.:]$/.test(t) &&
              sentences(t).length === 1 &&
              !sectionLike(t) &&
              t.split(/\s+/).length <= 18)
        ) {
          scope.title = t.replace(/[!?]+$/, "").trim();
          return;
        }
      }
      let heading: { text: string; rest: string } | null = null;
      if (block.type === "heading") heading = { text: block.text, rest: block.rest };
      else if (block.type === "prose") {
        heading = labelHeading(block.text);
        const next = blocks[index + 1];
        // "Plan, in this order, each step merged on its own:" introduces the list under it.
        if (
          !heading &&
          next?.type === "item" &&
          /:$/.test(block.text) &&
          block.text.split(/\s+/).length <= 16
        ) {
          const line = block.text.replace(/:$/, "");
          // "Target on AWS, all of it in Terraform:": what follows the first comma is said of everything under it.
          const [name, ...said] = splitOutside(line, /,\s+/);
          heading = {
            text: IN_ORDER.test(line) ? line : name!,
            rest: IN_ORDER.test(line) ? "" : said.join(", "),
          };
        }
        if (!heading && next && next.type !== "aside" && isBareHeading(block.text, next))
          heading = { text: block.text, rest: "" };
      }
      if (heading) {
        lead = "";
        section = heading.text;
        kind = sectionKind(section);
        labelled = block.type === "prose" && Boolean(labelHeading(block.text));
        listSequence = null;
        proseSequence = null;
        if (heading.rest) {
          const parts =
            kind === "non_goal" || kind === "stack"
              ? splitOutside(heading.rest, /,\s*|;\s*/)
              : sentences(heading.rest);
          for (const p of parts)
            pending.push({
              text: p,
              section,
              kind,
              inList: kind === "non_goal",
              sequence: null,
              statedIn: null,
            });
        }
        return;
      }
      if (block.type === "item") {
        if (block.checked === true) {
          scope.done.push(trimItem(block.text));
          return;
        }
        if (block.list !== lastList) {
          lastList = block.list;
          const ordered = STEP_SECTION.test(section ?? "") || IN_ORDER.test(`${section ?? ""} ${lead}`);
          listSequence = block.numbered && (ordered || kind === "reproduction") ? ++sequenceId : null;
          // A numbered list of features is not an order; one of instructions outside a feature list may be.
          if (block.numbered && listSequence === null && !WORK_HEADING.test(section ?? ""))
            listSequence = -++sequenceId;
        }
        // "- OS: Android 14", "- Browser: Firefox": a labelled observation, not an item of work.
        const label = labelHeading(block.text);
        const labelKind = label?.rest ? sectionKind(label.text) : null;
        const itemKind = labelKind === "observed" || labelKind === "stack" ? labelKind : kind;
        for (const s of sentences(block.text))
          pending.push({
            text: s,
            section,
            kind: itemKind,
            inList: true,
            sequence: listSequence,
            statedIn: null,
          });
        return;
      }
      lead = block.text;
      // Prose: its sentences, with "then" chaining a sequence.
      let previous: Pending | null = null;
      for (const s of sentences(block.text)) {
        const chained = THEN.test(s) || /^first(?:ly)?\b,?/i.test(s);
        const item: Pending = {
          text: s.replace(THEN, ""),
          section,
          kind,
          inList: false,
          sequence: null,
          statedIn: null,
        };
        if (chained) {
          if (proseSequence === null) proseSequence = ++sequenceId;
          item.sequence = proseSequence;
          if (previous && previous.sequence === null && !/^first/i.test(s)) previous.sequence = proseSequence;
        }
        pending.push(item);
        previous = item;
      }
    });
  }

  // A numbered list states an order when its items are steps: most start with a verb of their own.
  const bySequence = new Map<number, Pending[]>();
  for (const p of pending)
    if (p.sequence !== null) bySequence.set(p.sequence, [...(bySequence.get(p.sequence) ?? []), p]);
  for (const [id, items] of bySequence) {
    if (id >= 0) continue;
    const steps = items.filter((p) => startsWithInstruction(p.text));
    const keep = steps.length >= Math.ceil(items.length * 0.6) ? -id : null;
    for (const p of items) p.sequence = keep;
  }

  const requirementItems: Pending[] = [];
  for (const p of pending) place(p, scope, requirementItems);

  // A bug report states what goes wrong; only what it asks for is work. The bug itself is its title
  // (the fallback below), and the rest is what was observed.
  const title = scope.title ?? "";
  const bugReport =
    scope.reproduction.length > 0 ||
    /^\s*\[?bug\]?\s*[:\]]/i.test(title) ||
    titleReportsFault(scope.title) ||
    (scope.observed.length > 0 && scope.criteria.length > 0);
  if (bugReport) {
    for (let i = requirementItems.length - 1; i >= 0; i--) {
      const item = requirementItems[i]!;
      const asks =
        isExplicitAsk(item.statedIn ?? item.text) ||
        /\b(?:should|must|needs? to)\b/i.test(item.text) ||
        IMPERATIVE_START.test(item.text);
      if (!asks) {
        scope.observed.unshift(trimItem(item.text));
        requirementItems.splice(i, 1);
      }
    }
  }

  // The first sentence naming the product is what the rest belongs to, unless it is all there is.
  // (With little else stated, what it is may be most of what is asked: "a slack bot that posts reminders".)
  // Under a title, the first item of a list is one of its siblings ("- A public landing page that ...").
  const firstWork = requirementItems[0];
  const sibling = scope.title !== null && firstWork?.inList && requirementItems[1]?.inList;
  if (
    firstWork &&
    !sibling &&
    requirementItems.length > 3 &&
    SUBJECT_STATEMENT.test(firstWork.text) &&
    !inlineList(firstWork.text)
  ) {
    scope.subject = trimItem(firstWork.text);
    requirementItems.shift();
  }

  const seen: Set<string>[] = [];
  const sequenceOf = new Map<number, string[]>();
  for (const item of requirementItems) {
    const text = trimItem(item.text);
    const words = wordSet(text);
    if (words.size === 0) continue;
    // A repeat (the same words, or near enough) is one requirement, stated once.
    if (seen.some((s) => similarity(s, words) >= NEAR_DUPLICATE)) continue;
    seen.push(words);
    const id = `R${scope.requirements.length + 1}`;
    const requirement: Requirement = {
      id,
      text,
      section: item.section,
      ...actorOf(text),
      statedIn: item.statedIn,
    };
    if (item.sequence !== null && item.sequence > 0) {
      const ids = sequenceOf.get(item.sequence) ?? [];
      const before = ids.length ? scope.requirements.find((r) => r.id === ids[ids.length - 1]) : undefined;
      const sameSentence = before && item.statedIn !== null && before.statedIn === item.statedIn;
      requirement.step = before ? (before.step ?? 0) + (sameSentence ? 0 : 1) : 0;
      sequenceOf.set(item.sequence, [...ids, id]);
    }
    scope.requirements.push(requirement);
  }
  scope.sequences = [...sequenceOf.values()].filter((s) => s.length >= 2);

  // Nothing reads as work: the title, or the first thing said, is what is asked.
  if (scope.requirements.length === 0) {
    const fallback =
      scope.subject ?? scope.title ?? pending.find((p) => p.kind === "requirement")?.text ?? null;
    if (fallback) {
      const text = trimItem(fallback);
      scope.requirements.push({ id: "R1", text, section: null, ...actorOf(text), statedIn: null });
      if (scope.subject === fallback) scope.subject = null;
    }
  }
  scope.nonGoals = unique(scope.nonGoals);
  scope.context = unique(scope.context);
  return scope;
}

/** A table of words as one requirement: "Controls: Left click – select / move; Space – end turn". */
function tableText(section: string, table: string): string | null {
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
function labelHeading(line: string): { text: string; rest: string } | null {
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
function sectionLike(text: string): boolean {
  return sectionKind(text) !== "requirement" || WORK_HEADING.test(text);
}

/** An explicit request, wherever it stands: "Please ...", "We'd like ...", "It should ...", "Add ...". */
const EXPLICIT_ASK_START =
  /^(?:please\b|(?:i|we)(?:'d| would)(?: also| really)? like\b|(?:i|we) (?:also |really )?(?:want|need)\b|(?:it|this|the \w+) (?:should|must) (?!not\b)|(?:can|could) (?:you|we) (?:please )?(?:add|make|fix|change)\b|(?:add|make|fix|change|use|set|move|keep|wrap|switch|replace|remove) (?:the |a |an |it|this|our )?)/i;

/** A request in so many words: "please ...", "we'd like ...". */
const POLITE_ASK = /\bplease\b|^(?:i|we)(?:'d|’d| would)(?: also| really)? like\b/i;

/** An instruction: the sentence starts with what to do. */
const IMPERATIVE_START =
  /^(?:and |also |then )?(?:add|make|fix|change|use|set|move|keep|wrap|switch|replace|remove|guard|evict|run|turn on|turn off|enable|disable|format|collect|write|test|log|handle|return|show|validate|check|update|upgrade|bump|pin|limit|retry|catch|escape|sanitize|normalize|convert|store|save|clear|reset|close|cancel|debounce|throttle|cache|index)\b/i;

/** An ask, after a label ("Fix: ...", "Proposed fix: ...") and fillers ("And add ..."), or with "please" in it. */
/** An instruction not to do something ("Don't change the delimiter"): a constraint or a non-goal, never an observation. */
const FORBIDS = /^(?:please\s+)?(?:don'?t|don’t|do not|never|avoid)\s+\w/i;

function isExplicitAsk(text: string): boolean {
  const bare = text.replace(/^[\w' ]{1,30}:\s+/, "").replace(/^(?:and|also|so|then|plus)\b,?\s+/i, "");
  return (
    EXPLICIT_ASK_START.test(bare) ||
    IMPERATIVE_START.test(bare) ||
    startsWithInstruction(bare) ||
    /\bplease\b/i.test(text)
  );
}

/** Puts one sentence where it belongs: a requirement (after splitting lists), or one of the other parts. */
function place(p: Pending, scope: StatedScope, requirements: Pending[]) {
  const text = trimItem(p.text);
  if (!text || !/[\p{L}\p{N}]/u.test(text)) return;
  if (p.whole) {
    requirements.push({ ...p, text });
    return;
  }
  switch (p.kind) {
    case "non_goal":
      scope.nonGoals.push(text);
      return;
    case "context":
      if ((isExplicitAsk(text) || FORBIDS.test(text)) && judgeSentence(text, false) !== "question") break;
      scope.context.push(text);
      return;
    case "criteria":
      if (!p.inList && POLITE_ASK.test(text)) break;
      scope.criteria.push(text);
      return;
    case "reproduction":
      // A request written after the steps ("Please stream the file instead") is not a step.
      if (!p.inList && (isExplicitAsk(text) || FORBIDS.test(text))) break;
      scope.reproduction.push(text);
      return;
    case "observed":
      // "Please make the task idempotent", "We'd also like a regression test": an ask among the observations.
      if (isExplicitAsk(text) || FORBIDS.test(text)) break;
      scope.observed.push(text);
      return;
    case "stack":
      scope.context.push(text);
      return;
    case "questions":
      scope.questions.push(text);
      return;
  }
  // A bracketed aside decides nothing about the item it sits in ("run CI on 3.12 only (no need to
  // support several versions)"); one that rules something out is a non-goal of its own.
  for (const m of text.matchAll(/\(([^()]{3,120})\)/g))
    if (NO_ITEM.test(m[1]!) || /^(?:not|without)\s/i.test(m[1]!)) scope.nonGoals.push(m[1]!.trim());
  const bare = text.replace(/\s*\([^()]*\)/g, "");
  const deferred =
    /\((?:v\d+|later|stretch|future|next (?:version|release)|phase \d|optional|nice[- ]to[- ]have)\)\s*$/i.test(
      text,
    );
  if (deferred || NON_GOAL_ITEM.test(bare) || NO_ITEM.test(bare)) {
    // "I don't need accounts, but each list has a share link": only the clause that says so is out.
    const clauses = splitOutside(text, /,?\s+(?:but|however|though|although|yet)\s+|\s+[—–]\s+|\s+-\s+/i);
    if (clauses.length > 1) {
      // "Speaker labels would be great, but that's for later": the pointer defers the other clause.
      const pointer = clauses.findIndex((c) => DEFERRAL.test(c.trim()));
      if (pointer >= 0) {
        scope.nonGoals.push(trimItem(clauses.filter((_, k) => k !== pointer).join(", ")));
        return;
      }
      for (const clause of clauses) place({ ...p, text: clause }, scope, requirements);
      return;
    }
    scope.nonGoals.push(text);
    return;
  }
  // "Done when production runs Rails 7.0 ...": the text's own definition of done.
  if (
    /^(?:done when|we'?re done when|this is done when|it'?s done when|success (?:means|is when)|definition of done:)/i.test(
      text,
    )
  ) {
    scope.criteria.push(text);
    return;
  }
  // "Reminder calls cut by half", "on-time boosters up to 75%": an outcome to measure, not work to do.
  if (OUTCOME.test(text) && !startsWithInstruction(text)) {
    scope.criteria.push(text);
    return;
  }
  if (VAGUE_WISH.test(text)) {
    scope.context.push(text);
    return;
  }
  if (CONSTRAINT.test(text)) {
    scope.constraints.push(text);
    return;
  }
  // A list written inside the sentence: each item is judged as a list item would be. The head names
  // what the items belong to ("A web shop for handmade candles: ...").
  const list = inlineList(text);
  // "Today our flags are env variables, so every change is a redeploy": a consequence of the situation
  // is part of the story; after a request it is the request's purpose ("split the bundle, so the charts
  // load only where used"), and a wish after a story is work ("..., so I want to build ...").
  const so = list ? [] : splitOutside(text, /,\s+so\s+(?!that\b)/i);
  if (so.length === 2 && judgeSentence(so[0]!, p.inList) !== "work") {
    scope.context.push(trimItem(so[0]!));
    const rest = so[1]!;
    if (
      judgeSentence(rest, false) === "work" &&
      /\b(?:want|need|would|'d|’d|will|'ll|’ll|can|could|should|must|let)\b/i.test(rest)
    )
      place({ ...p, text: rest }, scope, requirements);
    else scope.context.push(trimItem(rest));
    return;
  }
  // Without a list, "; " joins clauses that stand on their own, and so does ", " before the writer
  // speaks ("nextjs, we already have a postgres db", "..., so they'd sign in with a class code").
  // ("As a manager, I want ..." is one user story.)
  const clauses =
    list || /^as an? /i.test(text) ? [text] : splitOutside(text, /;\s+|,\s+(?=(?:we|i|they|our|my)\s)/i);
  if (clauses.length > 1) {
    for (const clause of clauses) place({ ...p, text: clause }, scope, requirements);
    return;
  }
  if (
    list &&
    (SUBJECT_STATEMENT.test(list.head) ||
      NAMES_THE_PROJECT.test(list.head) ||
      (list.form !== "appositive" && (judgeSentence(list.head, true) === "work" || list.head === "")))
  ) {
    if (!scope.subject && (SUBJECT_STATEMENT.test(list.head) || NAMES_THE_PROJECT.test(list.head)))
      scope.subject = trimItem(
        list.head.replace(/^.*?\b(?:building|making|creating|developing|writing|working on)\s+/i, ""),
      );
    for (const item of list.items) {
      const itemText = withHead(list.head, item);
      if (judgeSentence(itemText, true) === "work")
        requirements.push({ ...p, text: itemText, statedIn: text });
      else scope.context.push(itemText);
    }
    return;
  }
  // A bare list of technologies ("nextjs", "Python, FastAPI") says what to build with, not what to build.
  if (isOnlyTechnology(text)) {
    scope.context.push(text);
    return;
  }
  const verdict = judgeSentence(p.text, p.inList);
  if (verdict === "question") {
    scope.questions.push(text);
    return;
  }
  if (verdict === "context") {
    scope.context.push(text);
    return;
  }
  // "The teacher gets an overview, and she exports the month": two things stated in one sentence.
  const coordinated = coordinatedClauses(text, p.inList);
  if (coordinated) {
    for (const part of coordinated)
      requirements.push({ ...p, text: withoutAside(part, scope), statedIn: text });
    return;
  }
  // "Sync via the browser's storage, no server": a trailing clause that rules something out.
  const trailing = splitOutside(text, /,\s+(?=(?:no|not|without)\s)/i);
  if (
    trailing.length > 1 &&
    trailing.slice(1).every((t) => NO_ITEM.test(t) || /^(?:not|without)\s[\w' -]{1,40}$/i.test(t))
  ) {
    scope.nonGoals.push(...trailing.slice(1).map(trimItem));
    place({ ...p, text: trailing[0]! }, scope, requirements);
    return;
  }
  // "train → validate → deploy": a chain of steps in one line.
  const chain = splitOutside(text, /\s*(?:->|→|=>|⟶)\s*/);
  if (chain.length >= 3) {
    const id = 1_000_000 + requirements.length;
    for (const step of chain) requirements.push({ ...p, text: step, statedIn: text, sequence: id });
    return;
  }
  requirements.push({ ...p, text: withoutAside(text, scope) });
}

/** A finite verb after a short subject: what makes a part a clause of its own. */
const CLAUSE_VERB =
  "is|are|gets?|get paid|can|will|should|must|has|have|shows?|sends?|sees?|receives?|updates?|moves?|becomes?|stays?|keeps?|goes|lands?|links?|writes?|reads?|runs?|stops?|starts?|appears?|opens?|closes?|fires?|fails?|wants?|needs?|likes?|uses?|tracks?|logs?|picks?|chooses?|exports?|imports?|adds?|creates?|books?|pays?|happens?|works?|lives?|holds?|lists?|counts?|expires?|renews?|resets?|syncs?|notifies?|reminds?";
/** A finite verb after a subject of a few words: what makes a part a clause of its own. */
const CLAUSE = new RegExp(
  `^(?!(?:and|or|but|so|to|with|for|by|in|on|at|of)\\b)(?:[\\w'’-]+\\s+){1,4}?(?:${CLAUSE_VERB})\\b`,
  "i",
);

/**
 * Two things asked in one sentence: clauses joined by ", and" (or ", or" between alternatives), each
 * with its own subject and verb or each an instruction; and, in a list item, two named parts joined by
 * "and" ("RDS for PostgreSQL 15 and ElastiCache for Redis").
 */
function coordinatedClauses(text: string, inList: boolean): string[] | null {
  const starts = (s: string) => CLAUSE.test(s) || startsWithInstruction(s) || IMPERATIVE_START.test(s);
  const parts = splitOutside(text, /,\s+(?:and|or)\s+/i).map((s) => s.trim());
  if (parts.length >= 2 && parts.every((s) => s.split(/\s+/).length >= 3)) {
    // Every part after the first starts a clause or an instruction of its own; or, after an
    // instruction, names a thing of its own ("Import and export BeerXML, and a brew-day timer").
    const thing = (s: string) => /^(?:a|an)\s/i.test(s) && starts(parts[0]!);
    if (parts.slice(1).every((s) => starts(s) || thing(s))) return parts;
  }
  // "Usage_events becomes a partitioned table, the metadata field stays JSONB": two clauses by a comma.
  const spliced = splitOutside(text, /,\s+(?!(?:and|or|but|so|which|who|where|when|with|then)\b)/i).map((s) =>
    s.trim(),
  );
  const copular =
    /^(?:[\w'’-]+\s+){1,4}?(?:is|are|becomes?|stays?|remains?|gets?|has|have|can|will|should|must|goes|moves?)\b/i;
  if (spliced.length === 2 && spliced.every((s) => s.split(/\s+/).length >= 4 && copular.test(s)))
    return spliced;
  // "Queue the changes and sync them when back online": two instructions.
  const both = splitOutside(text, /\s+and\s+(?=\w)/i).map((s) => s.trim());
  if (
    both.length === 2 &&
    !/,/.test(both[0]!) &&
    both.every((s) => s.split(/\s+/).length >= 3 && (startsWithInstruction(s) || IMPERATIVE_START.test(s)))
  )
    return both;
  if (!inList || /,/.test(text)) return null;
  const two = splitOutside(text, /\s+and\s+/i).map((s) => s.trim());
  if (two.length !== 2) return null;
  const named = (s: string) =>
    s.split(/\s+/).length >= 2 &&
    s.split(/\s+/).length <= 6 &&
    /^[A-Z]/.test(s) &&
    !/\b(?:is|are|can|will|should|must|has|have)\b/i.test(s);
  return two.every(named) ? two : null;
}

/**
 * A remark joined to a requirement by a comma ("Dark mode is a must, stages are dark!", "..., fair
 * enough") is context: a last clause with its own subject and a verb of being, or a stock remark.
 */
function withoutAside(text: string, scope: StatedScope): string {
  const parts = splitOutside(text, /,\s+/);
  if (parts.length < 2) return text;
  const last = parts[parts.length - 1]!.replace(/[!.]+$/, "");
  const aside =
    /^(?:[\w'’-]+\s+){1,3}(?:is|are|was|were|gets?|get)\s+[\w'’-]+$/i.test(last) ||
    /^(?:and |but )?(?:who am i to|why not|what could go wrong|go figure|if you ask me|haha|lol)\b/i.test(
      last,
    ) ||
    /^(?:fair enough|of course|obviously|naturally|no doubt|i guess|i think|i hope|i suppose|if possible|ideally|thanks|please)$/i.test(
      last,
    );
  if (!aside) return text;
  scope.context.push(last);
  return parts.slice(0, -1).join(", ");
}

/**
 * An item with the part of its head it needs to be understood: an actor's modal ("Users can") stays with
 * verb items ("Users can send reminders"); a product head does not (the item "order history" is whole).
 */
function withHead(head: string, item: string): string {
  const modal = head.match(
    new RegExp(
      `^(.{0,60}?\\b(?:can|should be able to|must be able to|will be able to|should|must|will|need to|needs to|want to|wants to)|(?:the |our |each |every |all |registered |logged[- ]in )?(?:${ACTOR_NOUN}))\\s*$`,
      "i",
    ),
  );
  return modal ? `${modal[1]} ${item}` : item;
}

function isOnlyTechnology(text: string): boolean {
  const names = allNamed(namedTechnologies(text));
  if (names.length === 0) return false;
  let rest = text;
  for (const n of names) rest = rest.split(n).join(" ");
  return !/[\p{L}]{3,}/u.test(
    rest.replace(/\b(?:and|or|with|on|in|plus|nextjs|next|js|db|the|a|an|for|using|via)\b/gi, " "),
  );
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
