import { ATOMIC_HOURS } from "../../../../shared/schemas/plan";

/**
 * The outline's estimate of one stated requirement, by an open rule (decisions 014 and 027), shown as
 * "estimated by rule" so nobody mistakes it for a judgement: a base for the first thing asked, more for
 * each further operation it names ("create, edit and delete" is three; "name, frequency and category" is
 * one form), and more for work that is known to take longer (an integration with another system,
 * compliance, live updates, data that must be stored or migrated, screens). Punctuation counts for
 * nothing: a list inside a sentence is split into requirements before this runs. Capped at the size of one
 * subtask (ATOMIC_HOURS): a requirement that needs more becomes the team's call, said in its notes.
 */
const FACTORS: { re: RegExp; hours: number; why: string }[] = [
  {
    re: /\b(api|webhooks?|integrat\w*|stripe|paypal|saml|sso|oauth|okta|e-?mails?|sms|push notifications?|slack|discord|import\w*|export\w*|sync\w*|upload\w*|s3|mqtt|third[- ]party)\b/i,
    hours: 4,
    why: "talks to another system",
  },
  {
    re: /\b(audit|signatures?|complian\w*|hipaa|gdpr|cfr|encrypt\w*|permissions?|roles?)\b/i,
    hours: 4,
    why: "compliance or access rules",
  },
  {
    re: /\b(real[- ]?time|live|websockets?|offline|notifications?)\b/i,
    hours: 3,
    why: "live or offline behaviour",
  },
  {
    re: /\b(stor(e|age)|database|schema|migrat\w*|history|search\w*|reports?|analytics|statistics)\b/i,
    hours: 2,
    why: "stored or queried data",
  },
  {
    re: /\b(pages?|screens?|dashboards?|forms?|views?|charts?|heatmaps?|calendars?|ui)\b/i,
    hours: 2,
    why: "screens",
  },
];

export type RuleEstimate = { hours: number; why: string[] };

/** Operations a requirement names: each distinct one is work of its own. */
const OPERATIONS =
  /\b(create|add|edit|update|change|delete|remove|archive|list|view|browse|search|filter|sort|export|import|upload|download|share|invite|approve|reject|assign|schedule|cancel|pay|refund|book|send|notify|remind|sync|merge|split|duplicate|restore|print|scan|sign|comment|rate|tag|move|reorder|rename|publish|subscribe)\w*/gi;

function operations(text: string): number {
  const found = new Set([...text.matchAll(OPERATIONS)].map((m) => m[1]!.toLowerCase()));
  return Math.max(1, Math.min(4, found.size));
}

/** Words that name nothing to build: articles, pronouns, auxiliaries, fillers, connectives. */
const FUNCTION_WORDS = new Set(
  "a an the and or but nor so yet of to in on at by for with from into onto over under about as than then that this these those it its they them their there here we our us you your i me my he she his her be is are was were been being am do does did done have has had can could will would shall should may might must not no yes very really just also only even still too more most less least much many some any all each every other another such same own both either neither if when where while which who whom whose what why how because since until unless though although after before via per like one two three etc e.g i.e way ways thing things stuff lot lots bit kind sort able need needs want wants let lets make makes made get gets got use uses using please new own".split(
    " ",
  ),
);

/**
 * What a requirement names: its distinct content words, links and code left out ("habit", "invoice",
 * "csv"). Each adds a little, so a leaf that names more things is estimated higher, and a repeated word
 * or a comma adds nothing.
 */
export function namedThings(text: string): number {
  const words = text
    .replace(/(?:https?:\/\/|www\.)\S+/gi, " ")
    .replace(/`[^`]*`/g, " code ")
    .toLowerCase()
    .match(/[\p{L}][\p{L}\p{N}'-]*/gu);
  const things = new Set(
    (words ?? [])
      .map((w) => w.replace(/'s$/, "").replace(/(?<=[^s])s$/, ""))
      .filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w) && !OPERATION_WORDS.test(w)),
  );
  return things.size;
}
const OPERATION_WORDS = new RegExp(`^(?:${OPERATIONS.source.replace(/^\\b\(|\)\\w\*$/g, "")})`, "i");

export function estimateRequirement(text: string): RuleEstimate {
  const n = operations(text);
  const things = Math.min(7, namedThings(text));
  // Half an hour for each further thing it names, beyond the first, up to three and a half hours.
  let hours = 2.5 + 1.5 * (n - 1) + 0.5 * Math.max(0, things - 1) + (things > 0 ? 1 : 0);
  const why = [
    n === 1 ? "one operation" : `${n} operations`,
    `${things} thing${things === 1 ? "" : "s"} named`,
  ];
  for (const f of FACTORS) {
    if (f.re.test(text)) {
      hours += f.hours;
      why.push(f.why);
    }
  }
  return { hours: Math.min(ATOMIC_HOURS, Math.round(hours * 2) / 2), why };
}

/** Story points from hours: 1 (a few hours) to 8 (about two days). */
export function pointsForHours(hours: number): 1 | 2 | 3 | 5 | 8 | 13 {
  if (hours <= 3) return 1;
  if (hours <= 6) return 2;
  if (hours <= 10) return 3;
  if (hours <= 14) return 5;
  if (hours <= ATOMIC_HOURS) return 8;
  return 13;
}

/** A leaf's complexity (2-7) from its hours: always at or under the default splitting threshold. */
export function complexityForHours(hours: number): number {
  return Math.max(2, Math.min(7, 1 + Math.round((hours / ATOMIC_HOURS) * 6)));
}

/**
 * The range around a point estimate: 0.75x to 1.75x the likely hours, in half hours (software work runs
 * over more often and further than it runs under). Also applied by migration 0007 to older estimates.
 */
export function rangeAround(likely: number): { low: number; likely: number; high: number } {
  const half = (h: number) => Math.round(h * 2) / 2;
  return { low: Math.min(likely, half(likely * 0.75)), likely, high: Math.max(likely, half(likely * 1.75)) };
}
