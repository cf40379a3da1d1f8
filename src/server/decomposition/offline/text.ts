/** Small English text helpers for the offline planner: deterministic, no dictionaries beyond these lists. */

export function words(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

export function wordCount(text: string): number {
  return words(text).length;
}

export function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the first word looks like an acronym or a proper name ("API", "iOS"). */
export function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** "a", "a and b", "a, b and c". */
export function listJoin(items: readonly string[], conjunction = "and"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

export function pascal(text: string): string {
  return words(text.replace(/[^A-Za-z0-9 ]+/g, " "))
    .map((w) => (/^[A-Z0-9]+$/.test(w) && w.length <= 3 ? w : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

export function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function snake(text: string): string {
  return kebab(text).replace(/-/g, "_");
}

/** "PlaceOrder" -> "Place order". */
export function humanize(pascalName: string): string {
  const spaced = pascalName.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z][a-z])/g, "$1 $2");
  return capitalise(spaced.toLowerCase());
}

const UNCOUNTABLE = new Set([
  "goods",
  "news",
  "data",
  "analytics",
  "settings",
  "series",
  "species",
  "status",
  "progress",
  "feedback",
  "inventory",
  "media",
  "software",
  "equipment",
  "information",
  "weather",
  "humidity",
  "moisture",
  "temperature",
  "wi-fi",
  "telemetry",
]);

export function singular(word: string): string {
  const w = word.toLowerCase();
  if (UNCOUNTABLE.has(w) || w.length <= 3) return word;
  if (/ies$/.test(w)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(w)) return word;
  if (/(ches|shes|xes|sses|zes)$/.test(w)) return word.slice(0, -2);
  if (/s$/.test(w)) return word.slice(0, -1);
  return word;
}

export function plural(word: string): string {
  const w = word.toLowerCase();
  if (UNCOUNTABLE.has(w)) return word;
  if (/[^aeiou]y$/.test(w)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(w)) return `${word}es`;
  return `${word}s`;
}

/** Plural of the last word of a phrase: "sensor reading" -> "sensor readings". */
export function pluralPhrase(phrase: string): string {
  const ws = words(phrase);
  const last = ws.pop();
  return last === undefined ? phrase : [...ws, plural(last)].join(" ");
}

const IRREGULAR_PAST: Record<string, string> = {
  buy: "Bought",
  sell: "Sold",
  pay: "Paid",
  send: "Sent",
  write: "Written",
  read: "Read",
  see: "Seen",
  get: "Received",
  set: "Set",
  make: "Made",
  take: "Taken",
  find: "Found",
  run: "Run",
  give: "Given",
  keep: "Kept",
  leave: "Left",
  build: "Built",
  draw: "Drawn",
  choose: "Chosen",
  split: "Split",
  put: "Put",
  lend: "Lent",
  begin: "Begun",
  shoot: "Shot",
  fight: "Fought",
  win: "Won",
  lose: "Lost",
  bid: "Placed",
  go: "Gone",
  show: "Shown",
  hold: "Held",
  meet: "Met",
  sign: "Signed",
};

const DOUBLING = new Set([
  "log",
  "plan",
  "shop",
  "chat",
  "stop",
  "ship",
  "map",
  "tag",
  "scan",
  "swap",
  "drop",
  "pin",
  "flag",
  "blog",
  "jog",
  "star",
  "submit",
  "admit",
  "commit",
  "control",
  "label",
  "travel",
  "cancel",
  "equip",
  "run",
  "set",
  "get",
  "put",
  "begin",
  "win",
  "cut",
  "swim",
  "sit",
  "rob",
  "bet",
]);

/** "place" -> "Placed", "pay" -> "Paid"; capitalised for event names. */
export function pastTense(verb: string): string {
  const v = verb.toLowerCase();
  const irregular = IRREGULAR_PAST[v];
  if (irregular) return irregular;
  let past: string;
  if (v.endsWith("e")) past = `${v}d`;
  else if (/[^aeiou]y$/.test(v)) past = `${v.slice(0, -1)}ied`;
  else if (DOUBLING.has(v) && !/(run|set|get|put|begin|win|cut|swim|sit|bet)$/.test(v))
    past = `${v}${v.at(-1)}ed`;
  else past = `${v}ed`;
  return capitalise(past);
}

/** "create" -> "creating", "log" -> "logging". */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith("ie")) return `${v.slice(0, -2)}ying`;
  if (/[^aeiou]e$/.test(v) && v !== "be" && !v.endsWith("ee") && !v.endsWith("ye"))
    return `${v.slice(0, -1)}ing`;
  if (DOUBLING.has(v)) return `${v}${v.at(-1)}ing`;
  return `${v}ing`;
}

const TRAILING_STOP = new Set([
  "and",
  "or",
  "of",
  "with",
  "the",
  "a",
  "an",
  "to",
  "for",
  "in",
  "on",
  "by",
  "via",
  "from",
  "their",
  "its",
  "our",
  "your",
  "my",
  "that",
  "which",
  "at",
  "into",
]);

/** At most `max` words, without dangling conjunctions, prepositions or punctuation at the end. */
export function clipWords(text: string, max: number): string {
  const ws = words(text).slice(0, max);
  while (ws.length > 1) {
    const last = ws[ws.length - 1]!.toLowerCase().replace(/[,;:.]+$/, "");
    if (TRAILING_STOP.has(last)) ws.pop();
    else break;
  }
  return ws.join(" ").replace(/[,;:]+$/, "");
}

/** Keeps a sentence between 5 and 20 words: clips long ones and pads short ones with `pad`. */
export function fitSentence(text: string, pad: string): string {
  let out = collapseSpaces(text);
  if (wordCount(out) > 20) {
    const colon = out.indexOf(":");
    if (colon > 0 && wordCount(out.slice(0, colon)) >= 5) out = out.slice(0, colon);
    out = clipWords(out, 20);
  }
  if (wordCount(out) < 5) out = clipWords(`${out} ${pad}`, 20);
  return out;
}
