/**
 * Sentences and what they are (decision 014, issue 28). An engineer reads a description for the work it
 * asks for and passes over the rest: the questions it raises, its rationale, the story of how things
 * went, remarks to the reader. `judgeSentence` tells those apart by the shape of the sentence, not by
 * its topic, so it carries over to text nobody here has read.
 */

const ABBREVIATIONS =
  /\b(e\.g|i\.e|etc|vs|approx|incl|mr|mrs|ms|dr|no|fig|cf|st|ca|resp|esp|min|max|avg|v)\.$/i;

/**
 * Sentences of a paragraph: split at . ! ? followed by a space (not in brackets or after an abbreviation).
 * Semicolons stay: they may separate the items of a list ("What I want: a; b; and c"), which the reader
 * splits as a list, or clauses, which it splits after.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if (depth === 0 && (c === "." || c === "!" || c === "?") && /\s/.test(text[i + 1] ?? "")) {
      // "?!" and "..." end once, at their last mark.
      if (/[.!?]/.test(text[i + 1] ?? "")) continue;
      const piece = text.slice(start, i + 1);
      if (c === "." && ABBREVIATIONS.test(piece)) continue;
      // "v2. 0" never, but "Node 20. Then" yes: a digit before the stop ends a sentence only before a capital.
      if (c === "." && /\d$/.test(piece.slice(0, -1)) && !/^\s+[A-Z"“(]/.test(text.slice(i + 1))) continue;
      out.push(piece);
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.replace(/\s+/g, " ").trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Splits at a separator only outside brackets and quotes. */
export function splitOutside(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  const sticky = new RegExp(separator.source, `${separator.flags.replace("g", "")}y`);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote || (quote === "“" && c === "”")) quote = null;
      continue;
    }
    if (c === '"' || c === "“") {
      quote = c;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (depth === 0) {
      sticky.lastIndex = i;
      const m = sticky.exec(text);
      if (m && m[0].length > 0) {
        parts.push(text.slice(start, i));
        start = i + m[0].length;
        i = start - 1;
      }
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** What a sentence is to the plan. */
export type SentenceKind =
  /** Work to plan. */
  | "work"
  /** Something to know while planning: background, rationale, narrative, a remark. */
  | "context"
  /** An open question the text asks (a spike plans these; elsewhere they are context). */
  | "question";

/** "Would it be possible to …?", "Could we also define …?", "Can you add …?": a request worded as a question. */
export function isPoliteRequest(sentence: string): boolean {
  const m = POLITE_REQUEST.exec(sentence.trim());
  // "…, or is there something off the shelf?" weighs options: that is a question.
  if (
    /,?\s+or\s+(?:is|are|should|would|do|does|can|could|not|maybe|perhaps|something|just)\b/i.test(sentence)
  )
    return false;
  return m !== null && IMPERATIVE.test(sentence.trim().slice(m[0].length));
}
const POLITE_REQUEST =
  /^(?:hi,?\s+|hello,?\s+)?(?:would|could|can|will)\s+(?:it\s+be\s+possible\s+(?:for\s+\w+\s+)?to|(?:you|we|i|users?|people|admins?|members)(?:\s+(?:please|also|maybe|perhaps))*(?:\s+be\s+able\s+to)?)\s+(?:please\s+|also\s+)*/i;

/** Whether the sentence starts with an instruction ("Add ...", "Guard it with a mutex ..."). */
export function startsWithInstruction(sentence: string): boolean {
  // "Deploy: export the model to ONNX": a label that is itself the instruction.
  const s = sentence.trim();
  return IMPERATIVE.test(s) || IMPERATIVE.test(s.replace(/^([\w-]{2,20}):\s+.*$/, "$1"));
}

/** Verbs that start an instruction ("Add ...", "Set up ..."): the imperative of software work. */
const IMPERATIVE =
  /^(?:please\s+|also\s+|then\s+|and\s+|first,?\s+|finally,?\s+|next,?\s+)?(?!(?:support|design|plan|search|test|review|release|record|log|alert|filter|order|sort|request|report|check|index|cache|scale|host|schedule|post|share|import|export|print|scan|book|pay|bill|invoice)\s+(?:has|have|had|is|are|was|were|will|can|team|staff|agents?|tickets?|says|said|keeps?)\b)(?:add|allow|build|create|make|implement|support|enable|let|show|display|list|send|store|save|keep|track|record|log|export|import|integrate|connect|sync|migrate|upgrade|update|replace|remove|delete|drop|fix|handle|provide|generate|validate|verify|check|test|deploy|set up|setup|configure|write|use|switch|move|port|rewrite|refactor|rename|split|merge|extract|convert|expose|publish|release|ship|document|monitor|alert|notify|email|e-mail|schedule|automate|run|install|upload|download|parse|render|cache|index|search|filter|sort|paginate|group|tag|invite|assign|approve|reject|review|sign|encrypt|hash|protect|secure|limit|throttle|retry|backfill|collect|clean|train|evaluate|benchmark|measure|profile|optimi[sz]e|reduce|speed up|improve|increase|decrease|lower|raise|prevent|block|detect|restore|back up|backup|archive|compute|calculate|estimate|predict|classify|recommend|translate|localize|localise|design|prototype|investigate|evaluate|compare|research|explore|find out|figure out|decide|choose|pick|define|draft|plan|prepare|bump|pin|deprecate|introduce|wire|hook up|plug|stream|poll|scrape|crawl|fetch|load|serve|host|scale|shard|partition|replicate|mirror|backport|patch|harden|audit|lint|format|package|bundle|compile|build out|roll out|rollout|cut over|port over|create|give|offer|require|display|print|output|accept|receive|reply|respond|redirect|embed|share|post|comment|like|vote|rate|pay|charge|refund|bill|invoice|book|reserve|cancel|reschedule|remind|follow|subscribe|geocode|route|queue|skip|ignore|exclude|include|flag|mark|hide|submit|enter|register|apply|file|request|grant|attach|link|unlink|map|tune|tag|unsubscribe|mute|ban|kick|warn|moderate|welcome|greet|roll|draw|play|pause|resume|stop|start|open|close|lock|unlock|archive|pin|take|spin up|aim|observe|discard|do|put|get|try|ask|tell|look|watch|wait|note|copy|paste|turn|flip|kick off|click|press|type|tear down|destroy|announce|snapshot|rehearse|freeze|drain|promote|point|flush|seed|dump)(?![-'’])\b/i;

/** A wish or an obligation: "should", "must", "needs to", "I want", "we'd like", "it would be nice to". */
const MODAL =
  /\b(should|shall|must|needs? to|has to|have to|will need to|is required to|are required to|ought to|(?:i|we)(?:\s+really|\s+also|\s+just)?\s+(?:want|need|would like|'d like|’d like|wish|am looking for|are looking for)|(?:i|we)(?:'d|’d| would)(?:\s+(?:also|really|just|rather|much rather))?\s+(?:like|love|prefer)|(?:it|that)\s+(?:would|'d|’d)\s+be\s+(?:nice|great|good|cool|useful|awesome|helpful)|(?:is|are)\s+(?:needed|required|a must)|ability to|able to|option to|way to|possibility to|support for|feature to|lets? (?:me|us|users|people|you)(?! know\b)|allows? (?:me|us|users|people|you|them)|want(?:s)? to be able|^needs?|^(?:it|this|the \w+) needs?)\b/i;

/** Reasons and consequences: why, not what. */
const RATIONALE =
  /^(?:because|since|as a result|this is (?:because|why|important|needed|necessary)|that'?s (?:why|because)|the (?:reason|problem|issue|motivation|point) (?:is|was)|this (?:means|way|would|will|helps|makes|lets|allows|ensures|gives|is to|was|should help)|that (?:means|way|would|will)|which (?:means|is)|otherwise|in other words|for (?:example|instance)|e\.g\.|i\.e\.|note(?: that)?:?|fyi|btw|by the way|ps:?|p\.s\.|hence|thus|therefore|so that|in order to)\b/i;

/** Remarks to the reader: thanks, greetings, review chatter, evaluations of the text itself. */
const REMARK =
  /^(?:(?:thanks?|thank you|cheers|regards|best|hi|hello|hey|dear|hope this helps|any (?:ideas|thoughts|help|feedback|suggestions)|let me know|feel free|happy to|looking forward|lgtm|\+1|same here|me too|count me (?:in|as)|i (?:want|need|'d like|would like) this too|(?:this )?(?:gets|has) my vote|i (?:agree|second this)|seconded|(?:[\w-]+'s )?(?:suggestion|idea|proposal)(?: from [\w ]+)? gets my vote|great|awesome|cool|nice|good|ok|okay|sure|yes|no|absolutely|definitely|exactly|agreed|indeed|sounds good|makes sense|wish (?:us|me) luck|good luck|fingers crossed|tl;?dr|edit:|update:|that'?s (?:much |way |far |a bit |not |pretty |really )?(?:too|very|so|great|awesome|nice|good|bad|fine|it|all|a lot|the (?:idea|point|plan))|it'?s (?:much |way |far |a bit |not |pretty |really )?(?:too|very|so|great|awesome|nice|good|bad|fine|overkill|over-?engineered|a (?:lot|mess|pain|nightmare))|is (?:it|this|that) (?:over-?engineered|overkill|too)|here(?:'s| is| are) (?:my|our|the|a|an|what)|below (?:is|are)|the following|this (?:document|doc|prd|spec|rfc|readme|issue|ticket|post|proposal) (?:describes|outlines|covers|is about|proposes)))(?=\W|$)/i;

/** Openers that carry no meaning of their own ("So, ...", "Honestly ..."). */
const FILLER =
  /^(?:so|well|and|but|now|honestly|basically|anyway|also|oh|ok|okay|then|plus|yeah|yes|yep|right)\b,?\s+/i;

/** A sentence about the writer or the writer's people: "I ...", "we've ...", "my mom ...", "she ...". */
const PERSONAL_SUBJECT =
  /^(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|we|we're|we’re|we've|we’ve|we'd|we’d|we'll|we’ll|us|she|he|she's|he's|my\s+\w+|our\s+\w+|(?:his|her|their)\s+\w+)\b/i;

/** The writer saying what the project is, not what it does: "we're building PillPing", "this is my side project". */
const META =
  /^(?:(?:i|we)(?:'re|’re| are| am|'m|’m)\s+(?:building|making|creating|developing|working on|writing|planning|thinking (?:about|of))|(?:i|we)\s+(?:plan|intend|hope|aim)\s+to\s+(?:build|make|create|ship|launch|finish)|(?:the|my|our)\s+(?:goal|aim|idea|plan|vision|mission|purpose|dream|hope)\s+(?:is|was|would be)|(?:this|it)\s+(?:is|was|will be)\s+(?:a|an|my|our|just)\b.{0,40}\b(?:project|hackathon|weekend|side|hobby|prototype|experiment|attempt|idea|proposal|draft|prd|spec|rfc|issue|ticket|request|post|write-?up))/i;

/** What someone did: a past-tense verb right after a short subject, or a time in the past. */
const PAST_VERB =
  "(?:(?:also|already|just|never|recently|then|finally|once|first|all)\\s+)?(?<!\\b(?:is|are|was|were|be|been|being|get|gets|got|it's|that's)\\s)(?:was|were|had|did|didn't|didn’t|went|took|got|made|came|saw|found|spent|wrote|ran|began|became|lost|thought|felt|knew|told|said|bought|brought|kept|left|quit|built|sent|sold|won|grew|fell|rose|hit|hurt|broke|forgot|used to|(?!(?:called|named|based|related|focused|powered|backed|hosted|limited|shared|sized|shaped|priced|timed|nested|scoped|signed|logged|detailed|advanced|automated|dedicated|distributed|embedded|encrypted|expected|extended|fixed|mixed|needed|preferred|required|selected|supported|trusted|unlimited|versioned)\\b)[a-z]{2,}[^e\\W]ed)\\b";
const PAST = new RegExp(
  `^(?:i|we|he|she|they|it|you|(?:my|our|his|her|their|the|this|that|a|an)\\s+(?:[\\w'’.-]+\\s+){0,4}?[\\w'’.-]+)\\s+${PAST_VERB}|\\b(?:yesterday|last (?:night|week|month|year|winter|summer|spring|fall|autumn|time|sprint|release|quarter)|(?:a few|two|three|\\d+) (?:days|weeks|months|years) ago|years ago|back then|a while ago|in (?:19|20)\\d\\d)\\b`,
  "i",
);
/** A name, then what it did: "Python 3.8 reached end of life". Case matters: the name is capitalised. */
const PAST_NAMED = new RegExp(
  `^(?![A-Z][a-z]+ly\\b)[A-Z][\\w'’.-]*(?:\\s+[A-Z0-9][\\w'’.-]*){0,2}\\s+${PAST_VERB}`,
);

/** Someone's words reported: "our keys player says she'll wait", "the client mentioned ...". */
const REPORTED =
  /^(?:[\w'’-]+\s+){1,4}?(?:says|said|thinks|thought|told (?:me|us)|mentioned|suggested|asked|complains?|complained|argues?|argued|claims?|claimed|reckons?)\b/i;

/** A judgement of how things are, not a change: "the export is too slow", "it takes 40 seconds". */
const EVALUATION =
  /^(?:[\w'’.-]+\s+){0,6}?(?:is|are|was|were|seems?|looks?|feels?|gets?|got|became|becomes|has been|have been|will be|'ll be|’ll be)\s+(?:(?:too|very|so|really|quite|pretty|super|extremely|incredibly|kind of|kinda|way|much|far|a bit|a little|rather|getting|still|now|currently|always|often|sometimes|not|never|completely|totally)\s+)*(?:slow|fast|broken|great|awesome|amazing|bad|terrible|horrible|awful|good|nice|painful|annoying|frustrating|confusing|expensive|costly|cheap|hard|easy|difficult|complicated|complex|over-?engineered|overkill|messy|ugly|long|short|big|huge|large|small|tiny|outdated|old|ancient|legacy|unreliable|flaky|buggy|unusable|clunky|tedious|error-prone|manual|missing|gone|lost|down|fine|ok|okay|sluggish|laggy|clumsy|useless|pointless|limited|enough|insufficient|inconsistent|unclear|wrong|a mess|a pain|a nightmare|a problem|an issue|the problem|the issue|the bottleneck|rough|functional|basic|good enough|out of (?:security )?support|end[- ]of[- ]life|deprecated|unmaintained|no longer (?:supported|maintained))\b|^(?:[\w'’-]+\s+){1,6}?(?:takes?|took|costs?|cost)\s+(?:about\s+|around\s+|over\s+|almost\s+|nearly\s+|up to\s+|more than\s+)?(?:[~$€£]?\d|one|two|three|four|five|six|seven|eight|nine|ten|several|a few|hours|days|weeks|minutes)|^(?:[\w'’-]+\s+){1,5}?(?:is|are|has|have|holds?|contains?|runs?)\s+(?:about |around |roughly |over |~)?\d[\d.,]*k?\+?\s*(?:lines|loc|rows|records|tables|services|gb|tb|mb|users|customers|requests|examples|tests|files|repos|endpoints|dynos|nodes|pods|servers|instances)\b/i;

/** The writer doing, in the present, something the product would let them do: "I assign each request ...". */
const OPERATES =
  /^(?:i|we)\s+(?:(?:then|also|just|usually|always|first)\s+)?(?:assign|approve|reject|review|track|log|record|enter|upload|schedule|book|invoice|bill|send|update|create|add|edit|delete|export|import|search|tag|sort|filter|print|scan|mark|pick|choose|select|invite|share|publish|post|download|pay|refund|check off|tick off|sign off|confirm|dispatch|triage|label)\s+(?:each|every|the|a|an|all|new|our|my|their|them|it)\b/i;

/** Doubt or a passing thought: "maybe ...", "not sure ...", "no idea if ...". */
const HEDGE =
  /^(?:maybe|perhaps|possibly|probably|not sure|no idea|i wonder|hopefully|who knows|ideally,? (?:i|we) (?:could|might)|still (?:figuring|working|thinking|deciding|unsure|undecided)|tbd|to be decided|undecided|open question)\b/i;

/** Document details: owner, status, dates, versions; and "Made in Godot for a jam". */
const METADATA =
  /^(?:owner|authors?|status|draft|last (?:updated|edited|modified)|date|updated|created|version|reviewers?|approvers?|stakeholders?|contact|ticket|epic|sprint|priority|labels?|assignee|milestone|due|deadline|timebox|time[- ]box|budget|estimate)\b\s*[:·—-]|\s·\s|^(?:made|built|written|created|developed|designed|measured|tested|observed|seen|reported|found|noticed|recorded|taken|captured)\s+(?:in|with|for|by|on|at|using|during|from|under)\b/i;

/** A measurement or a count after a label: "First Contentful Paint: 4.8 s", "Our own code: ~1 MB". */
const MEASUREMENT =
  /^[^:]{1,50}:\s*(?:about |~|≈|<|>)?[$€£]?[\d.,]+\s*(?:ms|milliseconds|s|sec|secs|seconds|min|mins|minutes|h|hrs|hours|days?|weeks?|kb|mb|gb|tb|%|x|k|m|requests?\/s|rps|qps)\b(?:\s*\(.*\))?(?:,\s*[^:]{0,60})?$/i;

/** Today's situation: "currently", "right now", "at the moment", "today ...". */
const CURRENT =
  /\b(?:currently|right now|at the moment|as of (?:now|today)|these days|so far|to date)\b|^(?:the|our|my) [\w ]{0,20}\b(?:team|people|staff|folks|devs|developers|engineers|users|customers)\s+(?:knows?|likes?|prefers?|is used to|are used to|already (?:has|have|uses?))\b|\b(?:has|have)\s+(?:already\s+)?(?:ended|expired|stopped|reached end|run out|been (?:deprecated|discontinued|retired))\b|\b(?:reviews?|users?|customers?|people) (?:mention|complain about|keep mentioning|report) (?:it|this|that)\b|^today\b|^[\w'’ -]{1,40}\b(?:keeps?|kept) [a-z]+ing\b/i;

/** What the system does not do today: "The database does no filtering for it", "The app has no export". */
const LACKS =
  /^(?:the|our|this|that|it|its|there)\b[\w'’ -]{0,40}?\b(?:does(?:n'?t|n’t| not| no)|do(?:n'?t|n’t| not)|has no|have no|is no|are no|can(?:'?t|’t|not)|is(?:n'?t|n’t| not)|are(?:n'?t|n’t| not)|offers? no|gives? no|shows? no)\b/i;

/** A pointer to another issue: "Follow on to #70", "Related to #12", "Blocked by #3". */
const ISSUE_LINK =
  /^(?:follow(?:s|ing)?[- ]?(?:on|up)(?: to| of| from)?|related(?: to)?|relates to|see(?: also)?|part of|blocked by|depends on|duplicate of|dupe of|supersedes|replaces|split (?:from|out of)|from|re|cc)\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#\d+\b/i;

/** Today's manual way: "Finance builds the report by exporting CSVs", after any instruction is ruled out. */
const BY_HAND = /\bby (?:hand|manually|copying|pasting|exporting|emailing|printing)\b/i;

/** A request someone else made: "the kids voted for streaks", "customers asked for dark mode". */
const REQUESTED = /\b(?:voted for|keep asking for|keeps asking for|are asking for|asks for)\b/i;

/**
 * Whether a sentence says in so many words that it is wanted: an instruction, a wish or an obligation, a
 * request made by someone, or the writer doing what the product will let them do. The learned reader may
 * overrule a sentence only when it has none of these (reading/place.ts).
 */
export function saysItIsWanted(sentence: string): boolean {
  const s = sentence.trim().replace(FILLER, "").replace(FILLER, "");
  return (
    REQUESTED.test(s) ||
    IMPERATIVE.test(s) ||
    (MODAL.test(s) && !/\b(?:wanted|needed|would have liked|used to)\b/i.test(s)) ||
    OPERATES.test(s) ||
    isPoliteRequest(s)
  );
}

/**
 * What a sentence is. `inList`: it is a list item (or an item of an inline list), where a noun phrase
 * names a feature; in prose the same filters apply, and a judgement of how things are is not work.
 */
/** A condition the sentence opens with: "When a machine is broken, ", "If the upload fails, ". */
export const CONDITION_FIRST =
  /^(?:when|whenever|if|once|after|before|as soon as|in case|while)\b[^,]{1,80},\s*/i;

export function judgeSentence(sentence: string, inList: boolean): SentenceKind {
  const s = sentence
    .trim()
    .replace(FILLER, "")
    .replace(FILLER, "")
    // "For this weekend's hackathon we're building ...": the lead-in before the writer speaks.
    .replace(
      /^(?:for|in|at|on|during|over|after|before|since|this|next|every|each|most|some)\s+[\w'’ -]{1,40}?,?\s+(?=(?:i|we|i'm|we're|i’m|we’re|i've|we've|my|our|his|her|their|she|he)\b)/i,
      "",
    )
    // "Over in issue 20913, Gus brought ...": a place or a time set off by a comma, before a named subject.
    .replace(
      /^(?:[Oo]ver |[Bb]ack |[Uu]p |[Dd]own )?(?:[Ii]n|[Oo]n|[Aa]t|[Ff]rom|[Dd]uring|[Aa]fter|[Bb]efore|[Ss]ince|[Ll]ast|[Yy]esterday)\b[^,]{1,90},\s+(?=[A-Z][a-z]+\s+[a-z]+ed\b|[A-Z][a-z]+\s+(?:brought|made|wrote|found|took|gave|said|told|ran|built|got)\b)/,
      "",
    );
  // "Would it be possible to grant read access to members only?": a request put politely, not a question.
  // "Schedule downtime (or use the release window?)": a question in brackets leaves the item an item.
  const unbracketed = s.replace(/\s*\([^()]*\?\)\s*$/, "");
  if (/\?["'”)]*$/.test(unbracketed)) return isPoliteRequest(s) ? "work" : "question";
  // "When a machine is broken, offer a way to call maintenance": the condition, then an instruction.
  const main = s.replace(CONDITION_FIRST, "");
  if (main !== s && (IMPERATIVE.test(main) || startsWithInstruction(main))) return "work";
  if (
    REMARK.test(s) ||
    RATIONALE.test(s) ||
    HEDGE.test(s) ||
    META.test(s) ||
    METADATA.test(s) ||
    ISSUE_LINK.test(s) ||
    /^(?:why|reason|rationale|motivation|background)\s*:/i.test(s)
  )
    return "context";
  // How the system falls short today is the problem, not the ask, unless a wish is in it.
  if (LACKS.test(s) && !MODAL.test(s) && !IMPERATIVE.test(s)) return "context";
  if (MEASUREMENT.test(s)) return "context";
  // How things are today ("currently", "so far", "by hand") is the situation, unless a wish is in it.
  if (
    CURRENT.test(s) &&
    !MODAL.test(s.replace(/\b(?:support for|ability to|option to|way to|feature to|possibility to)\b/gi, ""))
  )
    return "context";
  if (REQUESTED.test(s)) return "work";
  // An instruction or a wish is work whoever says it ("I want ...", "We need ...", "Add ...").
  if (IMPERATIVE.test(s)) return "work";
  const modal = MODAL.test(s) && !/\b(?:wanted|needed|would have liked|used to)\b/i.test(s);
  if (modal) return "work";
  if (/^(?:i|we)(?:'ll|’ll| will| are going to|'re going to| shall)\s+/i.test(s))
    return IMPERATIVE.test(s.replace(/^(?:i|we)(?:'ll|’ll| will| are going to|'re going to| shall)\s+/i, ""))
      ? "work"
      : "context";
  if (OPERATES.test(s)) return "work";
  if (
    PERSONAL_SUBJECT.test(s) ||
    PAST.test(s) ||
    PAST_NAMED.test(s) ||
    REPORTED.test(s) ||
    (!inList && BY_HAND.test(s))
  )
    return "context";
  if (!inList && /!["'”)]*$/.test(s)) return "context";
  if (EVALUATION.test(s)) return "context";
  return "work";
}
