/**
 * What a description states, read by rule (decision 014): every requirement as a traceable item (R1, R2,
 * ...) kept in the user's own words, and the explicit non-goals. Both planners use it: the offline outline
 * plans one node per requirement, and a model is given the list with its ids and asked to trace them.
 *
 * A requirement is a bullet or numbered item, a sentence, or a clause of a sentence joined by ";". A
 * heading ("Goals:", "## Scope", "**Non-goals**") opens a section; items under a non-goal heading
 * ("non-goals", "out of scope", "not in v1", "later", "future") are non-goals, and so is any item that
 * says so itself ("video calls are out of scope", "no db needed", "export later maybe"). Items under a
 * background heading ("background", "context", "problem", "why") are context, not work. Nothing is
 * dropped or capped; exact and near-identical repeats are merged into one requirement.
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
};

export type StatedScope = {
  requirements: Requirement[];
  nonGoals: string[];
  /** Background statements: shown to planners as context, never planned as work. */
  context: string[];
};

const NON_GOAL_HEADING =
  /^(non[- ]?goals?|out[- ]of[- ]scope|not in (v\d+|scope|this (release|version))|won'?t (do|have)|not now|later|future( work| ideas)?|maybe later|nice[- ]to[- ]haves? later|explicitly not)\b/i;
const CONTEXT_HEADING =
  /^(background|context|problem( statement)?|motivation|why|about( us)?|today|current state)\b/i;
/** An item that declares itself out of scope. */
const NON_GOAL_ITEM =
  /\b(out[- ]of[- ]scope|non[- ]goals?|not (in|for) (v\d+|the first (release|version)|scope|now|this release|mvp)|(later|someday),? maybe|maybe later|not needed|no need (for|to)|(do not|don'?t|won'?t|will not) (need|build|support|do|include|handle|want|bother)|not (required|a goal|planned)|isn'?t needed|aren'?t needed|we skip|skip(ping)? for now|(post|after)[- ](v1|mvp|launch))\b/i;
/** "no db needed", "no login": a short negative statement of scope. */
const NO_ITEM = /^no\s+[\w .-]{1,40}(needed|required|necessary)?\.?$/i;

const ABBREVIATIONS = /\b(e\.g|i\.e|etc|vs|approx|incl|mr|mrs|ms|dr|no|fig|cf|st)\.$/i;

/** A line that is a heading: markdown "#", bold on its own, or a short label ending in ":". */
function headingOf(line: string): { heading: string; rest: string } | null {
  const md = line.match(/^#{1,6}\s+(.+?)\s*#*$/);
  if (md) return { heading: clean(md[1]!), rest: "" };
  const bold = line.match(/^\*\*([^*]{1,80})\*\*:?\s*(.*)$/) ?? line.match(/^__([^_]{1,80})__:?\s*(.*)$/);
  if (bold && (bold[2] === "" || /:\s*$/.test(bold[1]!) || /\*\*:/.test(line)))
    return { heading: clean(bold[1]!.replace(/:$/, "")), rest: bold[2] ?? "" };
  const label = line.match(/^([A-Za-z][\w ()/'&-]{0,40}):\s*(.*)$/);
  if (label && label[1]!.split(/\s+/).length <= 5) {
    const name = label[1]!;
    // "Goals:", "Non-goals: video calls" are headings; "Note: ..." or a sentence with a colon is not.
    if (
      label[2] === "" ||
      NON_GOAL_HEADING.test(name) ||
      CONTEXT_HEADING.test(name) ||
      /^(goals?|scope|v\d+( scope)?|mvp|requirements?|features?|must[- ]haves?|should[- ]haves?|nice[- ]to[- ]haves?|users?|stack|tech( stack)?|constraints?|deliverables?|milestones?)\b/i.test(
        name,
      )
    )
      return { heading: clean(name), rest: label[2] ?? "" };
  }
  return null;
}

const BULLET = /^\s*(?:[-*•+]|\d{1,3}[.)]|[a-z][.)]|\[[ xX]?\])\s+/;

function clean(text: string): string {
  return text
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences of one paragraph: split at . ! ? followed by a space, not after an abbreviation. */
function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ((c === "." || c === "!" || c === "?") && /\s/.test(text[i + 1] ?? "")) {
      const piece = text.slice(start, i + 1);
      if (c === "." && ABBREVIATIONS.test(piece)) continue;
      out.push(piece);
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out
    .flatMap((s) => s.split(/;\s+/))
    .map(clean)
    .filter(Boolean);
}

/** Drops a trailing full stop and list punctuation; keeps question and exclamation marks as they are. */
function trimItem(text: string): string {
  return clean(text)
    .replace(/^[,;:\s-]+/, "")
    .replace(/[.,;:\s]+$/, "");
}

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

const STOP = new Set(
  "a an the and or to of for in on with by at from is are be it this that we our i you".split(" "),
);
export function wordSet(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, " ")
      .split(/\s+/)
      .filter((w) => w && !STOP.has(w)),
  );
}
export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / (a.size + b.size - common);
}
/** Near-identical statements: same words, give or take one in five (token-set Jaccard >= 0.8). */
export const NEAR_DUPLICATE = 0.8;

type RawItem = { text: string; section: string | null; kind: "requirement" | "non_goal" | "context" };

/** Reads the description (and the additional requirements, when given) into requirements and non-goals. */
export function extractScope(description: string, additional: string | null = null): StatedScope {
  const items: RawItem[] = [];
  for (const [source, text] of [
    ["description", description],
    ["additional", additional ?? ""],
  ] as const) {
    let section: string | null = source === "additional" ? "Additional requirements" : null;
    let sectionKind: RawItem["kind"] = "requirement";
    let paragraph: string[] = [];
    let labelled = false;
    let itemsAtHeading = 0;
    const flush = () => {
      if (paragraph.length === 0) return;
      for (const s of sentences(paragraph.join(" "))) push(s, section, sectionKind);
      paragraph = [];
    };
    const push = (raw: string, sec: string | null, kind: RawItem["kind"]) => {
      const t = trimItem(raw);
      if (!t || !/[\p{L}\p{N}]/u.test(t)) return;
      const own = kind === "requirement" && (NON_GOAL_ITEM.test(t) || NO_ITEM.test(t)) ? "non_goal" : kind;
      items.push({ text: t, section: sec, kind: own });
    };
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (!line || /^[-=*_]{3,}$/.test(line)) {
        flush();
        // A "Label:" section ends at the first blank line after its items; a markdown heading's does not.
        if (!line && labelled && items.length > itemsAtHeading) {
          section = source === "additional" ? "Additional requirements" : null;
          sectionKind = "requirement";
          labelled = false;
        }
        continue;
      }
      const heading = BULLET.test(line) ? null : headingOf(line);
      if (heading) {
        flush();
        labelled = !/^#/.test(line);
        itemsAtHeading = items.length;
        section = heading.heading;
        sectionKind = NON_GOAL_HEADING.test(section)
          ? "non_goal"
          : CONTEXT_HEADING.test(section)
            ? "context"
            : "requirement";
        if (heading.rest) {
          labelled = true;
          // "Non-goals: video calls, native apps" lists its items inline.
          const parts =
            sectionKind === "non_goal" ? heading.rest.split(/,\s*|;\s*/) : sentences(heading.rest);
          for (const p of parts) push(p, section, sectionKind);
        }
        continue;
      }
      if (BULLET.test(line)) {
        flush();
        let item = line.replace(BULLET, "");
        // A wrapped bullet continues on indented lines that are not bullets themselves.
        while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]!) && !BULLET.test(lines[i + 1]!)) {
          item += ` ${lines[++i]!.trim()}`;
        }
        for (const s of sentences(item)) push(s, section, sectionKind);
        continue;
      }
      // Prose: a long line without an ending continues on the next (hard-wrapped text); short lines stand alone.
      paragraph.push(line);
      if (/[.!?:]$/.test(line) || line.length < 60) flush();
    }
    flush();
  }

  const requirements: Requirement[] = [];
  const seen: Set<string>[] = [];
  for (const item of items.filter((i) => i.kind === "requirement")) {
    const words = wordSet(item.text);
    if (words.size === 0) continue;
    // A repeat (the same words, or near enough) is one requirement, stated once.
    if (seen.some((s) => similarity(s, words) >= NEAR_DUPLICATE)) continue;
    seen.push(words);
    requirements.push({
      id: `R${requirements.length + 1}`,
      text: item.text,
      section: item.section,
      ...actorOf(item.text),
    });
  }
  return {
    requirements,
    nonGoals: unique(items.filter((i) => i.kind === "non_goal").map((i) => i.text)),
    context: unique(items.filter((i) => i.kind === "context").map((i) => i.text)),
  };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
