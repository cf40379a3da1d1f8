import type { TaskFile } from "../../../../shared/schemas/repository-map";
import { domainChecksFor } from "../../reading/signals";
import type { Requirement } from "../../reading/types";
import { estimateRequirement } from "./estimate";

/**
 * The nodes of the offline planner (decision 014): a stated requirement as a leaf that quotes it, groups
 * that quote what they hold, and the helpers that title and order them. No title is assembled from
 * fragments of the user's sentences: a title is either fixed wording or a whole requirement.
 */
export type OutlineNode = {
  title: string;
  /** What the task is, below its title, when the title alone does not say it (the requirement as stated). */
  body?: string;
  details: string;
  criteria: string[];
  requirementIds: string[];
  /** Developer-hours by rule, subtasks included. */
  hours: number;
  children: OutlineNode[];
  /** Every requirement this node covers, in full, so a node that is not split further still quotes them. */
  covers: Requirement[];
  /** Its place in the order among its siblings (offline/stated-order.ts); none for a feature. */
  role?: OutlineRole;
  /**
   * The series of steps done in turn this node belongs to (a kind's own steps, or steps the text states
   * in order): it waits for the sibling before it in the same series.
   */
  sequence?: string;
  /** Its step in that series, when several nodes share a step (done side by side); else its position. */
  step?: number;
  /** The files it most likely touches, when the plan is on a repository (issue 42; offline/files.ts). */
  files?: TaskFile[];
};

/** setup comes first, release last; within a release, checks ("verify") come before shipping ("ship"). */

export type OutlineRole = "setup" | "release" | "verify" | "ship";

export const as = <T extends OutlineNode>(node: T, role: OutlineRole): T => ({ ...node, role });
/** Marks nodes as steps of one series, done in the order given. */
export const inSequence = (nodes: OutlineNode[], series = "steps") =>
  nodes.map((n) => ({ ...n, sequence: series }));

const TITLE_CHARS = 140;
/** Past this length a title ends at its first clause, when that clause holds at least MIN_CLAUSE characters. */
const LONG_TITLE = 90;
const MIN_CLAUSE = 30;
const WISH_START =
  /^(?:so |and |also |basically |ideally )?(?:i|we)(?: also| really| just)?(?: would|'d|’d)? (?:want|need|like|wish)(?:s)?(?: to have| to)?\s+/i;
/**
 * How people open a wish, a polite request or a story, before the thing wanted: "It would be great if I
 * could", "It should also be possible to", "Would it be possible to", "Could we also", "Let's", "As an
 * admin I want to be able to", "Ideally with", "Plus,". A title keeps what is wanted.
 */
const WISH_OPENER =
  /^(?:(?:it|this|that)\s+(?:would|'d|’d|will)\s+(?:(?:really|also|just)\s+)?(?:help(?:\s+(?:a lot|a great deal|me|us))?|be\s+(?:\w+\s+)?(?:great|nice|good|cool|awesome|useful|handy|helpful|ideal|lovely|amazing)(?:\s+to\s+have)?)\s+(?:if|to|when)\s+(?:(?:i|we|you|users?|people|one|they|admins?|members?)\s+(?:could|can|would be able to|were able to|had)\s+)?|(?:it|this)\s+(?:should|must|needs? to|has to)\s+(?:also\s+)?be\s+possible\s+(?:for\s+\w+\s+)?to\s+|(?:would|could|can|will)\s+(?:it\s+be\s+possible\s+(?:for\s+\w+\s+)?to|(?:you|we|i|users?|people|admins?|members)(?:\s+(?:please|also|maybe|perhaps))*(?:\s+be\s+able\s+to)?)\s+(?:please\s+|also\s+)*|let(?:'s|’s| us)\s+|as\s+an?\s+[\w' -]{1,40}?,?\s+(?:i|we)\s+(?:want|need|would like|'d like)\s+(?:to\s+be\s+able\s+)?to\s+|(?:ideally|preferably|optionally),?\s+(?:with\s+)?|plus,?\s+|(?:there|we)\s+(?:should|could|must|need to|would)\s+(?:also\s+)?(?:be|have)\s+(?=an?\s|the\s|some\s)|(?:we|i)(?:'ll|’ll|\s+will|\s+shall)\s+)/i;
/** A template's answer prefix ("Beispiel:", "Example:"): the form's words, not the writer's. */
const TEMPLATE_PREFIX = /^(?:beispiel|example|e\.g\.|answer|antwort|response)\s*:\s*/i;
const WISH_INSIDE =
  /[\s,;(]+(?:and |but |so |also )*(?:i|we)(?: also| really| just)?(?: would|'d|’d)? (?:want|need|like|wish)\b/i;
const DANGLING_END = /\s(?:that|this|it|them|one|a|an|the|and|or|to|of|for|with)$/i;
const DANGLING = /\s+(a|an|the|and|or|but|to|of|for|in|on|with|by|at|from|as|into|that|which|so)$/i;

/**
 * Where a bracketed aside of four words or more that ends the text opens, or -1. Scanned, not matched
 * with a regular expression: the pattern this replaces backtracked for seconds on a long requirement
 * with an unclosed bracket.
 */
function trailingAside(t: string): number {
  const end = t.trimEnd();
  if (!end.endsWith(")")) return -1;
  const open = end.lastIndexOf("(");
  const inner = open < 0 ? ")" : end.slice(open + 1, -1);
  return !inner.includes(")") && (inner.match(/\s/g)?.length ?? 0) >= 3 ? open : -1;
}

/** A requirement as a title: the user's words, first letter capitalised, cut at a word if very long. */
/** Where the first clause of `t` ends, outside brackets and quotes: at a comma or a joining word; -1 if nowhere. */
function firstClauseEnd(t: string): number {
  const boundary =
    /^(?:,\s+|\s+(?:and(?: then)?|until|unless|which|so that|whenever|together with|as well as)\s+)/i;
  // "For the two most promising options, build ...": a comma that closes an opening phrase is not the end.
  const opening =
    /^(?:for|in|on|at|to|when|whenever|if|once|after|before|as soon as|while|during|with|without|by|from|unless|since|because)\b/i.test(
      t,
    );
  let depth = 0;
  let quoted = false;
  let commas = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if (c === '"') quoted = !quoted;
    else if (depth === 0 && !quoted && (c === "," || c === " ") && boundary.test(t.slice(i))) {
      if (c === ",") commas++;
      if (opening && c === "," && commas === 1) continue;
      if (i >= MIN_CLAUSE) return i;
    }
  }
  return -1;
}

/** "builds" → "build", "fetches" → "fetch", "notifies" → "notify"; null for a verb that says how things are. */
function baseForm(verb: string): string | null {
  const v = verb.toLowerCase();
  if (/^(?:is|was|has|does|goes|needs|wants|seems|looks|means|belongs|lives|stays|remains)$/.test(v))
    return null;
  if (/ies$/.test(v)) return `${v.slice(0, -3)}y`;
  if (/(?:sh|ch|x|ss|zz)es$/.test(v)) return v.slice(0, -2);
  return v.slice(0, -1);
}

export function titleText(text: string, max = TITLE_CHARS): string {
  // "We want to build X" reads as "Build X", "we need an EDC system" as "An EDC system": the subject
  // and the wish are dropped, the user's words kept. A wish later in the sentence ends the title there.
  let t = text.replace(/\s+/g, " ").trim().replace(TEMPLATE_PREFIX, "");
  // "It would help a lot if we could pull records from a CSV file" is "Pull records from a CSV file".
  for (let k = 0; k < 2; k++) t = t.replace(WISH_OPENER, "");
  t = t.replace(WISH_START, "").replace(/\?$/, "");
  // "It builds the docker image", "they get a reminder": the pronoun points at a sentence the title does
  // not have; the title says what to do ("Build the docker image").
  t = t.replace(
    /^(?:it|they)\s+(?:then\s+|also\s+)?([a-z]+s)\b/i,
    (whole, verb: string) => baseForm(verb) ?? whole,
  );
  // "Adding another page" is "Add another page": a title says what to do.
  t = t.replace(
    /^(add|build|creat|mak|allow|show|let|send|support|enabl|introduc|replac|mov|remov)(?:ing)\b/i,
    (_, v: string) =>
      /^(creat|mak|enabl|introduc|replac|mov|remov)$/i.test(v) ? `${v}e` : v === "let" || v === "Let" ? v : v,
  );
  const wish = t.search(WISH_INSIDE);
  if (wish > 15) t = `${t.slice(0, wish).replace(/[\s,;:-]+$/, "")}…`;
  // A title says what, not why: "The history per unit so I can see that ..." is "The history per unit".
  const why = t.search(
    /,?\s+(?:so (?:that )?(?:i|we|you|they|he|she|it|users|people|customers|members|players|kids|everyone|nobody|no one)\b|so that\b|because|since (?:we|i|the|it))\b/i,
  );
  // A bracketed aside at the end ("(half our juniors sit on the wrong side otherwise)") is for the notes.
  const aside = trailingAside(t);
  if (aside >= 0) t = t.slice(0, aside).trimEnd();
  if (why >= 10) t = `${t.slice(0, why).replace(/[\s,;:-]+$/, "")}…`;
  t = t.replace(/\s+(?:after that|as well|too|then)$/i, "");
  // Words the user trailed off with ("... incremental sync after that") end a title badly: stop at the comma.
  if (DANGLING_END.test(t)) {
    const comma = t.lastIndexOf(", ");
    const clause = t.search(
      /\s(?:if|when|unless|as long as|once|after|before)\s(?!.*\s(?:if|when|unless)\s)/i,
    );
    if (comma > 20) t = `${t.slice(0, comma)}…`;
    else if (clause > 20) t = `${t.slice(0, clause)}…`;
  }
  // A long sentence is titled by its first clause, where it has one of a fair length; the rest is in
  // the leaf's description ("The request is published to every driver…", not the whole sentence).
  if (t.length > LONG_TITLE) {
    const at = firstClauseEnd(t.slice(0, max));
    if (at >= MIN_CLAUSE) t = `${t.slice(0, at).replace(/[\s,;:-]+$/, "")}…`;
  }
  if (t.length > max) {
    t = t.slice(0, max).replace(/\s+\S*$/, "");
    // An opening bracket or quote whose closing one was cut off goes, with what follows it.
    for (const [open, close] of [
      ["(", ")"],
      ["[", "]"],
      ['"', '"'],
    ] as const) {
      const opens = t.split(open).length - 1;
      const closes = open === close ? 0 : t.split(close).length - 1;
      if (open === close ? opens % 2 === 1 : opens > closes) t = t.slice(0, t.lastIndexOf(open));
    }
    t = t.replace(/[\s,;:.-]+$/, "");
    while (DANGLING.test(t)) t = t.replace(DANGLING, "");
    t = `${t}…`;
  }
  t = t.replace(/(?<!\.)\.$/, "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export const quote = (r: Requirement) => `${r.id}: "${r.text}"`;

/** What a planned node's notes and each criterion may hold (plannedSubtask in schemas/plan.ts). */
const NOTES_CHARS = 4000;
const CRITERION_CHARS = 500;

/** Text cut at a word to fit `max` characters, marked as cut. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${/\s/.test(cut) ? cut.replace(/\s+\S*$/, "") : cut}…`;
}

/**
 * Notes that fit the plan's bound: whole lines while they fit, then how many more the description has.
 * A description may state a requirement of thousands of characters, or hundreds of criteria to quote.
 */
export function boundedNotes(text: string, max = NOTES_CHARS): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  const more = (n: number) => `... and ${n} more line${n === 1 ? "" : "s"} (see the description).`;
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const rest = lines.length - i - 1;
    const room = max - used - (rest > 0 ? more(rest).length + 1 : 0);
    if (line.length <= room) {
      out.push(line);
      used += line.length + 1;
      continue;
    }
    // The first line that does not fit is cut at a word where a useful part of it fits (a requirement
    // of thousands of characters may be the only line), else counted with the rest.
    if (out.length === 0 || room >= 200) {
      out.push(cutText(line, room));
      if (rest > 0) out.push(more(rest));
    } else out.push(more(rest + 1));
    break;
  }
  return out.join("\n");
}

export function leaf(
  title: string,
  details: string,
  criteria: string[],
  hours: number,
  covers: Requirement[] = [],
): OutlineNode {
  return {
    title,
    details: boundedNotes(details),
    criteria: criteria.map((c) => cutText(c, CRITERION_CHARS)),
    requirementIds: covers.map((r) => r.id),
    hours,
    children: [],
    covers,
  };
}

const INPUT =
  /\b(create|add|edit|enter|submit|upload|import|forms?|sign[- ]?up|register|book|invite|post|write|update|fill)\b/i;

export function requirementLeaf(r: Requirement, title = `${r.id}: ${titleText(r.text)}`): OutlineNode {
  const estimate = estimateRequirement(r.text);
  const checks = domainChecksFor(r.text);
  const details = [
    `${r.id} as stated: "${r.text}"`,
    ...(r.section ? [`From the description's "${r.section}"`] : []),
    ...(r.statedIn
      ? [`Part of: "${r.statedIn.length > 400 ? `${r.statedIn.slice(0, 397)}...` : r.statedIn}"`]
      : []),
    `Estimated by rule: about ${estimate.hours} h (${estimate.why.join(", ")}). Adjust it when the team knows more.`,
    ...checks.map((c) => `Suggested checks (${c.name}): ${c.checks.join("; ")}.`),
  ].join("\n");
  const criteria = [
    `Shown working as ${r.id} states: "${r.text.length > 300 ? `${r.text.slice(0, 297)}...` : r.text}"`,
    "An automated test covers it and fails without it",
  ];
  if (INPUT.test(r.text))
    criteria.push("Invalid or missing input is refused with a clear message and changes nothing");
  // Deleting or changing many things at once is asked for twice, or can be undone.
  if (/\b(?:delet\w*|remov\w*|bulk|batch|all (?:of )?(?:them|selected)|in one go|mass)\b/i.test(r.text))
    criteria.push("Deleting or changing many at once asks to confirm first, or can be undone");
  if (checks[0]) criteria.push(`${checks[0].name}: ${checks[0].checks[0]}`);
  const stated = r.statedIn ?? r.text;
  // Where the text said it ("Under “Table schema”"): what a section heading adds to each of its items.
  const under = r.section
    ? `Under "${r.section.length > 120 ? `${r.section.slice(0, 117)}...` : r.section}".`
    : "";
  const said = title.replace(/…$/, "") === `${r.id}: ${stated}` ? "" : `As stated: "${stated}"`;
  const body = [said, under].filter(Boolean).join("\n") || undefined;
  return { ...leaf(title, details, criteria, estimate.hours, [r]), ...(body ? { body } : {}) };
}

/** A node grouping others: its notes quote every requirement below it, so nothing is lost if it stays a leaf. */
export function group(title: string, children: OutlineNode[], intro?: string): OutlineNode {
  const covers = uniqueById(children.flatMap((c) => c.covers));
  const lines = [intro ?? (covers.length ? `Covers ${idList(covers, 600)}.` : "Cross-cutting work.")];
  let budget = 3500 - lines[0]!.length;
  const listed = [
    ...covers.map(quote),
    ...children.filter((c) => c.covers.length === 0).map((c) => `Also: ${c.title}`),
  ];
  for (const [i, line] of listed.entries()) {
    if (line.length + 3 > budget) {
      lines.push(`... and ${listed.length - i} more (see the description).`);
      break;
    }
    lines.push(`- ${line}`);
    budget -= line.length + 3;
  }
  return {
    title,
    details: boundedNotes(lines.join("\n")),
    criteria: [
      "Every subtask below meets its acceptance criteria",
      covers.length
        ? `${idList(covers, 300)} shown working together on one build`
        : "Reviewed by a second person on the team",
    ],
    requirementIds: covers.map((r) => r.id),
    hours: children.reduce((sum, c) => sum + c.hours, 0),
    children,
    covers,
  };
}

export function uniqueById(list: Requirement[]): Requirement[] {
  const byId = new Map<string, Requirement>();
  for (const r of list) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}

/** "R1-R3, R5": ids in order, runs collapsed; past `max` characters, "120 requirements from R3 to R410". */
export function idList(list: Requirement[], max = Number.POSITIVE_INFINITY): string {
  const nums = list.map((r) => Number(r.id.slice(1))).sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < nums.length; i++) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    runs.push(
      j > i + 1 ? `R${nums[i]}-R${nums[j]}` : j === i + 1 ? `R${nums[i]}, R${nums[j]}` : `R${nums[i]}`,
    );
    i = j;
  }
  const all = runs.join(", ");
  return all.length <= max
    ? all
    : `${nums.length} requirements from R${nums[0]} to R${nums[nums.length - 1]}`;
}
