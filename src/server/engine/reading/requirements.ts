import { NEAR_DUPLICATE, similarity, wordSet } from "../../lib/words";
import { actorOf } from "./actors";
import { type Block, readBlocks } from "./blocks";
import { inlineList } from "./inline-list";
import { titleReportsFault } from "./kind";
import {
  IMPERATIVE_START,
  isExplicitAsk,
  NON_GOAL_ITEM,
  type Pending,
  place,
  SUBJECT_STATEMENT,
  trimItem,
  unique,
} from "./place";
import {
  IN_ORDER,
  isBareHeading,
  labelHeading,
  type SectionKind,
  STEP_SECTION,
  sectionKind,
  sectionLike,
  THEN,
  tableText,
  WORK_HEADING,
} from "./sections";
import { CONDITION_FIRST, judgeSentence, sentences, splitOutside, startsWithInstruction } from "./sentences";
import type { Requirement, StatedScope } from "./types";

/**
 * What a description states, read as an engineer reads it (decisions 014 and 027): the work it asks for,
 * as traceable requirements (R1, R2, ...) in the user's own words, and everything else kept apart. Both
 * planners use it: the offline planner plans from it, and a model is given the list with its ids.
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

/** Names that label an item rather than name a feature ("**Note** - ..."). */
const GENERIC_NAME =
  /^(?:note|notes|example|e\.g|tip|hint|warning|caution|important|nb|ps|update|edit|info|fyi|why|reason|context|todo)$/i;
/** What an item says of itself when it is wanted, but not now. */
const DEFERRED_DETAIL =
  /\b(?:(?:isn'?t|is not|not)\s+(?:very\s+|that\s+)?high\s+on\s+(?:my|our|the)\s+(?:priority\s+)?list|low(?:er)?\s+priority|not\s+a\s+priority(?:\s+(?:for now|right now|yet))?|(?:maybe|perhaps)\s+(?:one day|someday|eventually|later))\b/i;

/** A field with its type ("username (text)"), or an identifier ("user_id", "createdAt"). */
const FIELD_ITEM =
  /^(?:[\w.-]{1,40}\s*\((?:[\w\s,.[\]-]{1,30})\)|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)(?:\s*[:–—-]\s*[\w\s,()]{0,40})?$/;
/** Words that say a list names fields: "Fields:", "Columns", "Each pet has: ...". */
const FIELD_WORDS =
  /\b(?:fields?|columns?|attributes?|properties|table|schema|model|entity|record|has:|have:)\b/i;

/** The lists whose items are fields of one thing, by list id: its first item and the items. */
function fieldListsOf(blocks: Block[]): Map<number, { first: Block; items: string[] }> {
  const lists = new Map<number, Extract<Block, { type: "item" }>[]>();
  blocks.forEach((b) => {
    if (b.type === "item" && b.checked === null) lists.set(b.list, [...(lists.get(b.list) ?? []), b]);
  });
  const out = new Map<number, { first: Block; items: string[] }>();
  for (const [id, items] of lists) {
    if (items.length < 2) continue;
    const at = blocks.indexOf(items[0]!);
    const before = blocks[at - 1];
    const said = before && before.type !== "aside" ? before.text : "";
    const typed = items.filter((b) => FIELD_ITEM.test(b.text.trim())).length;
    // Two items are fields only when both say so ("user_id (UUID)", "list_external_id (text)").
    if (items.length === 2 && typed < 2) continue;
    const short = items.every((b) => b.text.trim().split(/\s+/).length <= 3 && !/[.!?]$/.test(b.text.trim()));
    if (typed >= Math.ceil(items.length * 0.7) || (short && FIELD_WORDS.test(said)))
      out.set(id, { first: items[0]!, items: items.map((b) => trimItem(b.text)) });
  }
  return out;
}

/** A sentence without the condition it opens with: "When a machine is broken, offer ..." → "offer ...". */
const mainClause = (s: string) => s.replace(CONDITION_FIRST, "");

/** An item that lists what a record holds: "Covers the donor's name, the amount given, the date". */
const FIELDS_OF =
  /^(?:covers|includes|including|contains|consists of|is made up of|made up of|fields?:|with (?:the )?fields?|attributes?:|columns?:)\s+/i;

/** The items of one list, in order. */
function listItems(blocks: Block[], list: number): Block[] {
  return blocks.filter((b) => b.type === "item" && b.list === list);
}

/**
 * The first item of a list that says it waits for the ones above it ("blocked until the steps above are
 * finished", "once everything above is done", "after the above"), or -1.
 */
function waitsForAbove(blocks: Block[], list: number): number {
  return listItems(blocks, list).findIndex((b) =>
    /\b(?:blocked (?:until|by)|(?:only )?(?:once|after|when) (?:all )?(?:of )?(?:the |these |those )?(?:steps?|items?|tasks?|everything|things?|changes?)? ?(?:above|before (?:it|this)|previous(?:ly)?|prior)|(?:the )?(?:steps?|items?|tasks?) above (?:are|is) (?:done|finished|complete))/i.test(
      "text" in b ? b.text : "",
    ),
  );
}

/**
 * A list of instructions that says its own order: a later item starts with "Then", "Finally" or "After
 * that", or says "afterwards" ("- Take a snapshot … - Discard the copy afterwards - Then do it for real").
 */
function saysItsOrder(blocks: Block[], list: number): boolean {
  const items = blocks.filter(
    (b): b is Extract<Block, { type: "item" }> => b.type === "item" && b.list === list,
  );
  if (items.length < 3) return false;
  const steps = items.filter((b) => startsWithInstruction(b.text.replace(THEN, ""))).length;
  return (
    steps >= Math.ceil(items.length * 0.6) &&
    items
      .slice(1)
      .some(
        (b) => THEN.test(b.text) || /\b(?:afterwards|after that|once (?:that|this) is done)\b/i.test(b.text),
      )
  );
}

/** A short remark on the item before it: "It's our guinea pig.", "That one is optional." */
const REMARK_ON_ITEM =
  /^(?:it|this|that|they|these|those)(?:'s|’s|\s+(?:is|are|was|were|will be|would be))\b(?:\s+\S+){0,4}\s*[.!]?$/i;

/** A first line that names an issue's type before its title. */
const ISSUE_TITLE =
  /^\s*\[?(?:feature(?:\s+request)?|request|proposal|rfc|idea|enhancement|improvement|bug|spike|story|user story|epic|task|chore|housekeeping|refactor)\]?\s*[:\]-]\s*\S.{0,110}$/i;

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
    /** The "#" headings above the current line, with the kind each gave its section. */
    const outline: { level: number; kind: SectionKind }[] = [];
    /** The prose just before a list ("Do these in this order:"). */
    let lead = "";

    const first = blocks.findIndex((b) => b.type !== "aside");
    // Lists of fields ("- username (text)", "- user_id"): one thing with those fields, not a feature each.
    const fieldLists = fieldListsOf(blocks);
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
          // "Feature Request: Bulk Edits", "[BUG] Export fails": an issue's type, then its title.
          (ISSUE_TITLE.test(t) ||
            (block.type === "heading"
              ? block.level <= 3 && !sectionLike(t)
              : t.length <= 120 &&
                !/[.:]$/.test(t) &&
                sentences(t).length === 1 &&
                !sectionLike(t) &&
                t.split(/\s+/).length <= 18))
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
      // "Request Method: POST" under "Environment:": a field of what was observed, not a section of its own.
      if (
        heading &&
        block.type === "prose" &&
        heading.rest &&
        kind === "observed" &&
        sectionKind(heading.text) === "requirement"
      ) {
        scope.observed.push(trimItem(block.text));
        return;
      }
      if (heading) {
        lead = "";
        section = heading.text;
        kind = sectionKind(section);
        // A section's scope holds for the sections inside it: "## Future" over "#### Donations Module"
        // leaves the module for later; "Label:" lines and bold headings sit inside the last "#" heading.
        const level = block.type === "heading" && block.text === heading.text ? block.level : 7;
        while (outline.length && outline[outline.length - 1]!.level >= level) outline.pop();
        const parent = outline[outline.length - 1];
        if (kind === "requirement" && parent && (parent.kind === "non_goal" || parent.kind === "context"))
          kind = parent.kind;
        if (level < 7) outline.push({ level, kind });
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
          const ordered =
            STEP_SECTION.test(section ?? "") ||
            IN_ORDER.test(`${section ?? ""} ${lead}`) ||
            saysItsOrder(blocks, block.list);
          listSequence =
            (block.numbered && (ordered || kind === "reproduction")) ||
            saysItsOrder(blocks, block.list) ||
            waitsForAbove(blocks, block.list) > 0
              ? ++sequenceId
              : null;
          // A numbered list of features is not an order; one of instructions outside a feature list may be.
          if (block.numbered && listSequence === null && !WORK_HEADING.test(section ?? ""))
            listSequence = -++sequenceId;
        }
        // "* Holds donor data" / "  * Covers the donor's name, the amount, the date": what a record
        // covers is that record's fields, said with it: one requirement, not one per field.
        if (kind === "requirement" && FIELDS_OF.test(block.text)) {
          const parent = pending[pending.length - 1];
          const above = blocks[index - 1];
          const nested = above?.type === "item" && block.indent > above.indent && parent?.inList;
          if (nested && parent && !parent.whole && parent.section === section) {
            parent.text = `${trimItem(parent.text)}: ${trimItem(block.text.replace(FIELDS_OF, ""))}`;
            parent.whole = true;
          } else
            pending.push({
              text: block.text,
              section,
              kind,
              inList: true,
              sequence: null,
              statedIn: null,
              whole: true,
            });
          return;
        }
        const fields = fieldLists.get(block.list);
        if (fields && kind === "requirement") {
          if (fields.first === block) {
            const owner = section ?? (lead.replace(/:$/, "") || "A record");
            pending.push({
              text: FIELD_WORDS.test(owner)
                ? `${owner}: ${fields.items.join(", ")}`
                : `${owner} with ${fields.items.join(", ")}`,
              section,
              kind,
              inList: true,
              sequence: null,
              statedIn: null,
              whole: true,
            });
          }
          return;
        }
        // "**Music player** - plays music from …": one feature, named by the item; what follows describes it
        // (and may defer it: "not high on my priority list").
        if (block.name && kind === "requirement" && !GENERIC_NAME.test(block.name)) {
          const rest = block.text
            .slice(block.text.indexOf(block.name) + block.name.length)
            .replace(/^[\s:–—-]+/, "");
          if (NON_GOAL_ITEM.test(rest) || DEFERRED_DETAIL.test(rest)) scope.nonGoals.push(block.name);
          else
            pending.push({
              text: block.name,
              section,
              kind,
              inList: true,
              sequence: listSequence,
              statedIn: block.text,
              whole: true,
            });
          return;
        }
        // "- OS: Android 14", "- Browser: Firefox": a labelled observation, not an item of work.
        const label = labelHeading(block.text);
        const labelKind = label?.rest ? sectionKind(label.text) : null;
        const itemKind = labelKind === "observed" || labelKind === "stack" ? labelKind : kind;
        // An item's later sentences say more of it ("Spin up a copy. It's our guinea pig."), unless they
        // ask for something of their own.
        const said = sentences(block.text);
        // "Upgrade Vuetify (blocked until the steps above are done)": the items above it go side by side.
        const waits = waitsForAbove(blocks, block.list);
        const at = waits > 0 ? listItems(blocks, block.list).indexOf(block) : -1;
        const stepGroup = waits > 0 ? (at < waits ? 0 : at) : undefined;
        said.forEach((s, k) => {
          if (
            k > 0 &&
            itemKind === "requirement" &&
            !isExplicitAsk(mainClause(s)) &&
            !startsWithInstruction(s) &&
            (judgeSentence(s, false) !== "work" || REMARK_ON_ITEM.test(s))
          ) {
            scope.context.push(trimItem(s));
            return;
          }
          pending.push({
            text: s,
            section,
            kind: itemKind,
            inList: true,
            // Items after the one that waits wait for nothing the text says.
            sequence: waits > 0 && at > waits ? null : listSequence,
            statedIn: k === 0 && said.length > 1 && itemKind === "requirement" ? block.text : null,
            ...(stepGroup !== undefined ? { stepGroup } : {}),
          });
        });
        return;
      }
      lead = block.text;
      // Prose: its sentences, with "then" chaining a sequence.
      let previous: Pending | null = null;
      const said = sentences(block.text);
      const next = blocks[index + 1];
      for (const [k, s] of said.entries()) {
        // "There's a lot to do, for example:" opens the list below it; the list says what.
        if (k === said.length - 1 && /:$/.test(s) && next?.type === "item" && !startsWithInstruction(s)) {
          scope.context.push(trimItem(s));
          continue;
        }
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
    /^\s*(?:\*\*|#+\s*)?(?:describe the bug|bug report|bug description)\b/im.test(description) ||
    /^\s*\[?bug\]?\s*[:\]]/i.test(title) ||
    titleReportsFault(scope.title) ||
    (scope.observed.length > 0 && scope.criteria.length > 0);
  if (bugReport) {
    for (let i = requirementItems.length - 1; i >= 0; i--) {
      const item = requirementItems[i]!;
      // "Set up from the master branch on 28 May": how the reporter set things up, not an ask.
      const setup =
        /^(?:set ?up|installed|running|built|deployed|tested|seen|reproduced)\s+(?:from|on|with|at|using|in)\b/i.test(
          item.text,
        );
      const asks =
        !setup &&
        (isExplicitAsk(item.statedIn ?? item.text) ||
          /\b(?:should|must|needs? to)\b/i.test(item.text) ||
          IMPERATIVE_START.test(item.text));
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
  const lastOfSequence = new Map<number, Pending>();
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
      const last = lastOfSequence.get(item.sequence);
      const sameSentence =
        before &&
        !item.ownStep &&
        ((item.statedIn !== null && before.statedIn === item.statedIn) ||
          (item.stepGroup !== undefined && last?.stepGroup === item.stepGroup));
      lastOfSequence.set(item.sequence, item);
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
