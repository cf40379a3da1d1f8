import type { ProjectBrief } from "../planner";
import { type Family, resolveTech, type Tech } from "./tech";
import {
  capitalise,
  clipWords,
  collapseSpaces,
  gerund,
  kebab,
  listJoin,
  lowerFirst,
  pascal,
  plural,
  singular,
  snake,
  words,
} from "./text";
import { AUTH_TOPIC, allTopics, detectTopic, type Topic } from "./topics";

/** A domain entity named in PascalCase plus the forms templates need. */
export type Entity = { pascal: string; plural: string; table: string; slug: string };

/** One feature extracted from the description. */
export type Feature = {
  /** Cleaned phrase without the actor: "pay with Stripe", "an admin dashboard". */
  phrase: string;
  /** Explicit actor, plural: "buyers". */
  actor: string | null;
  verbal: boolean;
  verb: string | null;
  topic: Topic | null;
  entity: Entity;
  /** Readable title: "Buyers pay with Stripe", "Admin dashboard". */
  label: string;
  /** Noun-ish phrase usable after "for": "paying with Stripe", "the admin dashboard". */
  subject: string;
  weight: number;
};

export type Assessment = { score: number; rationale: string };

export type BriefAnalysis = {
  tech: Tech;
  title: string;
  features: Feature[];
  needsAuth: boolean;
  topics: Topic[];
  entities: Entity[];
  assessment: Assessment;
};

const VERBS = new Set(
  `accept access add adjust allow alert analyse analyze answer apply approve archive assign attach automate back backup
   bid bill book borrow browse buy calculate calibrate call cancel capture categorise categorize change chart chat check choose
   claim clean close collect comment compare compete complete compose compute configure connect contact control convert
   craft create customise customize decide delete deliver design detect discover display donate download draft draw
   earn edit email enable enter equip estimate exchange explore export fetch fight fill filter find flag follow forecast
   generate get give go graph handle help hire host import invite invoice join jump keep label launch learn leave lend like
   list listen load lock log manage map mark match measure merge message moderate monitor move notify open order organise
   organize pay pick plan play post predict preview print process publish purchase rank rate read receive recommend
   record redeem register remind remove rent reorder reply report request reserve reset respond restore return review
   run sample save scan schedule scrape search see select sell send set share ship shoot shop show sign solve sort split
   start stop store stream submit subscribe suggest summarise summarize support switch sync tag take test text track trade
   train transfer translate trigger turn unlock update upgrade upload use validate verify view visit visualise visualize
   vote warn watch water write build develop produce extract assess combine cluster segment identify aggregate invite follow
   reward earn buy rent sell swap convert summarise transcribe recognise recognize classify organise plot simulate spawn
   customise dispatch assign approve reject escalate notify greet onboard upgrade`.split(/\s+/),
);

/** Words that, following a verb-looking first word, show a noun compound ("order history", "water pump"). */
const NOUN_HEADS = new Set(
  `history support view viewer management tracking tracker generation pump pumps system integration button buttons panel
   bar box mode center centre engine builder editor timer module widget widgets tool tools flow section sections card cards
   form forms page pages screen screens dashboard menu feed api templates filters filter options`.split(
    /\s+/,
  ),
);

/** Verbs that double as noun modifiers: only these form compounds with NOUN_HEADS ("order history"). */
const MODIFIER_VERBS = new Set(
  `order search chat water map plan log report view list support track test review book post comment message share control
   display stream scan match sort filter alert text email schedule sync record store show play vote label tag mark pay ship
   shop trade train design draft print export import upload download save backup reply sign set push monitor rate rent
   sample help book check time`.split(/\s+/),
);

/** "push notifications", "push alerts": a verb used as a noun modifier. */
const MODIFIER_COMPOUND = /^push\s+(notifications?|alerts?|messages?)\b/i;

const CONNECTORS = new Set(
  "and or of for with in on to from over by via at into across per as than when while every each".split(" "),
);

const ACTORS = new Set(
  `users user people customers customer buyers buyer sellers seller vendors vendor admins admin administrators administrator
   players player students student teachers teacher members member visitors visitor guests guest hosts host drivers driver
   riders rider patients patient doctors doctor editors editor authors author employees employee managers manager staff
   owners owner tenants landlords clients client parents kids coaches athletes freelancers recruiters candidates moderators
   subscribers readers writers creators organisers organizers attendees travelers travellers shoppers merchants agents
   technicians operators growers farmers analysts teams families friends`.split(/\s+/),
);

const GENERIC_ACTORS = new Set([
  "users",
  "user",
  "people",
  "anyone",
  "everyone",
  "you",
  "they",
  "we",
  "i",
  "it",
]);

const DROP_WORDS = new Set(
  `a an the their its his her my our your all any some each every new daily weekly monthly own multiple custom personal
   simple basic various different favourite favorite existing other more many several recent current past upcoming local
   online real-time live quick easy detailed full complete`.split(/\s+/),
);

const TECH_WORDS = new Set(
  `react node node.js nodejs express postgres postgresql mysql mongodb mongo sqlite redis typescript javascript python django
   flask fastapi rails ruby laravel php vue vue.js angular svelte sveltekit next.js nextjs flutter dart firebase firestore swift
   swiftui kotlin java spring go golang rust c# .net c++ arduino esp32 raspberry pi docker kubernetes aws gcp azure tailwind
   css html graphql supabase unity godot unreal phaser pygame tensorflow pytorch pandas jupyter streamlit selenium playwright
   airflow n8n ansible powershell electron tauri qt wpf vercel heroku netlify expo native micropython platformio c ts js
   stack frontend backend`.split(/\s+/),
);

const PROJECT_NOUNS =
  /\b(app|apps|application|website|site|platform|marketplace|tool|system|service|game|dashboard|api|bot|device|monitor|tracker|store|shop|blog|cms|pipeline|script|portal|crm|erp|saas|extension|plugin|library|cli|backend|network|clone|manager|planner|assistant|controller|station|robot|workflow|scraper|engine|simulator|platformer|shooter|rpg|editor|client|hub|journal|diary|calculator|generator|organi[sz]er|scheduler|notebook|list|board|model|analysis|sensor|thermostat|logger|kiosk|intranet|wiki|forum)\b/i;

const NON_FUNCTIONAL =
  /^(be |it is |is |should be |must be )?(very |really |super |highly )?(fast|quick|secure|safe|responsive|scalable|simple|easy|intuitive|modern|clean|beautiful|nice|reliable|performant|user[- ]friendly|mobile[- ]friendly|accessible|lightweight|cheap|free|open[- ]source|good[- ]looking|well[- ]designed|easy to use|maintainable|robust)\b/i;

function isVerbWord(word: string | undefined): string | null {
  if (!word) return null;
  const w = word.toLowerCase().replace(/[^a-z-]/g, "");
  if (VERBS.has(w)) return w;
  return null;
}

/** "reads" -> "read", "watches" -> "watch", "notifies" -> "notify". */
function thirdPersonBase(word: string): string | null {
  const w = word.toLowerCase().replace(/[^a-z-]/g, "");
  if (!w.endsWith("s") || w.length < 4) return null;
  const candidates = [w.replace(/ies$/, "y"), w.replace(/es$/, ""), w.slice(0, -1)];
  for (const c of candidates) if (VERBS.has(c)) return c;
  return null;
}

function gerundBase(word: string): string | null {
  const w = word.toLowerCase();
  if (!w.endsWith("ing") || w.length < 6) return null;
  const stem = w.slice(0, -3);
  if (VERBS.has(stem)) return stem;
  if (VERBS.has(`${stem}e`)) return `${stem}e`;
  if (/(.)\1$/.test(stem) && VERBS.has(stem.slice(0, -1))) return stem.slice(0, -1);
  if (stem.endsWith("y") && VERBS.has(`${stem.slice(0, -1)}ie`)) return `${stem.slice(0, -1)}ie`;
  return null;
}

type VerbInfo = { base: string; rest: string } | null;

/** Whether a chunk starts with a verb ("track habits", "reads temperature", "sharing photos"), and its base form. */
function leadingVerb(ws: string[]): VerbInfo {
  const [first, second] = ws;
  if (!first || ws.length < 2) return null;
  if (MODIFIER_COMPOUND.test(ws.join(" "))) return null;
  const next = second?.toLowerCase().replace(/[^a-z-]/g, "") ?? "";
  const rest = ws.slice(1).join(" ");
  const base = isVerbWord(first);
  if (base) {
    if (NOUN_HEADS.has(next) && MODIFIER_VERBS.has(base)) return null;
    return { base, rest };
  }
  const s = thirdPersonBase(first);
  if (s) {
    if (CONNECTORS.has(next) || NOUN_HEADS.has(next)) return null;
    return { base: s, rest };
  }
  const g = gerundBase(first);
  if (g) {
    if (NOUN_HEADS.has(next)) return null;
    return { base: g, rest };
  }
  return null;
}

function actorPlural(actor: string): string {
  if (actor === "staff") return actor;
  return actor.endsWith("s") ? actor : plural(actor);
}

type Chunk = { actor: string | null; verb: string | null; rest: string; text: string };

/** Splits "buyers search listings" into actor "buyers", verb "search", rest "listings". */
function analyseChunk(text: string): Chunk {
  const ws = words(text);
  const first = ws[0]?.toLowerCase() ?? "";
  let offset = 0;
  if (first === "the" && ws[1] && ACTORS.has(ws[1].toLowerCase())) offset = 1;
  const actorWord = ws[offset]?.toLowerCase() ?? "";
  if ((ACTORS.has(actorWord) || GENERIC_ACTORS.has(actorWord)) && ws.length > offset + 1) {
    const afterActor = ws.slice(offset + 1);
    const modal = /^(can|could|should|will|must|may|might|also|then)$/i;
    while (afterActor.length > 1 && modal.test(afterActor[0]!)) afterActor.shift();
    if (
      afterActor[0] &&
      /^(be|are|get)$/i.test(afterActor[0]) &&
      afterActor[1] &&
      /^able$/i.test(afterActor[1])
    )
      afterActor.splice(0, afterActor[2]?.toLowerCase() === "to" ? 3 : 2);
    const info = leadingVerb(afterActor.length === 1 ? [...afterActor, ""] : afterActor);
    const single =
      afterActor.length === 1 ? (isVerbWord(afterActor[0]) ?? thirdPersonBase(afterActor[0]!)) : null;
    if (info || single) {
      const base = info?.base ?? single!;
      const rest = info ? afterActor.slice(1).join(" ") : "";
      return {
        actor: GENERIC_ACTORS.has(actorWord) ? null : actorPlural(actorWord),
        verb: base,
        rest: rest.trim(),
        text: `${base}${rest.trim() ? ` ${rest.trim()}` : ""}`,
      };
    }
  }
  const info = leadingVerb(ws);
  if (info)
    return { actor: null, verb: info.base, rest: info.rest, text: `${info.base} ${info.rest}`.trim() };
  return { actor: null, verb: null, rest: text, text };
}

const LEADING_NOISE: RegExp[] = [
  /^(and|also|plus|then|or|but|as well as|along with|together with|additionally|finally|optionally)\b[\s,]*/i,
  /^(it|this|the (app|application|site|website|platform|system|service|tool|game|device|bot|script|dashboard|api|product|project))\s+(should|must|will|can|could|would|needs to|has to)?\s*(also\s+)?(be able to\s+)?/i,
  /^(should|must|will|can|could|would|needs to|has to|be able to)\s+/i,
  /^(i|we)\s+(want|need|would like|'d like)\s+(to\s+)?(be able to\s+)?/i,
  /^(where|that|which|who|whose|in which)\s+/i,
];

const LIST_INTRO =
  /^(?:(?:it|the \w+|this \w+)\s+)?(?:should |must |will |also )*(?:includ(?:e|es|ing)|featur(?:e|es|ing)|support(?:s|ing)?|offer(?:s|ing)?|provid(?:e|es|ing)|ha(?:s|ve|ving)|with|need(?:s)?|require(?:s)?|there (?:is|are|should be)|contain(?:s|ing)?|key features(?: are| include)?|features(?: are)?|requirements(?: are)?)\b:?\s*/i;

const ENABLER =
  /^(allow|allows|allowing|let|lets|letting|enable|enables|enabling|help|helps|helping)\s+(\w+)\s+(to\s+)?/i;

function stripTrailingTech(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const m =
      /\s+(using|built with|built in|built on|written in|powered by|based on|in|with|on|via)\s+([^,]+)$/i.exec(
        out,
      );
    if (!m) break;
    const group = words(m[2]!.replace(/[+&,]/g, " ")).map((w) => w.toLowerCase());
    if (group.length > 0 && group.every((w) => TECH_WORDS.has(w))) out = out.slice(0, m.index);
    else break;
  }
  return out;
}

const PROPER = new Set(
  `stripe paypal google apple slack github gitlab microsoft facebook instagram twitter whatsapp telegram shopify amazon
   zoom notion trello jira spotify youtube discord openai excel wi-fi bluetooth lora mqtt sms gps lcd oled sd`.split(
    /\s+/,
  ),
);

/** Drops the capital a sentence start gave a common word ("Reviews and ratings" -> "reviews and ratings"). */
function sentenceCase(text: string): string {
  const first = words(text)[0];
  if (!first || !/^[A-Z][a-z'-]+$/.test(first)) return text;
  const lower = first.toLowerCase();
  if (PROPER.has(lower) || TECH_WORDS.has(lower)) return text;
  return lower + text.slice(first.length);
}

function cleanChunk(raw: string): {
  text: string;
  listIntro: boolean;
  actor: string | null;
  benefit: boolean;
} {
  let text = collapseSpaces(raw.replace(/^[-*•·\d.)\s]+/, "").replace(/["“”]/g, ""));
  let listIntro = false;
  let actor: string | null = null;
  if (/^(so that|so|in order to|because)\b/i.test(text)) return { text: "", listIntro, actor, benefit: true };
  for (let pass = 0; pass < 4; pass++) {
    const before = text;
    for (const pattern of LEADING_NOISE) text = text.replace(pattern, "");
    const intro = LIST_INTRO.exec(text);
    if (intro && intro[0].length > 0) {
      text = text.slice(intro[0].length);
      listIntro = true;
    }
    const enabler = ENABLER.exec(text);
    if (enabler) {
      const who = enabler[2]!.toLowerCase();
      if (ACTORS.has(who) || GENERIC_ACTORS.has(who) || who === "them") {
        if (ACTORS.has(who) && !GENERIC_ACTORS.has(who)) actor = who;
        text = text.slice(enabler[0].length);
      }
    }
    if (text === before) break;
  }
  const passive =
    /^(.{2,40}?)\s+(?:is|are|will be|should be|must be|can be)\s+(?:\w+ed|\w+en|shown|sent|made|built|kept|paid|available|possible|optional|required)\b/i.exec(
      text,
    );
  const subjectWords = passive ? words(passive[1]!).map((w) => w.toLowerCase()) : [];
  if (
    passive &&
    analyseChunk(passive[1]!).verb === null &&
    subjectWords.some((w) => !ACTORS.has(w) && !GENERIC_ACTORS.has(w) && !DROP_WORDS.has(w))
  )
    text = passive[1]!;
  text = stripTrailingTech(text)
    .replace(/\b(etc|and more|and so on)\b\.?/gi, "")
    .replace(/[\s,;:.!?]+$/, "")
    .trim();
  return { text: sentenceCase(text), listIntro, actor, benefit: false };
}

function isUseful(text: string): boolean {
  const ws = words(text).map((w) => w.toLowerCase().replace(/[^a-z0-9#+.-]/g, ""));
  if (ws.length === 0) return false;
  if (ws.every((w) => TECH_WORDS.has(w) || DROP_WORDS.has(w) || CONNECTORS.has(w) || w === "")) return false;
  if (NON_FUNCTIONAL.test(text) && ws.length <= 4) return false;
  if (/^(more|other|misc|stuff|things|anything|everything)$/i.test(text)) return false;
  return true;
}

/** The first noun group of a verb's object: "competitor prices from five websites" -> "competitor prices". */
function objectPhrase(rest: string): string | null {
  const out: string[] = [];
  for (const w of words(rest)) {
    const lw = w.toLowerCase().replace(/[,;:.]+$/, "");
    if (CONNECTORS.has(lw)) break;
    out.push(w.replace(/[,;:.]+$/, ""));
    if (/[,;:.]$/.test(w)) break;
  }
  return out.length > 0 && out.length <= 4 ? out.join(" ") : null;
}

type RawFeature = { text: string; actor: string | null; verb: string | null; rest: string };

/** Splits one clause ("buyers search listings, pay with Stripe and chat…") into feature phrases. */
function parseClause(clause: string, initialActor: string | null): RawFeature[] {
  const pieces = clause
    .split(/\s*[,;]\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  type Item = { text: string; verbal: boolean; actor: string | null; list: boolean };
  const items: Item[] = [];
  let nounMode = false;
  for (const piece of pieces) {
    const cleaned = cleanChunk(piece);
    if (cleaned.benefit) break;
    if (cleaned.listIntro) nounMode = true;
    const text = cleaned.text;
    if (!text) continue;
    const chunk = analyseChunk(text);
    const previous = items[items.length - 1];
    // In a list ("with product catalogue, shopping cart…") only a plain verb starts an action.
    const baseVerb = chunk.verb !== null && isVerbWord(words(text)[chunk.actor ? 1 : 0]) !== null;
    if (chunk.verb && (!nounMode || baseVerb)) {
      items.push({ text, verbal: true, actor: cleaned.actor, list: false });
      nounMode = false;
    } else if (!nounMode && previous?.verbal && words(text).length <= 5) {
      previous.text = `${previous.text}, ${text}`;
    } else {
      items.push({ text, verbal: false, actor: null, list: nounMode || pieces.length > 1 });
    }
  }
  const out: RawFeature[] = [];
  // The last explicit actor carries over: "buyers search listings, pay with Stripe" -> buyers pay.
  let running = initialActor;
  const flush = (value: string, verbal: boolean) => {
    const chunk = analyseChunk(value);
    if (!verbal || !chunk.verb) {
      out.push({ text: value, actor: null, verb: null, rest: value });
      return;
    }
    if (chunk.actor) running = chunk.actor;
    out.push({ text: chunk.text, actor: running, verb: chunk.verb, rest: chunk.rest });
  };
  for (const item of items) {
    if (item.actor) running = item.actor;
    const parts = item.text.split(/\s+and\s+/i);
    let current = parts[0] ?? "";
    for (const part of parts.slice(1)) {
      const startsVerb = analyseChunk(part).verb !== null && words(part).length >= 2;
      const splitNoun = !item.verbal && item.list && words(part).length <= 4 && words(current).length <= 4;
      if (startsVerb || splitNoun) {
        flush(current, item.verbal);
        current = part;
        if (startsVerb) item.verbal = true;
      } else current = `${current} and ${part}`;
    }
    flush(current, item.verbal);
  }
  // "compare them with our catalogue": name what "them" refers to.
  for (let i = 1; i < out.length; i++) {
    const f = out[i]!;
    const m = /^(\S+)\s+(them|it)\b(.*)$/i.exec(f.text);
    const antecedent = objectPhrase(out[i - 1]!.rest);
    if (f.verb && m && antecedent) {
      f.text = `${m[1]} ${antecedent}${m[3]}`;
      f.rest = `${antecedent}${m[3]}`;
    }
  }
  return out.filter((f) => isUseful(f.text));
}

const TITLE_SPLIT =
  /\s(?:where|that|which|who|so that|to help|to let|allowing|letting|enabling|in which|for people to|for users to)\s|:\s|\s[-–—]\s/i;

function cleanTitle(raw: string): string {
  let t = collapseSpaces(raw)
    .replace(
      /^(i|we)\s+(want|need|would like|'d like)\s+(to\s+)?(build|create|make|develop|have|get|write)?\s*/i,
      "",
    )
    .replace(
      /^(please\s+)?(build|create|make|develop|design|write|implement|code|prototype)\s+(me\s+|us\s+)?/i,
      "",
    )
    .replace(/^(a|an|the)\s+/i, "");
  t = stripTrailingTech(t).replace(/[\s,.;:]+$/, "");
  return clipWords(t, 7);
}

type Parsed = { title: string | null; raws: RawFeature[]; authMentioned: boolean };

function splitSentences(text: string): string[] {
  return text
    .replace(/\b(e\.g|i\.e|etc|vs)\./gi, (m) => m.replace(/\./g, ""))
    .split(/\r?\n+|(?<=[.!?])\s+|;\s+/)
    .map((s) => s.replace(/^[-*•·\s]+|^\d+[.)]\s+/, "").trim())
    .filter((s) => s.length > 0);
}

function parseDescription(text: string, withTitle: boolean): Parsed {
  const sentences = splitSentences(text);
  let title: string | null = null;
  const raws: RawFeature[] = [];
  sentences.forEach((sentenceRaw, index) => {
    // Only 12 features are kept; parsing far beyond that only costs time on very long descriptions.
    if (raws.length >= 30) return;
    let sentence = sentenceRaw.replace(/[.!?]+$/, "");
    if (withTitle && index === 0) {
      const split = TITLE_SPLIT.exec(sentence);
      const withIndex = / with /i.exec(sentence);
      let cut: { at: number; length: number; list: boolean } | null = split
        ? { at: split.index, length: split[0].length, list: false }
        : null;
      if (withIndex && (!cut || withIndex.index < cut.at)) {
        const left = sentence.slice(0, withIndex.index);
        if (PROJECT_NOUNS.test(left) && words(left).length <= 8)
          cut = { at: withIndex.index, length: withIndex[0].length, list: true };
      }
      const left = cut ? sentence.slice(0, cut.at) : sentence;
      if (PROJECT_NOUNS.test(left) && words(left).length <= 9) {
        title = cleanTitle(left);
        sentence = cut ? `${cut.list ? "with " : ""}${sentence.slice(cut.at + cut.length)}` : "";
      }
    }
    const colon = /^([^:]{1,40}):\s*(.+)$/.exec(sentence);
    if (colon && words(colon[1]!).length <= 4) sentence = colon[2]!;
    if (sentence.trim()) raws.push(...parseClause(sentence, null));
  });
  return { title, raws, authMentioned: AUTH_TOPIC.match.test(text) };
}

/** The entity a feature manipulates: the topic's, or the head noun of its object ("create daily habits" -> Habit). */
function deriveEntity(rest: string, phrase: string, topic: Topic | null): Entity {
  let name: string | null = null;
  if (topic?.strong) name = topicEntity(topic, phrase);
  if (!name) {
    const objectWords: string[] = [];
    for (const w of words(rest.replace(/[,;:]/g, " , "))) {
      const lw = w.toLowerCase();
      if (lw === "," || CONNECTORS.has(lw)) {
        if (objectWords.length > 0) break;
        if (CONNECTORS.has(lw)) break;
        continue;
      }
      objectWords.push(w);
    }
    const content = objectWords.filter(
      (w) => !DROP_WORDS.has(w.toLowerCase()) && !TECH_WORDS.has(w.toLowerCase()),
    );
    const head = content[content.length - 1];
    if (head && /^[a-z][a-z-]*$/i.test(head) && !ACTORS.has(head.toLowerCase()))
      name = pascal(singular(head));
  }
  if (!name) name = topic ? topicEntity(topic, phrase) : "Item";
  return entityFromPascal(name);
}

function topicEntity(topic: Topic, phrase: string): string {
  if (topic.id === "listings" && /\bproducts?\b/i.test(phrase)) return "Product";
  if (topic.id === "reviews" && /\bcomments?\b/i.test(phrase)) return "Comment";
  return topic.entity;
}

export function entityFromPascal(name: string): Entity {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const pluralWords = words(spaced);
  const last = pluralWords.pop() ?? "item";
  const pluralText = [...pluralWords, plural(last)].join(" ");
  return { pascal: name, plural: pluralText, table: snake(pluralText), slug: kebab(pluralText) };
}

function featureWeight(phrase: string, topic: Topic | null): number {
  const n = words(phrase).length;
  const generic = 6 + (n >= 6 ? 1 : 0) + (/,|\band\b/.test(phrase) ? 1 : 0);
  return Math.min(9, Math.max(generic, topic?.weight ?? 0));
}

function makeFeature(raw: RawFeature, family: Family): Feature {
  const phrase = clipWords(
    raw.text.replace(/^(a|an|the)\s+(?=\w+\s+\w+)/i, (m) => m.toLowerCase()),
    12,
  );
  const topic = detectTopic(raw.actor ? `${raw.actor} ${phrase}` : phrase, family);
  const verbal = raw.verb !== null;
  const rest = verbal ? words(phrase).slice(1).join(" ") : phrase;
  const entity = deriveEntity(rest, phrase, topic);
  const nounPhrase = phrase.replace(/^(a|an)\s+/i, "the ");
  let subject: string;
  if (verbal) {
    const restClean = rest.trim();
    subject = restClean
      ? `${gerund(raw.verb!)} ${restClean}`
      : topic
        ? lowerFirst(topic.label)
        : gerund(raw.verb!);
  } else subject = nounPhrase;
  subject = subject.replace(/\btheir\b/gi, "the user's");
  const labelBase = verbal && raw.actor ? `${raw.actor} ${phrase}` : phrase.replace(/^(a|an|the)\s+/i, "");
  return {
    phrase,
    actor: raw.actor,
    verbal,
    verb: raw.verb,
    topic,
    entity,
    label: capitalise(clipWords(labelBase, 9)),
    subject: clipWords(subject, 9),
    weight: featureWeight(phrase, topic),
  };
}

/** Features on the same theme ("reviews", "ratings") are planned together. */
function mergeSimilar(features: Feature[]): Feature[] {
  const out: Feature[] = [];
  for (const f of features) {
    const same = out.find(
      (o) =>
        (o.topic !== null && o.topic === f.topic && o.verbal === f.verbal) ||
        o.phrase.toLowerCase() === f.phrase.toLowerCase(),
    );
    if (!same) {
      out.push(f);
      continue;
    }
    if (same.phrase.toLowerCase() === f.phrase.toLowerCase()) continue;
    const merged = `${same.phrase} and ${f.verbal && same.actor === f.actor ? f.phrase : f.phrase}`;
    if (words(merged).length > 9) {
      out.push(f);
      continue;
    }
    const index = out.indexOf(same);
    out[index] = {
      ...same,
      phrase: merged,
      label: capitalise(
        clipWords(`${same.label} and ${f.verbal ? f.phrase : f.phrase.replace(/^(a|an|the)\s+/i, "")}`, 9),
      ),
      subject: clipWords(`${same.subject} and ${f.subject}`, 9),
      weight: Math.min(9, Math.max(same.weight, f.weight) + 1),
    };
  }
  return out;
}

function isAuthOnly(raw: RawFeature, family: Family): boolean {
  const text = raw.actor ? `${raw.actor} ${raw.text}` : raw.text;
  if (!AUTH_TOPIC.match.test(text)) return false;
  const others = allTopics(text, family).filter((t) => t.id !== "auth");
  return others.every((t) => t.id === "notifications" && !/notif|remind|alert|push|sms/i.test(text));
}

const FEATURE_POINTS = [0, 0, 1, 1.5, 2, 2.5, 3, 3, 3, 3.5];
const BASE_SCORE: Record<string, number> = {
  "web-application": 4,
  ecommerce: 4.5,
  cms: 3,
  "mobile-application": 4,
  "api-backend": 4,
  "desktop-application": 4,
  "data-science": 4,
  game: 5,
  iot: 4,
  automation: 3,
};

function assess(
  tech: Tech,
  title: string,
  features: Feature[],
  featureCount: number,
  topics: Topic[],
  needsAuth: boolean,
  text: string,
): Assessment {
  const base = BASE_SCORE[tech.typeId] ?? 4;
  const featurePoints = FEATURE_POINTS[Math.min(featureCount, FEATURE_POINTS.length - 1)] ?? 3.5;
  const ids = new Set(topics.map((t) => t.id));
  const riskTopics = topics.filter(
    (t) =>
      t.risk > 0 &&
      (t.id !== "auth" || needsAuth) &&
      !(t.id === "realtime" && (ids.has("chat") || ids.has("multiplayer"))),
  );
  let risk = riskTopics.reduce((sum, t) => sum + t.risk, 0);
  const extras: string[] = [];
  if (/\b(hipaa|gdpr|pci|compliance|audit trail|encrypt\w*)\b/i.test(text)) {
    risk += 0.5;
    extras.push("compliance requirements");
  }
  if (/\b(millions?|high traffic|at scale|scalab\w*|thousands of (users|devices|requests))\b/i.test(text)) {
    risk += 0.5;
    extras.push("scale targets");
  }
  const n = words(text).length;
  const lengthPoints = n > 160 ? 1 : n > 80 ? 0.5 : 0;
  const score = Math.max(
    1,
    Math.min(10, Math.round(base + featurePoints + Math.min(2, risk) + lengthPoints)),
  );

  const featureNames = features.slice(0, 4).map((f) => lowerFirst(f.topic?.label ?? f.label));
  const scope =
    features.length <= 1
      ? `${typeNoun(tech)} with a single core workflow (${title})`
      : `${typeNoun(tech)} with ${features.length} distinct features (${listJoin(featureNames)}${features.length > 4 ? ", …" : ""})`;
  const riskNames = [...riskTopics.map((t) => t.riskName ?? t.label.toLowerCase()), ...extras];
  const second =
    riskNames.length > 0
      ? `${capitalise(listJoin(riskNames.slice(0, 4)))} ${riskNames.length === 1 ? "adds" : "add"} integration, security or reliability work on the ${tech.stack.name} stack.`
      : `No external integrations stand out, so the ${tech.stack.name} stack covers it with well-known patterns.`;
  return { score, rationale: `Scored ${score}/10: ${scope}. ${second}` };
}

/** "a todo list" has no feature phrases: plan its core workflow around the title's main noun. */
const TITLE_STOP = new Set([
  "web",
  "mobile",
  "online",
  "small",
  "2d",
  "3d",
  "desktop",
  "little",
  "personal",
  "sharing",
]);

function coreFeature(title: string, tech: Tech): Feature {
  const main = title.toLowerCase().split(/\s+(?:for|with|to|that|where|in|on|of)\s+/)[0] ?? "";
  const ws = words(main)
    .map((w) => w.replace(/-(taking|making|sharing|tracking|planning|booking)$/, ""))
    .filter((w) => !DROP_WORDS.has(w) && !TECH_WORDS.has(w) && !TITLE_STOP.has(w));
  let head = ws[ws.length - 1];
  if (head && PROJECT_NOUNS.test(head)) head = ws.length > 1 ? ws[ws.length - 2] : undefined;
  const usable = head !== undefined && /^[a-z-]+$/.test(head) && !PROJECT_NOUNS.test(head);
  const entity = entityFromPascal(usable ? pascal(singular(head!)) : "Item");
  const userFacing = tech.family !== "iot" && tech.family !== "automation" && tech.family !== "data";
  const base =
    userFacing && usable
      ? makeFeature(
          { text: `manage ${entity.plural}`, actor: null, verb: "manage", rest: entity.plural },
          tech.family,
        )
      : makeFeature({ text: `the core ${title} workflow`, actor: null, verb: null, rest: "" }, tech.family);
  const topic = detectTopic(entity.plural, tech.family);
  return { ...base, entity: topic?.strong ? entityFromPascal(topic.entity) : entity, topic, weight: 6 };
}

/** "a web application", "an IoT / embedded" project. */
export function typeNoun(tech: Tech): string {
  let label = tech.typeLabel
    .split(" ")
    .map((w) => (/^[A-Z][a-z-]+$/.test(w) ? w.toLowerCase() : w))
    .join(" ");
  if (!/(application|service|game)$/i.test(label)) label = `${label} project`;
  return `${/^[aeiou]/i.test(label) ? "an" : "a"} ${label}`;
}

const cache = new Map<string, BriefAnalysis>();

export function analyseBrief(brief: ProjectBrief): BriefAnalysis {
  const key = JSON.stringify([
    brief.description,
    brief.applicationType?.id ?? null,
    brief.applicationType?.label ?? null,
    brief.stack,
    brief.additionalRequirements,
  ]);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = computeAnalysis(brief);
  if (cache.size > 200) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** Pathological tokens (a 5,000-character "word") would overflow every length limit downstream. */
function tameText(text: string): string {
  return text.slice(0, 20_000).replace(/\S{41,}/g, (w) => w.slice(0, 40));
}

function computeAnalysis(input: ProjectBrief): BriefAnalysis {
  const brief: ProjectBrief = {
    ...input,
    description: tameText(input.description),
    additionalRequirements: input.additionalRequirements ? tameText(input.additionalRequirements) : null,
  };
  const tech0 = resolveTech(brief);
  const text = `${brief.description}\n${brief.additionalRequirements ?? ""}`;
  const tech: Tech = /\bpaypal\b/i.test(text)
    ? { ...tech0, payments: "PayPal" }
    : /\bstripe\b/i.test(text)
      ? { ...tech0, payments: "Stripe" }
      : tech0;
  const main = parseDescription(brief.description, true);
  const extra = brief.additionalRequirements ? parseDescription(brief.additionalRequirements, false) : null;
  const raws = [...main.raws, ...(extra?.raws ?? [])];
  let authMentioned = main.authMentioned || (extra?.authMentioned ?? false);
  const kept: RawFeature[] = [];
  for (const raw of raws) {
    if (isAuthOnly(raw, tech.family)) authMentioned = true;
    else kept.push(raw);
  }
  const firstObject = kept.find((r) => r.verb)?.rest;
  const title =
    main.title ??
    (firstObject ? objectPhrase(firstObject) : null) ??
    clipWords(tech.typeLabel.toLowerCase(), 4);
  let features = mergeSimilar(kept.map((r) => makeFeature(r, tech.family))).slice(0, 12);
  const core = coreFeature(title, tech);
  const userFacing = tech.family !== "iot" && tech.family !== "automation" && tech.family !== "data";
  const scored = features.length;
  if (features.length === 0) features = [core];
  else if (
    userFacing &&
    core.entity.pascal !== "Item" &&
    !features.some((f) => f.entity.pascal === core.entity.pascal || (core.topic && f.topic === core.topic))
  )
    features = [core, ...features];
  const keptText = [main.title ?? "", ...kept.map((r) => (r.actor ? `${r.actor} ${r.text}` : r.text))].join(
    ". ",
  );
  const topics = [
    ...new Set([...allTopics(keptText, tech.family), ...features.flatMap((f) => (f.topic ? [f.topic] : []))]),
  ];
  const accountFamilies: Family[] = ["web", "mobile", "api", "desktop"];
  const needsAuth =
    (authMentioned && tech.family !== "iot") ||
    (accountFamilies.includes(tech.family) && features.some((f) => f.topic?.accounts)) ||
    (tech.family === "game" && features.some((f) => f.topic?.id === "multiplayer"));
  const entities: Entity[] = [];
  if (needsAuth) entities.push(entityFromPascal("User"));
  for (const f of features) {
    if (f.topic && !f.topic.persist) continue;
    if (!entities.some((e) => e.pascal === f.entity.pascal)) entities.push(f.entity);
  }
  return {
    tech,
    title,
    features,
    needsAuth,
    topics,
    entities,
    assessment: assess(tech, title, features, Math.max(1, scored), topics, needsAuth, text),
  };
}
