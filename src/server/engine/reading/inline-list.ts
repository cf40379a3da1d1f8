import { splitOutside } from "./sentences";

/**
 * A list written inside a sentence (issue 28): "A web shop for handmade candles: catalogue, cart,
 * checkout with Stripe, order history, admin panel for stock", "a Discord bot with moderation, leveling,
 * welcome messages, and auto-moderation", "users can create invoices, send reminders and export PDFs".
 * Each item is one requirement in its own words ("checkout with Stripe" keeps its "with Stripe"); the head
 * ("A web shop for handmade candles") says what they belong to.
 *
 * Not every comma list is a list of features. "Edit habit name, frequency, and category" lists what one
 * form edits; "invoices in PDF, CSV or JSON" lists formats of one export. A list is split when it is
 * introduced as a list (a colon, or "with", "including", "such as", "featuring", "supports"...), or when
 * each of its items starts with its own verb; and only with three items or more, or two after a colon or
 * an explicit introducer such as "including".
 */

export type InlineList = {
  head: string;
  items: string[];
  /** "appositive": short phrases after a clause, which only qualify it unless the clause names the project. */
  form?: "appositive";
};

/** Words that introduce a list of parts after a head. */
const INTRODUCER =
  /(?:^|\s)(with|including|includes|include|featuring|features|such as|like|supports?|supporting|offers?|offering|covering|covers|plus|where(?= (?:users?|people|you|members?|customers?|players?|students?|teachers?|parents?|admins?|each|every|the|a|an)\b)|that lets (?:users?|people|you|me|us)|which lets (?:users?|people|you|me|us)|so (?:that )?(?:users?|people|you|i|we) can)\s+(?=\S)/gi;
/** Introducers strong enough for a list of two. */
const STRONG = /^(including|includes|include|featuring|features|such as|covering|covers)$/i;

/** Verbs that start an item of its own ("send reminders"), in the base or the third person. */
const ITEM_VERB =
  /^(?:add|adds|allow|allows|build|builds|create|creates|make|makes|manage|manages|show|shows|display|displays|list|lists|send|sends|store|stores|save|saves|track|tracks|record|records|export|exports|import|imports|sync|syncs|edit|edits|delete|deletes|remove|removes|view|views|search|searches|filter|filters|sort|sorts|upload|uploads|download|downloads|book|books|pay|pays|post|posts|share|shares|invite|invites|assign|assigns|approve|approves|reject|rejects|review|reviews|schedule|schedules|cancel|cancels|remind|reminds|notify|notifies|generate|generates|calculate|calculates|set|sets|get|gets|see|sees|receive|receives|comment|comments|vote|votes|rate|rates|follow|follows|join|joins|leave|leaves|browse|browses|order|orders|buy|buys|sell|sells|scan|scans|print|prints|check|checks|log|logs|sign|signs|reset|resets|change|changes|update|updates|connect|connects|integrate|integrates|publish|publishes|tag|tags|archive|archives|chat|chats|message|messages|play|plays|roll|rolls|draw|draws|earn|earns|level|levels|compare|compares|plan|plans|monitor|monitors|alert|alerts|predict|predicts|translate|translates|invoice|invoices|bill|bills|refund|refunds|claim|claims|offer|offers|request|requests|submit|submits|fill|fills|enter|enters|answer|answers|reply|replies|ask|asks|run|runs|start|starts|stop|stops|pause|pauses|resume|resumes|return|returns|accept|accepts|open|opens|close|closes|lock|locks|unlock|unlocks|upgrade|upgrades|migrate|migrates|deploy|deploys|test|tests|train|trains|validate|validates|clean|cleans|collect|collects|fetch|fetches|parse|parses|render|renders|convert|converts|detect|detects|block|blocks|ban|bans|kick|kicks|warn|warns|mute|mutes|welcome|welcomes|moderate|moderates|configure|configures|customize|customizes|customise|customises|choose|chooses|pick|picks|select|selects|drag|drags|reorder|reorders|rename|renames|duplicate|duplicates|copy|copies|move|moves|merge|merges|split|splits|group|groups|favorite|favorites|favourite|favourites|bookmark|bookmarks|like|likes|subscribe|subscribes|unsubscribe|unsubscribes|register|registers|login|log in|sign in|sign up|logout)\b/i;

/** Words that open a clause, not an item: "..., so a feed ... doesn't flood a channel". */
const CLAUSE_START =
  /^(?:so|because|which|that|to|when|whenever|if|as|since|while|unless|until|where|but|though|although|otherwise|then|e\.g\.|i\.e\.|for example|for instance|like|with|without|via|using|plus)\b/i;

/**
 * The parts of a list: split at commas (or at semicolons, where there are any: commas then belong to an
 * item) outside brackets, and at the last item's "and", "or" or "&" ("a, b, and c", "a, b or c"); a list
 * of two is "a and b", or "a, and b". An "or" inside an item ("split it evenly or by custom shares")
 * stays in that item. Null when the parts are clauses rather than items.
 */
function listParts(text: string, withTail = true): { items: string[]; semicolons: boolean } | null {
  const clean = (p: string) =>
    p
      .trim()
      .replace(/^(?:and|or|&|as well as|plus)\s+/i, "")
      .replace(/[.!]+$/, "")
      .trim();
  const semicolons = splitOutside(text, /\s*;\s*/).length > 1;
  const parts = splitOutside(text, semicolons ? /\s*;\s*/ : /\s*,\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 1) {
    const two = splitOutside(text, /\s+(?:and|&|as well as|plus)\s+/i);
    return { items: two.length === 2 ? two.map(clean) : [clean(text)], semicolons };
  }
  const last = parts[parts.length - 1]!;
  // "a, b, c and d, with e" / "a, b and c, plus d": a list closed by its "and", then one more part.
  if (
    withTail &&
    !semicolons &&
    parts.length >= 3 &&
    /^(?:with|plus|as well as)\s+\S/i.test(last) &&
    /\s(?:and|&)\s+[^,]+$/i.test(parts[parts.length - 2]!)
  ) {
    const closed = listParts(parts.slice(0, -1).join(", "), false);
    if (closed && closed.items.length >= 2)
      return {
        items: [...closed.items, clean(last.replace(/^(?:with|plus|as well as)\s+/i, ""))],
        semicolons,
      };
  }
  const conjoined = /^(?:and|or|&|as well as|plus)\s+/i.test(last);
  if (!conjoined) {
    const split = splitOutside(last, /\s+(?:and|or|&|as well as|plus)\s+/i);
    if (split.length === 2) parts.splice(parts.length - 1, 1, ...split);
    // "a, b" with no "and" anywhere is two clauses, not a list of two.
    else if (parts.length === 2 && !semicolons) return null;
  }
  const items = parts.map(clean).filter(Boolean);
  if (items.slice(1).some((item) => CLAUSE_START.test(item))) return null;
  // "a job that copies the history, resumable, with checks": a lone adjective qualifies the item before it.
  if (items.slice(1).some((item) => /^[a-z]+(?:able|ible|ful|less|ous|ive|ant|ent|ic|al)$/.test(item)))
    return null;
  return { items, semicolons };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

const ACTOR_WORDS =
  "users?|customers?|clients?|members?|visitors?|guests?|students?|teachers?|players?|admins?|administrators?|managers?|owners?|staff|employees?|tenants?|landlords?|parents?|volunteers?|drivers?|riders?|buyers?|sellers?|authors?|editors?|readers?|moderators?|people|everyone|anyone|you|they";

/**
 * A head that names values of one thing rather than features: "Three environments: dev, staging, prod",
 * "Formats: CSV, JSON", "Plans (Free, Pro)". Its list is one requirement.
 */
const VALUES_HEAD =
  /(?:^|\s)(?:(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:[\w-]+\s+)?[\w-]+s|environments?|stages?|formats?|file types?|languages?|locales?|platforms?|browsers?|devices?|operating systems|os|currenc(?:y|ies)|sizes?|colou?rs?|themes?|regions?|tiers?|plans?|price points|categories|types?|statuses|states|levels|units?|fields?|columns?|attributes?|properties|options|modes|versions?|targets?)(?:\s+(?:are|is|include|includes|would be|will be))?\s*$/i;

/** A list inside `sentence`, or null when it has none worth splitting. */
export function inlineList(sentence: string): InlineList | null {
  const text = sentence.trim().replace(/[.!]+$/, "");
  // "Head: a, b, c" or "Head — a, b, c": a colon or a dash outside brackets, after a head of a few words.
  const colon =
    splitOutside(text, /:\s+/).length === 2 ? splitOutside(text, /:\s+/) : splitOutside(text, /\s+[—–-]\s+/);
  if (colon.length === 2 && words(colon[0]!) <= 14 && !/^https?$/i.test(colon[0]!)) {
    const list = listParts(colon[1]!);
    const longest = list?.semicolons ? 30 : (list?.items.length ?? 0) >= 3 ? 20 : 12;
    if (
      list &&
      list.items.length >= 2 &&
      list.items.every((i) => words(i) <= longest) &&
      !(VALUES_HEAD.test(colon[0]!) && list.items.every((i) => words(i) <= 3))
    )
      return { head: colon[0]!.trim(), items: list.items };
  }
  return verbList(text) ?? wishList(text) ?? introducedList(text) ?? bareList(text) ?? appositiveList(text);
}

/** Words that make a part a clause rather than a noun phrase. */
const FINITE =
  /\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|can|could|will|would|shall|should|may|might|must)\b/i;

/**
 * "Procedurally generated dungeons, turn-based movement on a grid, melee and ranged combat, and
 * permadeath": a sentence that is only a list of noun phrases. Every part is an item.
 */
function bareList(text: string): InlineList | null {
  const list = listParts(text);
  if (!list || list.items.length < 3) return null;
  if (!list.items.every((i) => words(i) <= 8 && !FINITE.test(i) && !CLAUSE_START.test(i))) return null;
  // "Edit habit name, frequency and category": a verb and the fields it takes is one thing.
  if (ITEM_VERB.test(list.items[0]!)) return null;
  // "On a postgres branch, change endpoints.js and views.js": where or when it happens, then the ask.
  if (
    /^(?:on|in|at|for|from|after|before|during|once|when|within|under|inside|outside|via|using)\s/i.test(
      list.items[0]!,
    )
  )
    return null;
  // "a, b, and c", or four parts or more without the "and".
  if (!/(?:,|\s)\s*(?:and|or|&)\s+[^,]+$/i.test(text) && list.items.length < 4) return null;
  return { head: "", items: list.items };
}

/**
 * "I'm writing a small date library, zero dependencies, tree-shakeable, ESM and CJS builds": a clause,
 * then short phrases that qualify it, the last joined by "and". The phrases are the items.
 */
function appositiveList(text: string): InlineList | null {
  const parts = splitOutside(text, /\s*,\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 3 || words(parts[0]!) < 3) return null;
  const rest = parts.slice(1);
  const last = rest[rest.length - 1]!;
  const conjoined = /^(?:and|or)\s+/i.test(last);
  if (!conjoined) {
    const split = splitOutside(last, /\s+(?:and|or)\s+/i);
    if (split.length !== 2) return null;
    rest.splice(rest.length - 1, 1, ...split);
  }
  const items = rest.map((p) => p.replace(/^(?:and|or)\s+/i, "").trim());
  if (
    !items.every((i) => words(i) <= 5 && !CLAUSE_START.test(i) && !/^(?:i|we|you|he|she|they|it)\b/i.test(i))
  )
    return null;
  return { head: parts[0]!, items, form: "appositive" };
}

/** Comma-separated parts, where parts that do not start a new verb continue the item before them. */
function verbItems(body: string): string[] | null {
  const parts = splitOutside(body, /\s*[,;]\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  const items: string[] = [];
  for (const raw of parts) {
    const part = raw.replace(/^(?:and|or|&|as well as|plus)\s+/i, "");
    if (items.length === 0 || ITEM_VERB.test(part)) items.push(part);
    else items[items.length - 1] += `, ${raw}`;
  }
  // The last item may hold the final "and": "track runs and share them".
  const last = items[items.length - 1];
  if (last) {
    const split = splitOutside(last, /\s+(?:and|or)\s+/i);
    if (split.length === 2 && ITEM_VERB.test(split[1]!) && words(split[1]!) >= 2)
      items.splice(items.length - 1, 1, ...split);
  }
  return items.length >= 3 && items.every((i) => ITEM_VERB.test(i) && words(i) >= 2) ? items : null;
}

/** An actor, or a wish, and then several things done: "Users sign up ..., create recipes ... and browse ...". */
function verbList(text: string): InlineList | null {
  const actor = text
    .replace(/^(?:in|on|from|inside|within|at)\s+[^,]{1,40}?\s+(?=(?:you|users?|people|they|the \w+)\s)/i, "")
    .match(
      new RegExp(
        `^(.{0,60}?\\b(?:can|should be able to|must be able to|will be able to|are able to|should|must|will|need to|needs to|want to|wants to|lets? (?:me|us|users|people|you))\\s+|(?:the |our |each |every |all |registered |logged[- ]in )?(?:${ACTOR_WORDS})\\s+)(.+)$`,
        "i",
      ),
    );
  const items = verbItems(actor ? actor[2]! : text);
  if (!items) return null;
  return { head: actor ? actor[1]!.trim() : "", items };
}

/** "We want three environments ..., remote state in S3 ..., and CloudWatch alarms ...": a wish list of things. */
function wishList(text: string): InlineList | null {
  const wish = text.match(
    /^((?:(?:i|we|they|the team|our team|users)\s+)?(?:really\s+|also\s+)?(?:want|wants|need|needs|would like|'d like|’d like|require|requires|expect|expects)\s+)(.+)$/i,
  );
  if (!wish) return null;
  const list = listParts(wish[2]!);
  if (!list || list.items.length < 2 || !list.items.every((i) => words(i) <= 14)) return null;
  return { head: wish[1]!.trim(), items: list.items };
}

/** "Head with a, b and c": the last introducer before a list of three (or two after a strong one). */
function introducedList(text: string): InlineList | null {
  for (const m of [...text.matchAll(INTRODUCER)].reverse()) {
    // A head of at most 16 words starts within a few hundred characters (and a long text stays linear).
    if ((m.index ?? 0) > 400) continue;
    const at = (m.index ?? 0) + m[0].length;
    const head = text.slice(0, m.index ?? 0).trim();
    // A head that is itself a list means the list began before this word.
    if (!head || words(head) > 16 || splitOutside(head, /,\s+/).length > 1) continue;
    const items = listParts(text.slice(at))?.items ?? [];
    const strong = STRONG.test(m[1]!);
    if ((items.length >= 3 || (items.length === 2 && strong)) && items.every((i) => words(i) <= 10))
      return { head, items };
  }
  return null;
}
