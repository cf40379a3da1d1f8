import { kindReading } from "./learned";
import type { KindReading, StatedScope, WorkKind } from "./types";

/**
 * What kind of work a description asks for (issue 28), decided from the whole text, with the evidence
 * kept so the plan can say "Planned as: bug fix, because ...". Each kind plans differently
 * (planners/offline/outline.ts): a bug is reproduced before it is fixed, a migration is rehearsed before the
 * cut-over, a new product chooses its stack.
 *
 * Evidence is weighed, not matched once: structure counts most (steps to reproduce, expected and actual
 * behaviour, "from X 6 to 7"), then the words of each kind, each distinct word once. A text that builds
 * a new product and also mentions speed is a product with a performance requirement, not a performance
 * investigation: the kinds that change an existing system need evidence of that system.
 */

export const KIND_LABELS: Record<WorkKind, string> = {
  product: "new product",
  feature: "feature on an existing product",
  bug: "bug fix",
  performance: "performance work",
  migration: "migration or upgrade",
  infrastructure: "infrastructure",
  data: "data or machine learning",
  spike: "research spike",
};

type Signal = { re: RegExp; weight: number; say?: string };

const FAULT =
  /\b(?:fails?|failing|failed|crash(?:es|ed|ing)|does(?:n'?t|n’t| not) (?:work|load|save|open|show|start|respond|update|appear|sync|send)|do(?:n'?t|n’t| not) (?:work|load|save|open|show|start|respond|update|appear|sync|send)|does nothing|do nothing|nothing happens|(?:is|are|gets?|got) (?:broken|blank|empty|missing|wrong|stuck|lost|corrupted|duplicated)|broken (?:on|in|after|since|when|for)|throws?|returns? (?:a |an )?(?:\d{3}|error|wrong|null|undefined|empty|nothing)|shows? (?:the )?(?:wrong|an error|a blank|nothing|duplicates?)|stopped working|no longer (?:works?|loads?|saves?|shows?|opens?|starts?|sends?|syncs?)|hangs|freezes|(?:is|are) (?:sent|charged|shown|created|counted|billed) (?:twice|two times|again|\d+x)|wrong|incorrect(?:ly)?|off by one|one day (?:early|late|off)|(?:starts?|shows?|opens?|lands?|displays?) on the wrong)\b/i;

/**
 * A title that says something goes wrong now: "Login button does nothing on Safari 17", "Stripe webhooks
 * fail signature verification since v2.14.0", "[BUG] App crashes when rotating". What comes before the
 * fault is the thing that fails; a title that describes a product ("A bot that pings when builds fail")
 * names it after an article or a clause word, and is not a report.
 */
export function titleReportsFault(title: string | null): boolean {
  if (!title) return false;
  const clean = title.replace(/^\s*\[[^\]]*\]\s*/, "");
  const at = clean.search(FAULT);
  if (at < 0) return false;
  const before = clean.slice(0, at);
  return (
    !/^\s*(?:an?|build|create|make|write|develop|i|we|my|our new)\b/i.test(clean) &&
    !/\b(?:when|whenever|if|that|which|who|to|for|about|whether|until|unless)\b/i.test(before)
  );
}

/** Words of each kind; each distinct match counts once, up to the kind's cap. */
const WORDS: Record<Exclude<WorkKind, "product" | "feature">, { signals: Signal[]; cap: number }> = {
  bug: {
    cap: 5,
    signals: [
      {
        re: /\b(?:bugs?|crash(?:es|ed|ing)?|broken|regressions?|exceptions?|stack ?traces?|tracebacks?|panics?|segfaults?|throws?|thrown|errors?|fails?|failing|failed|doesn'?t work|does not work|not working|no longer works?|stopped working|wrong|incorrect(?:ly)?|unexpected(?:ly)?|duplicated?|missing|garbled|blank (?:page|screen)|freezes?|hangs?|race condition|off[- ]by[- ]one|nan|undefined is not|null pointer|500 (?:error|internal))\b/gi,
        weight: 1,
      },
    ],
  },
  performance: {
    cap: 7,
    signals: [
      {
        re: /\b(?:slow(?:ly|er|ness|est|s down)?|sluggish|laggy|latency|p9[059]|p50|percentile|load(?:ing)? times?|response times?|throughput|time to first byte|ttfb|lcp|fcp|tti|lighthouse|bundle size|too long|speed(?:s|ing)? up|faster|optimi[sz]\w*|performance|perf|memory (?:usage|leak|footprint)|cpu (?:usage|time)|n\+1|query plans?|explain(?: analyze)?|full table scans?|seq(?:uential)? scans?|missing index\w*|indexes|caching|cache hit|timeouts?|timing out|times out)\b/gi,
        weight: 1.5,
      },
      { re: /\b\d+(?:\.\d+)?\s?(?:ms|milliseconds|s|sec|secs|seconds|mins?|minutes)\b/gi, weight: 0.75 },
    ],
  },
  migration: {
    cap: 8,
    signals: [
      {
        re: /\b(?:migrat(?:e|es|ed|ion|ions|ing)|upgrad(?:e|es|ed|ing)|port(?:ing)? (?:from|to|it|our|the)|mov(?:e|ing) (?:from|off|away from)|switch(?:ing)? (?:from|over)|replac(?:e|ing) \w+ with|rewrite (?:it |\w+ )?in|end[- ]of[- ]life|eol|deprecat\w+|cut[- ]?over|dual[- ]writes?|backfill\w*|decommission\w*|sunset(?:ting)?|legacy|bump(?:ing)? \w+ to)\b/gi,
        weight: 2,
      },
      // "Rails 6.1 to 7.0", "from MySQL 5.7 to PostgreSQL 16", "Python 3.8 -> 3.12".
      {
        re: /\b(?:from [A-Z][\w.#+-]*(?: \d[\w.]*)? (?:to|->|→) [A-Z][\w.#+-]*|[A-Z][\w.#+-]* v?\d+(?:\.\d+)*x? (?:to|->|→) v?\d+(?:\.\d+)*)/g,
        weight: 3,
        say: "it names a move from one version or system to another",
      },
    ],
  },
  infrastructure: {
    cap: 7,
    signals: [
      {
        re: /\b(?:terraform|pulumi|cloudformation|ansible|kubernetes|k8s|helm|dockerfiles?|ci\/cd|ci pipeline|cd pipeline|github actions|gitlab[- ]ci|jenkins|circleci|argo ?cd|monitoring|alert(?:ing|s|manager)?|prometheus|grafana|datadog|pagerduty|opsgenie|uptime|backups?|disaster recovery|point[- ]in[- ]time recovery|restore test|vpc|subnets?|load balancers?|ingress|dns|tls certificates?|infrastructure|iac|on[- ]call|runbooks?|observability|autoscal\w+|clusters?|node pools?|staging environment|environments|secrets? manager|vault|fleet|provision\w*)\b/gi,
        weight: 1.5,
      },
    ],
  },
  data: {
    cap: 7,
    signals: [
      {
        re: /\b(?:datasets?|data sets?|training data|train(?:ing|ed)? (?:a |the |an )?(?:\w+ )?models?|machine learning|ml|classifiers?|regression|predict\w*|forecast\w*|feature (?:store|engineering|importance)|accuracy|precision|recall|auc|roc|f1|holdout|cross[- ]validation|etl|elt|data warehouse|warehouse|dbt|airflow|dagster|prefect|snowflake|bigquery|redshift|databricks|spark|pandas|notebooks?|jupyter|ingest\w*|embeddings?|fine[- ]tun\w*|inference|label(?:l)?ed data|labell?ing|data pipeline|data quality|drift|model (?:serving|registry|monitoring))\b/gi,
        weight: 1.5,
      },
      { re: /\b(?:dashboards?|analytics|metrics|kpis?|reports?)\b/gi, weight: 0.5 },
      {
        re: /\b(?:cohorts?|retention|conversion(?: rate)?|activation(?: rate)?|churn|dau|wau|mau|funnels?|attribution|aggregate tables?|scheduled queries|materiali[sz]ed views?|marts?|star schema|fact tables?|dimensions?)\b/gi,
        weight: 1,
      },
    ],
  },
  spike: {
    cap: 8,
    signals: [
      {
        re: /\b(?:investigat(?:e|ion|ing)|spike|research|evaluat(?:e|ion|ing)|assess(?:ment)?|compar(?:e|ison|ing)|feasib\w+|proof[- ]of[- ]concept|poc|time[- ]?box(?:ed)?|find out|figure out|recommendation|recommend|trade[- ]?offs?|pros and cons|go\/no[- ]go|decision record|adr|options|alternatives|shortlist|benchmark (?:the )?options)\b/gi,
        weight: 1.5,
      },
    ],
  },
};

/** Signs that the work changes a system that exists: the thing itself ("our app"), or only around it ("currently"). */
const EXISTING_PRODUCT =
  /\b(?:our (?:existing |current |production |live |old |legacy )?(?:[\w-]+ )?|the (?:existing|current|old|legacy|live|production) (?:[\w-]+ )?)(?:app|application|site|website|web ?app|product|platform|service|api|backend|frontend|system|dashboard|store|shop|codebase|repo|repository|monolith|database|db|cluster|admin|checkout|cli|bot|pipeline|portal|services)\b/gi;
const EXISTING =
  /\b(?:existing|currently|in production|today(?:'s)? (?:we|our|the)|we (?:use|run|have)|is running|still runs?|already)\b/gi;
/** Signs of something new being built. */
const NEW_BUILD =
  /\b(?:(?:i|we)(?:'d| would)? (?:want|like|plan|need|am going|are going) to (?:build|make|create|write|develop)|(?:build|make|create|develop|write)(?:ing)? (?:a|an|my) (?:new |small |simple |tiny |little |basic |web |mobile )?(?:app|application|tool|site|website|platform|service|bot|game|extension|library|product|startup|marketplace|shop|tracker|planner|portal|dashboard|system|prototype|mvp)\b|hackathon|side project|pet project|mvp|prototype|from scratch|new (?:app|tool|site|product|platform|service|bot|game)|an? (?:[\w'’,-]+ ){0,4}(?:app|tool|site|website|web app|platform|service|bot|game|extension|cli|library|marketplace|shop|tracker|planner|portal)\b (?:for|that|to|where|with|which))/gi;
/** Something measured as it runs now: "takes 14 s", "has become unusable", "times out". */
const RUNS_TODAY =
  /\b(?:takes?|took|is taking|are taking) (?:about |around |over |up to |almost |nearly |~)?\d|\b(?:is|are|has become|have become|became|got|gets|getting) (?:too |very |really |so |painfully |unusably |noticeably )?(?:slow|sluggish|unusable|laggy|unresponsive)\b|\btim(?:es|ing|ed) out\b/i;
const FEATURE_ASK =
  /\b(?:add(?:ing)?|support(?:ing)? for|feature request|new feature|allow (?:users|people|us|me)|let (?:users|people|us|me)|implement(?:ing)?|introduce|enable)\b/gi;

/** What a title that names the work looks like, per kind. */
const TITLE_CUES: { kind: WorkKind; re: RegExp; weight: number; say: string }[] = [
  {
    kind: "migration",
    re: /^\s*(?:\[?[\w-]+\]?\s*[:-]\s*)?(?:move|moving|migrate|migrating|migration|port|porting|upgrade|upgrading|switch|switching|convert|converting|bump|bumping|replace|replacing|transition|transitioning)\b.*\b(?:from|to|off|onto|with)\b/i,
    weight: 5,
    say: "its title asks to move or upgrade something",
  },
  {
    kind: "performance",
    re: /^(?:.*\b(?:speed up|faster|slow(?:ly|ness)?|latency|takes? (?:very |too |so )?long|takes? \d[\d.]*\s*(?:ms|s|sec|seconds|minutes)|performance|load times?|bundle size|memory (?:usage|leak))\b)/i,
    weight: 4,
    say: "its title asks for speed",
  },
  {
    kind: "infrastructure",
    re: /^\s*(?:turn on|set up|setup|add|enable|configure|introduce|automate)\s+(?:an?\s+|the\s+)?(?:continuous (?:deployment|delivery|integration)|ci(?:\/cd)?|cd|monitoring|alerting|backups?|metrics|logging|log aggregation|observability|autoscaling|staging)\b/i,
    weight: 5,
    say: "its title asks for infrastructure",
  },
];

/**
 * Signs of an issue filed on a project that exists: a tracker's template headings ("Describe the
 * solution you'd like", "To Reproduce"), and a thread of comments ("name · comment · 2015-02-27").
 */
const ISSUE_SIGNS =
  /^\s*(?:\*\*|#+\s*)?(?:is your feature request related|describe the (?:solution|bug|feature|problem|housekeeping|alternatives?)|proposed solution|alternatives considered|additional context|what problem|which problem|welches problem|welche lösung|user story \/ feature request|acceptance criteria|to reproduce|steps to reproduce|expected behaviou?r)\b|^\s*\S+\s+·\s+comment\b|^\s*\+1\b/gim;

/** The headings of a hackathon project's write-up. */
const WRITE_UP =
  /^\s*(?:#+\s*|\*\*)?(?:inspiration|what it does|how we built it|challenges we ran into|accomplishments that we're proud of|what we learned|what's next for)\b/gim;

function distinct(text: string, re: RegExp): string[] {
  return [...new Set([...text.matchAll(re)].map((m) => m[0].toLowerCase()))];
}

const quote = (words: string[]) =>
  words
    .slice(0, 3)
    .map((w) => `"${w}"`)
    .join(", ");

/** Reads the kind of work from the description and what was read of it. */
export function readKind(input: {
  description: string;
  scope: StatedScope;
  repositorySummary?: string | null;
  applicationType?: string | null;
}): KindReading {
  const text = input.description;
  const { scope } = input;
  const scores = new Map<WorkKind, { score: number; because: [number, string][] }>();
  const score = (k: WorkKind) => scores.get(k)?.score ?? 0;
  const add = (kind: WorkKind, score: number, because: string) => {
    const s = scores.get(kind) ?? { score: 0, because: [] };
    s.score += score;
    if (because) s.because.push([score, because]);
    scores.set(kind, s);
  };

  for (const [kind, { signals, cap }] of Object.entries(WORDS) as [
    keyof typeof WORDS,
    (typeof WORDS)[keyof typeof WORDS],
  ][]) {
    let score = 0;
    const said: string[] = [];
    for (const signal of signals) {
      const found = distinct(text, signal.re);
      if (found.length === 0) continue;
      score += found.length * signal.weight;
      said.push(signal.say ?? `it says ${quote(found)}`);
    }
    if (score > 0) add(kind, Math.min(cap, score), said.join("; "));
  }

  // "Our app will bring a timer" is the app to be built, not one that exists.
  const product = [
    ...new Set(
      [...text.matchAll(EXISTING_PRODUCT)]
        .filter(
          (m) =>
            !/^\s+(?:will|would|shall|is going to|aims?|should)\b/i.test(text.slice(m.index + m[0].length)),
        )
        .map((m) => m[0].toLowerCase()),
    ),
  ];
  const issueLike = new RegExp(ISSUE_SIGNS.source, "im").test(text);
  const existing = [...product, ...distinct(text, EXISTING), ...(issueLike ? ["an issue's template"] : [])];
  const building = distinct(text, NEW_BUILD);
  const asks = distinct(text, FEATURE_ASK);

  // Structure says more than words.
  if (scope.reproduction.length > 0) add("bug", 5, "it gives steps to reproduce");
  if (scope.observed.length > 0 || /\b(?:expected|actual) (?:behaviou?r|result)/i.test(text))
    add("bug", 3, "it states what happens and what should happen");
  const title = scope.title ?? "";
  // What the text is called: its title, or its first line when it has none (a one-line request).
  const firstOnly = text.trim().split("\n")[0] ?? "";
  const named = title || (firstOnly.split(/\s+/).length <= 30 ? firstOnly : "");
  if (/^\s*(?:\[?bug\]?|fix|fixes|hotfix)\b[:\s]/i.test(title)) add("bug", 4, "its title calls it a bug");
  // A one-line report has no title: its line is.
  const firstLine = text.trim().split("\n")[0] ?? "";
  const faultTitle = titleReportsFault(
    scope.title ?? (text.trim().includes("\n") || firstLine.split(/\s+/).length > 25 ? null : firstLine),
  );
  if (faultTitle) add("bug", 4, "its title says what goes wrong");
  if (/^\s*(?:\[?spike\]?|investigate|research|evaluate|explore)\b/i.test(title))
    add("spike", 4, "its title asks for an investigation");
  // "Proposal: tags on bookmarks" may be read as a label rather than a title: its first line says it.
  if (/^\s*(?:\[?(?:feature(?: request)?|request|proposal|rfe|enhancement)\]?)\s*[:\]-]/i.test(named))
    add("feature", 5, "its title asks for a feature");
  else if (/^\s*\[?feature(?: request)?\]?\b/i.test(title)) add("feature", 3, "its title asks for a feature");
  // The title says what the work is: "Move from Mongo to Postgres", "Speed up loading of search results".
  // Moving DNS or a CI system is infrastructure work; moving a database or a framework is a migration.
  const infraTitle =
    /\b(?:dns|waf|cdn|load balancers?|ingress|kubernetes|k8s|terraform|ci|cd|pipelines?|monitoring|alerting|hosting|servers?|vpc)\b/i.test(
      named,
    ) && !/\b\d+\.\d+|\bv\d|\bto\s+[\w.-]+\s+\d+\b/i.test(named);
  const titled = TITLE_CUES.filter((cue) => cue.kind !== "migration" || !infraTitle).filter(
    (cue) => cue.re.test(named) && (cue.kind !== "performance" || !building.length),
  );
  // A report of slowness filed with a bug's template is still about speed.
  for (const cue of titled) add(cue.kind, cue.weight, cue.say);
  // An issue on a tracker: a template's headings, or a thread of comments, is about something that exists.
  const issue = [...text.matchAll(ISSUE_SIGNS)].length;
  if (issue > 0) add("feature", 3, "it is written as an issue on an existing project");
  // A bug report's own template ("Describe the bug", "Bug report") says what it is.
  if (/^\s*(?:\*\*|#+\s*)?(?:describe the bug|bug report|bug description)\b/im.test(text))
    add("bug", 4, "it is written in a bug report's template");
  if (
    /^\s*(?:add|implement|support|allow|let|introduce|enable|integrate|show|send)\b/i.test(title) &&
    /\b(?:to|in|for|on|into)\b/i.test(title)
  )
    add("feature", 2, "its title asks to add something to what exists");
  if (scope.questions.length >= 3) add("spike", 1.5, `it asks ${scope.questions.length} questions`);

  if (input.repositorySummary) add("feature", 3, "it is linked to an existing repository");
  // "our app" is the thing being changed; "the existing HR system" may only be something to integrate with.
  const ours = product.filter((p) => p.startsWith("our "));
  const existingWeight = Math.min(
    4,
    ours.length * 2 + (product.length - ours.length) + (existing.length - product.length) * 0.75,
  );
  if (existing.length) add("feature", existingWeight, `it speaks of what exists (${quote(existing)})`);
  // Making something that exists faster, or fixing or moving it, is that kind of work.
  if (product.length)
    for (const kind of ["performance", "bug", "migration"] as const) if (score(kind) > 0) add(kind, 1.5, "");
  if (existing.length && asks.length) add("feature", 1, `and asks to ${quote(asks)}`);
  if (building.length)
    add("product", Math.min(4, 2 + building.length), `it describes something new (${quote(building)})`);
  // A hackathon write-up ("Inspiration", "What it does", "How we built it") describes what its team built.
  const writeUp = distinct(text, WRITE_UP);
  if (writeUp.length >= 2) add("product", 5, "it is a write-up of something its team built");
  if (scope.subject) add("product", 2, `it names what to build ("${scope.subject.slice(0, 60)}")`);
  if (scope.requirements.length >= 3 && !product.length)
    add("product", 1.5, `it lists ${scope.requirements.length} features of its own`);
  if (!existing.length && !input.repositorySummary) add("product", 1, "");

  // The kinds that change something need that something: a new product that mentions speed, alerts or
  // a dashboard is still a new product.
  const changes: WorkKind[] = ["bug", "performance", "migration"];
  // Only a text that says it builds something new, with nothing that exists, and no report structure.
  const fresh =
    building.length > 0 &&
    titled.length === 0 &&
    score("product") >= 4 &&
    product.length === 0 &&
    !input.repositorySummary &&
    scope.reproduction.length === 0 &&
    scope.observed.length === 0;
  const order: WorkKind[] = [
    "bug",
    "migration",
    "spike",
    "performance",
    "data",
    "infrastructure",
    "feature",
    "product",
  ];
  let best: WorkKind = "product";
  let bestScore = -1;
  // Fixing, speeding up or moving something needs evidence that it exists, or a report's structure.
  const reported =
    scope.reproduction.length > 0 ||
    scope.observed.length > 0 ||
    faultTitle ||
    Boolean(input.repositorySummary);
  const runsToday = RUNS_TODAY.test(text);
  const evidence: Partial<Record<WorkKind, boolean>> = {
    // A spike's deliverable is an answer: it says so in its title, asks questions, or speaks of little else.
    spike:
      /^\s*(?:\[?spike\]?|investigate|research|evaluate|explore)\b/i.test(title) ||
      scope.questions.length >= 2 ||
      score("spike") >= 4.5,
    // "Bugs squashed" in a project's write-up is not a report: a fix needs a report or a system with words of faults.
    bug: reported || (existing.length > 0 && score("bug") >= 3),
    // Durations alone ("25 min" in a timer app) are not a measurement of something slow.
    performance:
      reported ||
      runsToday ||
      titled.some((c) => c.kind === "performance") ||
      (existing.length > 0 && distinct(text, WORDS.performance.signals[0]!.re).length >= 3),
  };
  for (const kind of order) {
    if (evidence[kind] === false) continue;
    let s = score(kind);
    if (fresh && (changes.includes(kind) || kind === "feature")) s = Math.min(s, score("product") - 0.5);
    // Words alone must carry some weight before a kind is chosen over the default.
    if (kind !== "product" && s < 3) continue;
    if (s > bestScore) {
      best = kind;
      bestScore = s;
    }
  }
  if (best !== "product" && score("product") > bestScore) best = "product";
  // A bug's template around a title that asks for speed: the title says what the work is.
  if (best === "bug" && !faultTitle && titled.some((c) => c.kind === "performance")) best = "performance";
  // The learned reader (decision 034), trained on descriptions people wrote, outranks these signs when it
  // is sure; where it hesitates, the signs decide. (On texts neither was tuned on, the two together read
  // the kind right more often than either alone.)
  const learned = kindReading(text);
  if (learnedOutranks(learned, best, existing.length > 0))
    return {
      id: learned.id,
      label: KIND_LABELS[learned.id],
      because: [
        ...learned.words.map(
          (w) =>
            `its wording reads as ${/^[aeiou]/i.test(KIND_LABELS[learned.id]) ? "an" : "a"} ${KIND_LABELS[learned.id]} (${w})`,
        ),
        ...(scores.get(learned.id)?.because ?? []).sort((a, b) => b[0] - a[0]).map(([, t]) => t),
      ].slice(0, 3),
    };
  // The strongest evidence first.
  const because = (scores.get(best)?.because ?? []).sort((a, b) => b[0] - a[0]).map(([, text]) => text);
  return {
    id: best,
    label: KIND_LABELS[best],
    because: because.length
      ? because.slice(0, 3)
      : ["nothing in it points to an existing system, so it is planned as something new"],
  };
}

/** How sure the learned reader must be to outrank the signs above. */
const LEARNED_SURE = 0.6;

/**
 * Whether the learned reader's kind replaces the one the signs chose: when it is sure and differs, except
 * that signs of a system that exists ("our app", "currently", an issue's template) keep a change a change.
 * Wording alone never makes it a new product, with a stack to choose and a first release.
 */
export function learnedOutranks(
  learned: { id: WorkKind; p: number },
  bySigns: WorkKind,
  existingSystem: boolean,
): boolean {
  if (learned.p < LEARNED_SURE || learned.id === bySigns) return false;
  return !(learned.id === "product" && existingSystem);
}
